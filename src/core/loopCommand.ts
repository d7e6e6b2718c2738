/** The slash commands the UserPromptSubmit hook answers. No imports: it runs before every prompt. */
type LoopCommandName = "start" | "stop" | "status" | "resume" | "pause" | "report";

export interface LoopCommand {
  name: LoopCommandName;
  /** The command as the user typed it (`/loop-start` or `/continuation-loop:loop-start`), for help text. */
  typed: string;
  /** Everything after the command word and the whitespace that follows it, exactly as typed. */
  args: string;
}

// `/loop-start` (project command) or `/continuation-loop:loop-start` (plugin command).
const COMMAND = /^\s*(\/(?:continuation-loop:)?loop-(start|stop|status|resume|pause|report))(?=\s|$)\s*/;

/** A typed prompt → the loop command it invokes, or undefined for any other prompt. */
export function matchLoopCommand(prompt: string): LoopCommand | undefined {
  const match = COMMAND.exec(prompt);
  if (!match) return undefined;
  return { name: match[2] as LoopCommandName, typed: match[1] as string, args: prompt.slice(match[0].length) };
}
