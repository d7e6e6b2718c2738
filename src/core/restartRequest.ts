import { LoopError } from "./errors.js";
import { FIELDS, type FieldSpec, USER_FIELDS } from "./fields.js";
import { parseStateFileName } from "./loopFileNames.js";
import type { HistoryRecord } from "./history.js";
import type { LoopState } from "./parseState.js";
import type { StartRequest } from "./parseStartArgs.js";

/** The fields a restart gives back: every user field but those a restart starts afresh (a paused loop runs). */
const RESTART_FIELDS = USER_FIELDS.filter((field) => !(FIELDS[field] as FieldSpec).resetOnRestart);

/**
 * A loop's user fields as a history end (or first) record keeps them, so the loop can be started again
 * (docs/REFERENCE.md "History"): the values its state file holds, as the person wrote them (`2h` stays `2h`).
 */
export function renderRecordFields(state: LoopState): Record<string, unknown> {
  return Object.fromEntries(
    RESTART_FIELDS.filter((f) => state.written[f] !== undefined).map((f) => [f, state.written[f]]),
  );
}

/** The loop name a record's state file has (`auth-fix` for `.claude/continuation-loop.auth-fix.local.md`); none for the default file or a pinned one. */
function readRecordName(stateFile: string | undefined): string | undefined {
  const name =
    stateFile === undefined ? undefined : parseStateFileName(stateFile.slice(stateFile.lastIndexOf("/") + 1));
  return name === "default" ? undefined : name;
}

/**
 * The start request that runs the `back`-th most recent finished loop again (of the state file `only`, when
 * given): its goal and fields, in the file of its name (docs/REFERENCE.md "History"). Throws LoopError when
 * the history holds no such loop. Pure.
 */
export function decideRestart(
  records: readonly HistoryRecord[],
  back: number,
  force: boolean,
  shown: string,
  only?: string,
  /** The command to run once a loop has ended, as the person typed it (`continuation-loop restart`). */
  retry = "/loop-start --again",
): StartRequest {
  const finished = records.filter(
    (r) =>
      r.decision === "end" &&
      typeof r.goal === "string" &&
      r.goal.trim() !== "" &&
      (only === undefined || r.state_file === only),
  );
  const record = finished[finished.length - back];
  if (!record?.goal) {
    const what = only === undefined ? "finished loop(s)" : `finished loop(s) of ${only}`;
    throw new LoopError("USAGE", `the history holds ${finished.length} ${what} with a goal, not ${back}`, {
      file: shown,
      expected: finished.length ? `a number from 1 to ${finished.length}` : `a loop that has ended, then ${retry}`,
    });
  }
  return {
    fields: { ...(record.fields ?? {}) },
    template: undefined,
    name: readRecordName(record.state_file),
    force,
    help: false,
    goal: record.goal.trimEnd(),
    command: retry,
  };
}
