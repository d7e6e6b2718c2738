// `continuation-loop view --name NAME`: the loop's sidecar as the hooks would save it now, for the companion
// module when the sidecar's view is of another text of the state file: a hand edit (docs/REFERENCE.md "The
// companion module"). It reads and prints; only the state-file transaction writes the sidecar.
import { LoopError } from "../core/errors.js";
import { parseState } from "../core/parseState.js";
import { readStateSettled } from "../io/readStateFile.js";
import { readSidecar, renderLoopSidecar } from "../io/sidecarFile.js";
import { type CommandCall, chooseTargetLoop, say } from "./commandTable.js";

/** Prints the sidecar's text; a missing or invalid state file is one line naming it, exit 1. */
export function runView(call: CommandCall): number {
  const file = chooseTargetLoop(call);
  const read = readStateSettled(file.statePath, file.shown, file.sidecarPath, (text) => ({
    text,
    state: parseState(text, file.shown),
  }));
  if (!read)
    throw new LoopError("STATE_UNREADABLE", "there is no such loop file", {
      file: file.shown,
      expected: "a loop started with /loop-start",
    });
  const { text, state } = read;
  return say(call, renderLoopSidecar(file, text, state, readSidecar(file.sidecarPath, state)).trimEnd());
}
