// The one line a person is told when a loop's sidecar did not read and was kept aside (docs/REFERENCE.md
// "Messages you may see").
import type { SidecarReading } from "./sidecar.js";

/** The limits a restarted count no longer holds to what was spent before. */
function renderRestartedLimits(entries: string[] | undefined): string {
  const has = (entry: string) => !entries || entries.includes(entry);
  const counts = [
    ...(has("spend") ? ["the spend for max_cost"] : []),
    ...(has("output_tokens") || has("tokens_by_model") ? ["the output tokens for max_tokens"] : []),
  ];
  return counts.length ? ` (${counts.join(" and ")} count from 0 again)` : "";
}

/**
 * The one line a person is told of a torn sidecar kept aside: which file, what did not read, what starts again
 * (the spend and tokens that `max_cost` and `max_tokens` count), and where the old file is. `ending`: the loop's
 * files go with this change, so nothing starts again.
 */
export function renderTornSidecar(
  torn: Extract<SidecarReading, { kind: "torn" }>,
  shown: string,
  keptShown: string,
  ending = false,
): string {
  const restarts = torn.entries
    ? `${torn.entries.join(", ")} ${torn.entries.length === 1 ? "starts" : "start"} again${renderRestartedLimits(torn.entries)}, and the other counters are kept`
    : `the loop's counters start again${renderRestartedLimits(undefined)}`;
  const then = ending ? "" : `, so ${restarts}`;
  return `continuation-loop: ${shown} could not be read (${torn.why})${then}; the old file is kept as ${keptShown}.`;
}
