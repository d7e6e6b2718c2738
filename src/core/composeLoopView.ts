import { parseChecklist } from "./checklist.js";
import { type LoopViewFacts, renderChecklistCount } from "./loopView.js";
import { parseState } from "./parseState.js";
import { makeRuntime, parseSidecar } from "./sidecar.js";

/**
 * A loop's files → its view, through the one reader of each: the state file (LoopError naming the file when
 * it does not parse), the sidecar (another loop's or a torn one counts as none) and the checklist (`k/n`,
 * read through `readChecklist`, left out when it does not read). Pure but for that reader.
 */
export function composeLoopView(
  name: string,
  shown: string,
  stateText: string,
  sidecarText: string | undefined,
  readChecklist: (checklist: string) => string,
): LoopViewFacts {
  const state = parseState(stateText, shown);
  const runtime = (sidecarText !== undefined && parseSidecar(sidecarText, state)) || makeRuntime();
  let checklist: string | undefined;
  try {
    if (state.checklist !== undefined) {
      checklist = renderChecklistCount(parseChecklist(readChecklist(state.checklist)));
    }
  } catch {
    checklist = undefined;
  }
  return {
    state_text: stateText,
    sidecar_text: sidecarText ?? "",
    name,
    state,
    runtime,
    ...(checklist && { checklist }),
  };
}
