// `continuation-loop checkpoints` and `restore N` (docs/REFERENCE.md "Checkpoints"): a loop's working-tree
// snapshots listed, and one put back.
import { LoopError } from "../core/errors.js";
import { chooseSessionLoop, type LoopFile, loopFileAt } from "../core/loopFiles.js";
import { namedLoopFile } from "../core/namedLoopFile.js";
import { parseCliArgs } from "./parseCliArgs.js";
import { listCheckpoints } from "../io/checkpoints.js";
import { readHistory } from "../io/history.js";
import { scanLoops } from "../io/listLoops.js";
import { restoreCheckpoint } from "../io/restoreCheckpoint.js";
import { type Context, EXIT, projectRootOf } from "./context.js";

/** `--name NAME`, else this session's loop, else the project's first, else the default loop. */
function chooseLoop(ctx: Context, name: string | true | undefined, command: string): LoopFile {
  const root = projectRootOf(ctx);
  if (typeof name === "string") return namedLoopFile(root, name, command);
  const { loops } = scanLoops(root, ctx.env);
  const session = ctx.env.CLAUDE_CODE_SESSION_ID || undefined;
  return chooseSessionLoop(loops, session)?.file ?? loops[0]?.file ?? loopFileAt(root, "default");
}

export function runCheckpoints(argv: string[], ctx: Context): number {
  const options = parseCliArgs("checkpoints", argv, { name: "value" });
  const file = chooseLoop(ctx, options.name, "continuation-loop checkpoints");
  const list = listCheckpoints({ root: file.root, loop: file.name, env: ctx.env as NodeJS.ProcessEnv });
  if (list.length === 0) {
    ctx.out(`continuation-loop: loop ${file.name} has no checkpoints (set checkpoints: true in ${file.shown}).\n`);
    return EXIT.ok;
  }
  const rows = list.map(
    (c) => `  ${String(c.iteration).padStart(9)}  ${c.time.replace(/\.\d+Z$/, "Z")}  ${c.filesChanged}`,
  );
  ctx.out(`checkpoints of loop ${file.name}:\n  iteration  time                  files changed\n${rows.join("\n")}\n`);
  return EXIT.ok;
}

/** The iteration whose Stop measured the loop's best metric, from its history (docs/REFERENCE.md "Improvement loops"). */
function readBestIteration(file: LoopFile): number {
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
      file: "continuation-loop restore",
      field: "metric",
      expected: "restore best after a Stop of a loop with a metric, or restore N",
    });
  }
  return best.metric_best_iteration;
}

export function runRestore(argv: string[], ctx: Context): number {
  const [first, ...rest] = argv;
  if (first === "best") {
    const options = parseCliArgs("restore", rest, { name: "value" });
    return restoreIteration(chooseLoop(ctx, options.name, "continuation-loop restore"), undefined, ctx);
  }
  const iteration = Number(first);
  if (first === undefined || !/^[1-9][0-9]*$/.test(first)) {
    throw new LoopError("USAGE", "which iteration's checkpoint to restore", {
      file: "continuation-loop restore",
      expected: "restore N [--name NAME], N an iteration that `continuation-loop checkpoints` lists",
      ...(first !== undefined && { received: JSON.stringify(first) }),
    });
  }
  const options = parseCliArgs("restore", rest, { name: "value" });
  return restoreIteration(chooseLoop(ctx, options.name, "continuation-loop restore"), iteration, ctx);
}

/** Restores `iteration` (undefined: the best metric's) of the loop's checkpoints. */
function restoreIteration(file: LoopFile, chosen: number | undefined, ctx: Context): number {
  const iteration = chosen ?? readBestIteration(file);
  const done = restoreCheckpoint({ root: file.root, loop: file.name, env: ctx.env as NodeJS.ProcessEnv, iteration });
  const what = chosen === undefined ? `the best metric's iteration (${done.iteration})` : `iteration ${done.iteration}`;
  ctx.out(
    `continuation-loop: restored ${what} of loop ${file.name}: ${done.written} file(s) written, ${done.removed} removed. HEAD, the index and the stash are as they were.\n`,
  );
  return EXIT.ok;
}
