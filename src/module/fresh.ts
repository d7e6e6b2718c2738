// fresh_context in the companion module (README "Fresh context"): a continuation the Stop hook marked with
// the fresh-context line goes into a cleared context, a real `/clear` first, then the prompt. The loop's
// files carry over the clear through the command hooks' SessionEnd and SessionStart, as for a person's
// /clear. Every `$` call is spelled `$.noun.verb(…)` (see index.ts).
import { FRESH_LINE } from "../core/loopMarker.js";
import type { Engine } from "./engine.js";
import { injectFault } from "./state.js";

/** The prompt without its fresh-context line, or undefined when the Stop hook did not ask for a clear. */
export function readFreshPrompt(text: string): string | undefined {
  return text.endsWith(FRESH_LINE) ? text.slice(0, -FRESH_LINE.length) : undefined;
}

/**
 * Clears the context, then sends the prompt as its first message. `cleared` is told once the clear is
 * done (or given up), so a retry after a refused submit sends the prompt again without clearing twice.
 * A clear that fails costs the fresh context, never the iteration: the prompt, which stands alone, goes
 * into the context as it is, with one line for the user.
 */
export async function clearThenSubmit($: Engine, text: string, cleared: () => void): Promise<void> {
  try {
    injectFault("clear");
    await $.command.run({ command: "clear" });
  } catch (error) {
    const why = error instanceof Error ? error.message : String(error);
    try {
      $.ui.log(`continuation-loop: the context could not be cleared (${why}); this iteration goes on in it.`);
    } catch {
      // the iteration still goes on
    }
  }
  cleared();
  await $.prompt.submit({ text });
}
