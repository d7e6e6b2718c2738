// fresh_context in the companion module (README "Fresh context"): a continuation the Stop hook marked with
// the fresh-context line goes into a cleared context, a real `/clear` first, then the prompt. The loop's
// files carry over the clear through the command hooks' SessionEnd and SessionStart, as for a person's
// /clear. Every `$` call is spelled `$.noun.verb(…)` (see index.ts).
import { FRESH_LINE } from "../core/loopMarker.js";
import type { Engine } from "./engine.js";

/** The prompt without its fresh-context line, or undefined when the Stop hook did not ask for a clear. */
export function readFreshPrompt(text: string): string | undefined {
  return text.endsWith(FRESH_LINE) ? text.slice(0, -FRESH_LINE.length) : undefined;
}

/**
 * Clears the context, then sends the prompt as its first message. `cleared` is told once the clear is
 * done, so a retry after a refused submit sends the prompt again without clearing twice.
 */
export async function clearThenSubmit($: Engine, text: string, cleared: () => void): Promise<void> {
  await $.command.run({ command: "clear" });
  cleared();
  await $.prompt.submit({ text });
}
