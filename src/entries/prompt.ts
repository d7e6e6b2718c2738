// UserPromptSubmit entry (hooks/prompt.js): loop commands and the todo reminder. Always exit 0.
import { runPromptHook } from "../app/promptHook.js";
import { processContext } from "./processContext.js";
import { parseJsonObject } from "../core/hookStdin.js";

const ctx = processContext();
process.exitCode = 0;
runPromptHook(parseJsonObject(ctx.readStdin()), ctx)
  .then((out) => out && ctx.out(out))
  .catch(() => undefined)
  .then(() => process.exit(0));
