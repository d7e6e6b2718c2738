// The sidecar the hooks save for a state file's text (renderLoopSidecar, src/io/sidecarFile.ts), made from texts
// in memory for the module's unit tests: the checklist's count is given instead of read from a file.
import { parseState } from "../../src/core/parseState.js";
import { digestOf, makeRuntime, parseSidecar, renderSidecar } from "../../src/core/sidecar.js";

/** The sidecar saved with `stateText`, carrying the bookkeeping of `sidecarText` when it is this loop's. Throws when the state does not parse. */
export function renderSidecarFor(stateText: string, sidecarText?: string, checklist?: string): string {
  const state = parseState(stateText, "state file");
  const runtime = (sidecarText !== undefined && parseSidecar(sidecarText, state)) || makeRuntime();
  return renderSidecar(runtime, state, { state_digest: digestOf(stateText), state, ...(checklist && { checklist }) });
}
