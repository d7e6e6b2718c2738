// `continuation-loop view --name NAME`: the band's view of one loop, as JSON, for the companion module when
// the view file the Stop hook keeps does not match the loop's files (docs/REFERENCE.md "The companion module").
import { composeLoopView } from "../core/composeLoopView.js";
import { LoopError } from "../core/errors.js";
import { renderLoopView } from "../core/loopView.js";
import { readChecklistText } from "../io/readProjectFiles.js";
import { readStateFile } from "../io/readStateFile.js";
import { readSidecarText } from "../io/sidecarFile.js";
import { type CommandCall, chooseTargetLoop, say } from "./commandTable.js";

/** Prints the view; a missing or invalid state file is one line naming it, exit 1. */
export function runView(call: CommandCall): number {
  const file = chooseTargetLoop(call);
  const read = readStateFile(file.statePath, file.shown);
  if (read.kind === "missing")
    throw new LoopError("STATE_UNREADABLE", "there is no such loop file", {
      file: file.shown,
      expected: "a loop started with /loop-start",
    });
  const sidecar = readSidecarText(file.sidecarPath);
  const view = composeLoopView(file.name, file.shown, read.text, sidecar, (checklist) =>
    readChecklistText(file.root, checklist, file.shown),
  );
  return say(call, renderLoopView(view).trimEnd());
}
