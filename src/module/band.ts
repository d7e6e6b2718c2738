// The band above the prompt (docs/REFERENCE.md "The companion module"): one line about this session's loop. Pure:
// the module keeps the loop's view (src/core/sidecar.ts, saved by the hooks) in memory; drawing only renders it.
import { clipToCells } from "../core/cellWidth.js";
import { renderPlainText } from "../core/plainText.js";
import { renderStatusline } from "../core/renderStatusline.js";
import { readPause } from "../core/sidecar.js";
import { renderWaitingFor } from "../core/background.js";
import type { ShownLoop } from "./state.js";

/** Why the loop waits, and how to go on; "" while it runs. */
function renderPause(view: ShownLoop): string {
  const pause = readPause(view.state.active, view.runtime);
  // Its start only: the whole question is in the transcript, above the band, and in /loop-status.
  if (pause?.reason === "question") return `Claude asks: ${clipToCells(pause.text, 40)} — your next prompt answers it`;
  // The head already says "loop paused": what follows says why, then how to go on.
  if (pause?.reason === "api_errors")
    return `after ${view.runtime.api_errors_since_stop} API errors in a row — /loop-resume (or active: true) resumes it`;
  if (!view.state.active) return "/loop-resume (or active: true) resumes it";
  return "";
}

/**
 * The band's one line: name, n/max, elapsed, tokens, spend against max_cost, checklist, then a pause, a
 * wait after an API error, or the background tasks the loop waits for. While a turn runs (the task's
 * notification, a person's prompt) the loop waits for nothing: the Stop at its end decides again; after Esc in such
 * a turn (`interruptedHold`, the hold's `since`) no Stop comes, and the loop waits for the person. A wait for a
 * permission answer is not repeated here: Claude Code draws no band while its prompt is open, and once the prompt is
 * answered or closed the record is stale until the next Stop clears it; `/loop-status` says it.
 */
export function renderBand(
  view: ShownLoop,
  now: number,
  sessionId: string | undefined,
  wait?: string,
  turnRuns = false,
  interruptedHold?: string,
): string {
  const line = renderStatusline(view.state, view.runtime, now, sessionId).replace(/^⟳ /, "");
  const parts = [`${renderBandHead(view.name)}${line}`];
  if (view.checklist) parts.push(`checklist ${view.checklist}`);
  const pause = renderPause(view);
  const hold = view.runtime.background_hold;
  if (pause) parts.push(pause);
  else if (wait) parts.push(wait);
  else if (hold && !turnRuns && hold.since !== interruptedHold) parts.push(renderWaitingFor(hold.tasks));
  else if (view.runtime.plan_hold && !turnRuns) parts.push("waiting: plan mode");
  // The loop's name and data are drawn as text: their escape sequences would redraw Claude Code's screen.
  return renderPlainText(parts.join(" · "));
}

/** The band while this session's state file is invalid: the loop is paused until the file is fixed. */
export function renderInvalidBand(name: string): string {
  return renderPlainText(`${renderBandHead(name)}state file invalid, paused: /loop-status says why`);
}

/** The band's start: the plugin's sign and name, and the loop's name unless it is the default one. */
function renderBandHead(name: string): string {
  return `⟳ continuation-loop ${name === "default" ? "" : `${name} `}· `;
}
