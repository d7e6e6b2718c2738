// The band above the prompt (docs/REFERENCE.md "The companion module"): one line about this session's loop. Pure:
// the module reads the files on events and keeps the parsed view in memory; drawing only renders it.
import { parseChecklist } from "../core/checklist.js";
import { parseState, type LoopState } from "../core/parseState.js";
import { renderStatusline } from "../core/renderStatus.js";
import { makeRuntime, parseSidecar, readPause, type Runtime } from "../core/sidecar.js";

export interface LoopView {
  /** `default`, or the NAME of `continuation-loop.NAME.local.md`. */
  name: string;
  state: LoopState;
  runtime: Runtime;
  /** `k/n done` of the checklist, when the loop has one and it reads. */
  checklist?: string;
}

/** A loop file's text (and its sidecar's, checklist's) → the view, or undefined when it does not parse. */
export function readLoopView(
  name: string,
  stateText: string,
  sidecarText: string | undefined,
  checklistText?: string,
): LoopView | undefined {
  let state: LoopState;
  try {
    state = parseState(stateText, name);
  } catch {
    return undefined;
  }
  const runtime = (sidecarText && parseSidecar(sidecarText, state)) || makeRuntime();
  let checklist: string | undefined;
  try {
    if (checklistText !== undefined) {
      const list = parseChecklist(checklistText);
      checklist = `${list.done}/${list.total}`;
    }
  } catch {
    checklist = undefined;
  }
  return { name, state, runtime, ...(checklist && { checklist }) };
}

/** Why the loop waits, and how to go on; "" while it runs. */
function renderPause(view: LoopView): string {
  const pause = readPause(view.state.active, view.runtime);
  if (pause?.reason === "question") return `Claude asks: ${pause.text} — your next prompt answers it`;
  if (pause?.reason === "api_errors")
    return `paused after ${view.runtime.api_errors_since_stop} API errors in a row — /loop-resume (or active: true) resumes it`;
  if (!view.state.active) return "paused — /loop-resume (or active: true) resumes it";
  return "";
}

/** The band's one line: name, n/max, elapsed, tokens, spend against max_cost, checklist, pause, a wait after an API error. */
export function renderBand(view: LoopView, now: number, sessionId: string | undefined, wait?: string): string {
  const line = renderStatusline(view.state, view.runtime, now, sessionId).replace(/^⟳ /, "");
  const parts = [`⟳ continuation-loop ${view.name === "default" ? "" : `${view.name} `}· ${line}`];
  if (view.checklist) parts.push(`checklist ${view.checklist}`);
  const pause = renderPause(view);
  if (pause) parts.push(pause);
  else if (wait) parts.push(wait);
  return parts.join(" · ");
}
