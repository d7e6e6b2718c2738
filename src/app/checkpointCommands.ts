// `continuation-loop checkpoints` and `restore N` (docs/REFERENCE.md "Checkpoints"): a loop's working-tree
// snapshots listed, and one put back.
import type { CheckpointOwner } from "../core/checkpointRefs.js";
import { LoopError } from "../core/errors.js";
import { formatCount } from "../core/formatCount.js";
import type { LoopFile } from "../core/loopFiles.js";
import { parseState } from "../core/parseState.js";
import { renderFileList } from "../core/scope.js";
import { listCheckpoints } from "../io/checkpoints.js";
import { readHistory } from "../io/history.js";
import { readStateFile } from "../io/readStateFile.js";
import { restoreCheckpoint } from "../io/restoreCheckpoint.js";
import { type CommandCall, chooseTargetLoop, say } from "./commandTable.js";
import { parseWholeNumber } from "./parseCliArgs.js";

/**
 * Whose checkpoints the name's refs are read for: the loop in its state file (by `started_at`), else, with
 * none, the last one that ran. An invalid state file is a LoopError: its loop cannot be told.
 */
function readCheckpointOwner(file: LoopFile): CheckpointOwner {
  const read = readStateFile(file.statePath, file.shown);
  return read.kind === "missing" ? "last" : { startedAt: parseState(read.text, file.shown).started_at };
}

/** How many checkpoints `checkpoints` lists by default: a loop left running overnight keeps thousands. */
export const CHECKPOINTS_SHOWN = 20;

/** What a restore did not put back: a submodule's files are another repository's (docs/REFERENCE.md "Checkpoints"). */
const renderSubmodulesKept = (paths: readonly string[]): string =>
  paths.length === 0
    ? ""
    : ` Submodules are left as they are (a checkpoint keeps only their commit): ${renderFileList(paths, 3)}.`;

/** A row's note of the large untracked files its checkpoint left out (docs/REFERENCE.md "Checkpoints"). */
const renderLeftOut = (files: readonly { path: string }[]): string =>
  files.length === 0
    ? ""
    : `  (left out, too large: ${renderFileList(
        files.map((file) => file.path),
        3,
      )})`;

/** `checkpoints [--name NAME] [--limit N] [--all]`: the loop's last checkpoints, oldest first. */
export function runCheckpoints(call: CommandCall): number {
  const { ctx, options } = call;
  const limit = options.all
    ? Number.POSITIVE_INFINITY
    : parseWholeNumber(options.limit, "--limit", call.command, CHECKPOINTS_SHOWN);
  const file = chooseTargetLoop(call);
  const env = ctx.env as NodeJS.ProcessEnv;
  const list = listCheckpoints({ root: file.root, loop: file.name, env, owner: readCheckpointOwner(file) });
  const none = `continuation-loop: loop ${file.name} has no checkpoints (set checkpoints: true in ${file.shown}).`;
  if (list.length === 0) return say(call, none);
  const shown = list.slice(-limit);
  const earlier = list.length - shown.length;
  const rows = shown.map(
    (c) =>
      `  ${String(c.iteration).padStart(9)}  ${c.time.replace(/\.\d+Z$/, "Z")}  ${c.filesChanged}${renderLeftOut(c.leftOut)}`,
  );
  const head = `checkpoints of loop ${file.name}:\n  iteration  time                  files changed`;
  const more = earlier > 0 ? [`  … and ${formatCount(earlier)} earlier (--all lists every one)`] : [];
  return say(call, [head, ...more, ...rows].join("\n"));
}

/** The iteration whose Stop measured the loop's best metric, from its history (docs/REFERENCE.md "Improvement loops"). */
function readBestIteration(file: LoopFile, command: string): number {
  const records = readHistory(file.historyPath).filter(
    (r) => r.state_file === undefined || r.state_file === file.shown,
  );
  // The loop running now, else the last one that ended: records after the end before it.
  const ends = records.flatMap((r, i) => (r.decision === "end" ? [i] : []));
  const last = records.length - 1;
  const from = ends.at(-1) === last ? (ends.at(-2) ?? -1) : (ends.at(-1) ?? -1);
  const best = records
    .slice(from + 1)
    .filter((r) => typeof r.metric_best_iteration === "number")
    .at(-1);
  if (best?.metric_best_iteration === undefined) {
    throw new LoopError("CHECKPOINT_UNKNOWN", `loop ${file.name} has no best metric in its history`, {
      file: command,
      field: "metric",
      expected: "restore best after a Stop of a loop with a metric, or restore N",
    });
  }
  return best.metric_best_iteration;
}

/** `restore N|best [--name NAME]`: iteration N's checkpoint, or the best metric's, put back. */
export function runRestore(call: CommandCall): number {
  const [first] = call.words;
  if (first !== "best" && (first === undefined || !/^[1-9][0-9]*$/.test(first))) {
    throw new LoopError("USAGE", "which iteration's checkpoint to restore", {
      file: call.command,
      expected: "restore N [--name NAME], N an iteration that `continuation-loop checkpoints` lists, or restore best",
      ...(first !== undefined && { received: JSON.stringify(first) }),
    });
  }
  const file = chooseTargetLoop(call);
  const best = first === "best";
  const iteration = best ? readBestIteration(file, call.command) : Number(first);
  const env = call.ctx.env as NodeJS.ProcessEnv;
  const done = restoreCheckpoint({
    root: file.root,
    loop: file.name,
    env,
    iteration,
    owner: readCheckpointOwner(file),
  });
  const what = best ? `the best metric's iteration (${done.iteration})` : `iteration ${done.iteration}`;
  return say(
    call,
    `continuation-loop: restored ${what} of loop ${file.name}: ${done.written} file(s) written, ${done.removed} removed. HEAD, the index and the stash are as they were.${renderSubmodulesKept(done.submodules)}`,
  );
}
