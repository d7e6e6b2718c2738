// fresh_context in the companion module (docs/REFERENCE.md "Fresh context"): a continuation the Stop hook marked with
// the fresh-context line goes into a cleared context, a real `/clear` first, then the prompt. The loop's
// files carry over the clear through the command hooks' SessionEnd and SessionStart, as for a person's
// /clear. Every `$` call is spelled `$.noun.verb(…)` (see index.ts).
import { FRESH_LINE } from "../core/protocol.js";
import type { Engine } from "./engine.js";
import { injectFault } from "./state.js";

/** The prompt without its fresh-context line, or undefined when the Stop hook did not ask for a clear. */
export function readFreshPrompt(text: string): string | undefined {
  return text.endsWith(FRESH_LINE) ? text.slice(0, -FRESH_LINE.length) : undefined;
}

/**
 * Clears the context, then sends the prompt as its first message. Both are queued at once, the clear
 * first: Claude Code runs the clear only once the turn has ended, and a `-p` session whose turn ends with
 * nothing queued ends (docs/ARCHITECTURE.md). `cleared` is told once the clear has run, so a retry after a
 * refused submit sends the prompt again without clearing twice, and a retry after both were refused (the
 * Stop still settling) clears first. A clear refused while the prompt goes costs the fresh context, never
 * the iteration: the prompt, which stands alone, goes into the context as it is, with one line for the user.
 */
export async function clearThenSubmit($: Engine, text: string, cleared: () => void): Promise<void> {
  let clearing: Promise<unknown>;
  try {
    injectFault("clear");
    clearing = $.command.run({ command: "clear" });
  } catch (error) {
    clearing = Promise.reject(error);
  }
  const [clear, submit] = await Promise.allSettled([clearing, $.prompt.submit({ text })]);
  if (clear.status === "fulfilled") cleared();
  if (submit.status === "rejected") throw submit.reason;
  if (clear.status === "fulfilled") return;
  const why = clear.reason instanceof Error ? clear.reason.message : String(clear.reason);
  try {
    $.ui.log(`the context could not be cleared (${why}); this iteration goes on in it.`);
  } catch {
    // the iteration still goes on
  }
}
