// The prompt hook's idle path (hooks/prompt.js): a prompt that concerns no loop gets the todo
// reminder without loading the loop's code (hooks/active/prompt.js), since this runs before every prompt.
import { matchLoopCommand } from "../core/loopCommand.js";
import {
  isApiResume,
  isBackgroundWake,
  isLoopContinuation,
  isTaskNotification,
  MODULE_ENV,
  parseTakeOver,
} from "../core/protocol.js";
import { type FoundLoop, resolveProjectRoot } from "../core/loopFiles.js";
import { renderTodoReminder } from "../core/todos.js";
import { type JsonObject, stringField } from "../core/hookStdin.js";
import { scanLoops } from "../io/listLoops.js";
import { readPendingQuestion } from "../io/sidecarFile.js";
import { readUnfinishedTodos } from "../io/readTodos.js";
import { readInterrupted } from "../io/readTranscript.js";
import type { Context } from "./context.js";
import type { CommandAnswer } from "./slashCommands.js";

/**
 * Was the prompt sent by a person or the SDK (`source` user or sdk, or none: versions before the field and
 * the module's prompts)? A wake-up (`loop_wakeup`, `schedule_wakeup`, `poll_event`) or Claude Code's own
 * (`system`) answers no question, resumes nothing and gets no reminder.
 */
function isSentByPerson(input: JsonObject): boolean {
  const source = stringField(input, "source");
  return source === undefined || source === "user" || source === "sdk";
}

/** The todo reminder (docs/REFERENCE.md "Todo reminder"), or undefined when nothing is unfinished or no person sent the prompt. */
export function readTodoReminder(input: JsonObject, ctx: Context): string | undefined {
  if (!isSentByPerson(input)) return undefined;
  try {
    const todos = readUnfinishedTodos({
      env: ctx.env,
      home: ctx.home,
      sessionId: stringField(input, "session_id"),
      transcriptPath: stringField(input, "transcript_path"),
    });
    // No schema on this path, which runs before every prompt: the fields it reads are read as strings.
    return todos?.length ? renderTodoReminder(todos) : undefined;
  } catch {
    // Bad input or a bug: a reminder is a nicety; the user's prompt must go through untouched.
    return undefined;
  }
}

/**
 * The hook's stdout: a block answers alone; otherwise the command's context and the reminder are
 * joined. "" when there is nothing to say.
 */
export function renderPromptOutput(command: CommandAnswer | undefined, reminder?: string): string {
  if (command?.block) return `${JSON.stringify({ decision: "block", reason: command.block })}\n`;
  const context = [reminder, command?.additionalContext].filter(Boolean).join("\n\n");
  const out: Record<string, unknown> = {};
  if (command?.systemMessage) out.systemMessage = command.systemMessage;
  if (context) out.hookSpecificOutput = { hookEventName: "UserPromptSubmit", additionalContext: context };
  return Object.keys(out).length ? `${JSON.stringify(out)}\n` : "";
}

/**
 * The hook's stdout when the prompt concerns no loop: not a loop command, not the resume after an
 * API error or a background start, and nothing of this session's loop to pause or resume. Undefined
 * when it does: then `runPromptHook` answers.
 */
export function answerIdlePrompt(input: JsonObject, ctx: Context): string | undefined {
  const prompt = stringField(input, "prompt");
  if (isApiResume(prompt) || isBackgroundWake(prompt)) return undefined;
  // `start --bg`'s or `resume --bg`'s first prompt: the active path gives this session the loop.
  if (parseTakeOver(prompt) !== undefined) return undefined;
  // The module's continuation after a `/rewind` gives the loop again: the active path renders it.
  if (isLoopContinuation(prompt)) return ctx.env[MODULE_ENV.rewound] === "1" ? undefined : "";
  if (isTaskNotification(prompt)) return findPauseOrResume(input, ctx, false) ? undefined : "";
  if (prompt !== undefined && matchLoopCommand(prompt)) return undefined;
  if (findPauseOrResume(input, ctx, true)) return undefined;
  return renderPromptOutput(undefined, readTodoReminder(input, ctx));
}

/**
 * A person's prompt in a session that runs a loop: was the last turn interrupted (the loop pauses), or
 * does the prompt answer Claude's question (it resumes)? Undefined when neither. Read without the
 * lock, so that a prompt with nothing to pause or resume (nearly all) loads no more code and waits
 * for no lock; what is found is checked again under the lock.
 */
export function findPauseOrResume(
  input: JsonObject,
  ctx: Context,
  answersQuestion: boolean,
): { own: FoundLoop; sessionId: string; interrupted: boolean; answers: boolean } | undefined {
  const sessionId = stringField(input, "session_id");
  const transcript = stringField(input, "transcript_path");
  if (!sessionId || !isSentByPerson(input)) return undefined;
  const root = resolveProjectRoot(ctx.env, stringField(input, "cwd"), ctx.cwd);
  const own = scanLoops(root, ctx.env).loops.find((loop) => loop.owner === sessionId);
  if (!own) return undefined;
  const interrupted = transcript !== undefined && readInterrupted(transcript);
  // An ordinary prompt after Claude's <loop-pause> question is the answer: the loop goes on.
  const answers = answersQuestion && readPendingQuestion(own.file.sidecarPath);
  return interrupted || answers ? { own, sessionId, interrupted, answers } : undefined;
}
