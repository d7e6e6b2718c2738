// The UserPromptSubmit hook: answers a loop command, reminds Claude of unfinished todos. Light on
// purpose: it runs before every prompt, and only a loop command loads the parser and schemas.
import { matchLoopCommand } from "../core/loopCommand.js";
import {
  isApiResume,
  isBackgroundWake,
  isLoopContinuation,
  isTaskNotification,
  MODULE_ENV,
  parseTakeOver,
} from "../core/protocol.js";
import { type JsonObject, stringField } from "../core/hookStdin.js";
import type { Context } from "./context.js";
import type { CommandAnswer } from "./slashCommands.js";
import { findPauseOrResume, readTodoReminder, renderPromptOutput } from "./promptIdle.js";

export { renderPromptOutput };

/**
 * The parsed stdin → the hook's stdout. Never throws: a bug must not block the user's prompt with a
 * stack trace. Input that is not a JSON object gets nothing.
 */
export async function runPromptHook(input: JsonObject | undefined, ctx: Context): Promise<string> {
  if (!input) return "";
  const prompt = stringField(input, "prompt");
  // The loop's own continuation, sent as a prompt by the companion module: nobody's answer, no reminder.
  // After a wait for an API error it is also recorded, or refused should the loop no longer run.
  if (isApiResume(prompt) || isBackgroundWake(prompt)) {
    const { recordApiResume, recordBackgroundResume } = await import("./recordApiResume.js");
    const record = isApiResume(prompt) ? recordApiResume : recordBackgroundResume;
    return renderPromptOutput(record(input, ctx));
  }
  // A background session's first prompt from `start --bg` or `resume --bg`: the loop becomes this session's.
  if (parseTakeOver(prompt) !== undefined) {
    const { takeOverFromPrompt } = await import("./backgroundStart.js");
    takeOverFromPrompt(input, ctx);
    return "";
  }
  if (isLoopContinuation(prompt)) return ctx.env[MODULE_ENV.rewound] === "1" ? await giveAgain(input, ctx) : "";
  // Claude Code's own turn after a background task finished: no person's prompt, so it answers no
  // question and gets no reminder; an interrupted last turn still pauses the loop before it goes on.
  if (isTaskNotification(prompt)) return renderPromptOutput(await pauseOrResume(input, ctx, false));
  const matched = prompt === undefined ? undefined : matchLoopCommand(prompt);
  // The command table is evaluated only for a loop command (esbuild defers a module that only import() reaches).
  const slash = matched && (await import("./slashCommands.js"));
  const command = slash && matched && slash.isSlashCommand(matched.name) ? matched : undefined;
  // A prompt a person sent (an ordinary one, or /loop-status) in a session that runs a loop: was the
  // last turn interrupted? Then the loop pauses first, so neither the answer nor the status continues it.
  const paused = !command || command.name === "status" ? await pauseOrResume(input, ctx, !command) : undefined;
  let answer: CommandAnswer | undefined = paused;
  if (slash && command) {
    answer = await slash.runSlashCommand(command, input, ctx);
    if (paused?.systemMessage && answer.block) answer = { block: `${paused.systemMessage}\n${answer.block}` };
  }
  return renderPromptOutput(answer, answer?.block ? undefined : readTodoReminder(input, ctx));
}

/** The module's continuation after a `/rewind`: the conversation may have lost the loop, so it is given again. */
async function giveAgain(input: JsonObject, ctx: Context): Promise<string> {
  const { giveLoopAgain } = await import("./sessionHook.js");
  const context = giveLoopAgain("rewound", input, ctx);
  return context === undefined
    ? ""
    : `${JSON.stringify({ hookSpecificOutput: { hookEventName: "UserPromptSubmit", additionalContext: context } })}\n`;
}

/**
 * Pauses the session's loop when its last turn was interrupted, or resumes it when an ordinary
 * prompt answers Claude's question (docs/REFERENCE.md "Pausing"); undefined when neither applies.
 */
async function pauseOrResume(
  input: Record<string, unknown>,
  ctx: Context,
  answersQuestion: boolean,
): Promise<CommandAnswer | undefined> {
  const found = findPauseOrResume(input, ctx, answersQuestion);
  if (!found) return undefined;
  const { own, sessionId, interrupted, answers } = found;
  try {
    const { pauseOnInterrupt, resumeOnAnswer } = await import("./promptPauses.js");
    const paused = interrupted ? pauseOnInterrupt(own.file, sessionId, ctx.now()) : undefined;
    return paused ?? (answers ? resumeOnAnswer(own.file, sessionId, ctx.now()) : undefined);
  } catch {
    // a failed pause check must not block the user's prompt
    return undefined;
  }
}
