/** The slash commands the UserPromptSubmit hook answers. No imports: it runs before every prompt. */
export type LoopCommandName = "start" | "stop" | "status";

export interface LoopCommand {
  name: LoopCommandName;
  /** Everything after the command word and the whitespace that follows it, exactly as typed. */
  args: string;
}

// `/loop-start` (project command) or `/continuation-loop:loop-start` (plugin command).
const COMMAND = /^\s*\/(?:continuation-loop:)?loop-(start|stop|status)(?=\s|$)\s*/;

/** A typed prompt → the loop command it invokes, or undefined for any other prompt. */
export function matchLoopCommand(prompt: string): LoopCommand | undefined {
  const match = COMMAND.exec(prompt);
  if (!match) return undefined;
  return { name: match[1] as LoopCommandName, args: prompt.slice(match[0].length) };
}
