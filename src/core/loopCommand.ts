import { renderNameFlag } from "./loopFileNames.js";

/**
 * A prompt shaped like a loop command. It imports only the loop files' names: it runs before every prompt. Which commands exist is the
 * command table's word (`isSlashCommand`, src/app/slashCommands.ts), loaded only for such a prompt.
 */
export interface LoopCommand {
  /** `stop` for `/loop-stop`. */
  name: string;
  /** The command as the user typed it (`/loop-start` or `/continuation-loop:loop-start`), for help text. */
  typed: string;
  /** Everything after the command word and the whitespace that follows it, exactly as typed. */
  args: string;
}

// `/loop-start` (project command) or `/continuation-loop:loop-start` (plugin command).
const COMMAND = /^\s*(\/(?:continuation-loop:)?loop-([a-z][a-z0-9-]*))(?=\s|$)\s*/;

/** A typed prompt → the loop command it would invoke, or undefined for any other prompt. */
export function matchLoopCommand(prompt: string): LoopCommand | undefined {
  const match = COMMAND.exec(prompt);
  if (!match) return undefined;
  return { name: match[2] as string, typed: match[1] as string, args: prompt.slice(match[0].length) };
}

/**
 * The command `name` (`resume`, `stop`) as the person typed the one they ran: `/loop-pause` → `/loop-resume`,
 * `/continuation-loop:loop-pause` → `/continuation-loop:loop-resume`, `continuation-loop pause` →
 * `continuation-loop resume`; for the loop `loop`, ` --name NAME` after it. A message names what works where it is read.
 */
export function renderSiblingCommand(command: string, name: string, loop = "default"): string {
  const slash = COMMAND.exec(command);
  const sibling = slash
    ? `${(slash[1] as string).slice(0, -(slash[2] as string).length)}${name}`
    : /\s/.test(command)
      ? command.replace(/\S+$/, name)
      : `/loop-${name}`;
  return `${sibling}${renderNameFlag(loop)}`;
}
