import { elapsedSeconds, renderDuration } from "./duration.js";
import { formatCount } from "./formatCount.js";
import type { LoopState } from "./parseState.js";
import { renderMetricBrief } from "./renderMetric.js";
import { readLoopSpend, type Runtime } from "./sidecar.js";

// The loop in one line, for Claude Code's statusLine and the companion module's band: what it uses needs
// no package, since the module carries it.

const fmt = formatCount;

/** One short line for Claude Code's statusLine; "" when there is nothing to show. */
export function renderStatusline(state: LoopState, runtime: Runtime, now: number, sessionId?: string): string {
  const parts = [
    `${state.active && runtime.pause?.reason !== "question" ? "loop" : "loop paused"} ${state.iteration_count}/${state.max_iterations}`,
  ];
  const elapsed = elapsedSeconds(state, now);
  if (elapsed !== undefined)
    parts.push(
      state.max_duration ? `${renderDuration(elapsed)}/${renderDuration(state.max_duration)}` : renderDuration(elapsed),
    );
  const tokens = runtime.output_tokens;
  if (tokens > 0 || state.max_tokens)
    parts.push(`${fmt(tokens)}${state.max_tokens ? `/${fmt(state.max_tokens)}` : ""} tok`);
  const spent = readLoopSpend(runtime);
  if (spent !== undefined || state.max_cost !== undefined)
    parts.push(`$${(spent ?? 0).toFixed(2)}${state.max_cost !== undefined ? `/$${state.max_cost.toFixed(2)}` : ""}`);
  if (state.metric !== undefined) parts.push(renderMetricBrief(state, runtime));
  if (state.session_id && sessionId && state.session_id !== sessionId) parts.push("other session");
  return `⟳ ${parts.join(" · ")}`;
}
