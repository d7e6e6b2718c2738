// UserPromptSubmit entry: answer a loop command, remind Claude of unfinished todos. Always exit 0.
import { homedir } from "node:os";
import { handleLoopPrompt, renderPromptOutput } from "../cli/loopPrompt.js";
import { parseHookInput, promptInputSchema } from "../core/hookInput.js";
import { renderTodoReminder } from "../core/todos.js";
import { readStdin } from "../io/readStdin.js";
import { readUnfinishedTodos } from "../io/readTodos.js";
import { writeOutput } from "../io/writeOutput.js";

/** The fields we use, with JSON.parse only; undefined for anything but a JSON object. */
function peekInput(stdin: string): { session_id?: string; transcript_path?: string } | undefined {
  let raw: unknown;
  try {
    raw = JSON.parse(stdin);
  } catch {
    return undefined;
  }
  if (!raw || typeof raw !== "object" || Array.isArray(raw)) return undefined;
  const { session_id, transcript_path } = raw as Record<string, unknown>;
  if (session_id !== undefined && typeof session_id !== "string") return undefined;
  if (transcript_path !== undefined && typeof transcript_path !== "string") return undefined;
  return { session_id, transcript_path };
}

/** The todo reminder (SPEC §5), or undefined when nothing is unfinished or the input is bad. */
async function todoReminder(stdin: string): Promise<string | undefined> {
  try {
    const peek = peekInput(stdin);
    const todos =
      peek &&
      readUnfinishedTodos({
        env: process.env,
        home: homedir(),
        sessionId: peek.session_id,
        transcriptPath: peek.transcript_path,
      });
    if (!todos?.length) return undefined;
    // Checked only when there is something to say; zod itself loads only for input that fails the quick check.
    parseHookInput(stdin, promptInputSchema);
    return renderTodoReminder(todos);
  } catch {
    // Bad input or a bug: a reminder is a nicety; the user's prompt must go through untouched.
    return undefined;
  }
}

/** No top-level await: the bundle is CommonJS (scripts/build.mjs). */
async function main(): Promise<void> {
  const stdin = readStdin();
  // A loop command that is refused answers alone (a block); otherwise both contexts are joined.
  const loop = await handleLoopPrompt(stdin, { env: process.env, cwd: process.cwd(), now: Date.now() });
  const out = renderPromptOutput(loop, loop?.block ? undefined : await todoReminder(stdin));
  if (out) writeOutput(1, out);
}

process.exitCode = 0;
main().catch(() => undefined);
