// UserPromptSubmit entry (hooks/prompt.js): loop commands and the todo reminder. Always exit 0.
import { answerIdlePrompt } from "../app/promptIdle.js";
import { type JsonObject, parseJsonObject } from "../core/hookStdin.js";
import { loadActivePrompt } from "./loadActive.js";
import { exitOnOldNode } from "./oldNode.js";
import { processContext } from "./processContext.js";

exitOnOldNode("prompt");
const ctx = processContext();
process.exitCode = 0;

/** The hook's stdout: the idle answer, or the loop's code (hooks/active/prompt.js) when the prompt concerns a loop. */
async function answer(input: JsonObject | undefined): Promise<string> {
  if (!input) return "";
  return answerIdlePrompt(input, ctx) ?? loadActivePrompt().runPromptHook(input, ctx);
}

answer(parseJsonObject(ctx.readStdin()))
  .then((out) => out && ctx.out(out))
  .catch(() => undefined)
  .then(() => process.exit(0));
