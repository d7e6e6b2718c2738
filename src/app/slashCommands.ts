// The slash commands: each runs its row of the command table (loopCommands.ts), answered by the prompt hook.
import { stringField } from "../core/hookStdin.js";
import type { LoopCommand } from "../core/loopCommand.js";
import { resolveProjectRoot } from "../core/loopFiles.js";
import { describeError, runRow } from "./commandTable.js";
import type { Context } from "./context.js";
import { renderPlainText } from "../core/plainText.js";
import { LOOP_COMMANDS, SLASH_NAMES } from "./loopCommands.js";

/** What the prompt hook says for a loop command. `block` refuses the prompt with a reason for the user. */
export interface CommandAnswer {
  block?: string;
  systemMessage?: string;
  additionalContext?: string;
}

/** Is `/loop-NAME` one of ours? Another `/loop-…` prompt is an ordinary one. */
export const isSlashCommand = (name: string): boolean => SLASH_NAMES.includes(name);

/**
 * Runs a loop command the user typed. What it prints answers in the hook itself, blocking the prompt (no
 * model turn, so no Stop that could continue anything); what it tells Claude (start, resume) lets the
 * prompt go on with that context. Refusals block the prompt so Claude never acts on them.
 */
export async function runSlashCommand(
  command: LoopCommand,
  input: Record<string, unknown>,
  ctx: Context,
): Promise<CommandAnswer> {
  const row = isSlashCommand(command.name) ? LOOP_COMMANDS[command.name] : undefined;
  let text = "";
  let told: CommandAnswer | undefined;
  const write = (more: string) => {
    text += more;
  };
  try {
    if (!row) throw new Error(`no slash command /loop-${command.name}`);
    const code = await runRow(row, {
      command: command.typed,
      slash: true,
      // Split on whitespace, as a shell would not: the text never reaches one.
      argv: command.args.split(/\s+/).filter(Boolean),
      line: command.args,
      root: resolveProjectRoot(ctx.env, stringField(input, "cwd"), ctx.cwd),
      session: stringField(input, "session_id"),
      permissionMode: stringField(input, "permission_mode"),
      ctx: { ...ctx, out: write, err: write },
      tell: (user, context) => {
        // The person's screen shows both: a goal or name holding escape sequences is shown as text.
        told = { systemMessage: renderPlainText(user), additionalContext: renderPlainText(context) };
        return 0;
      },
    });
    return (code === 0 && told) || { block: renderPlainText(text.trimEnd()) };
  } catch (error) {
    return { block: describeError(error) };
  }
}
