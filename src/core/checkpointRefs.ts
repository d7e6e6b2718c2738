/**
 * Names and messages of checkpoint commits (docs/REFERENCE.md's `checkpoints` field): one ref per
 * iteration, `refs/continuation-loop/<loop>/<iteration>` (in a linked git worktree,
 * `refs/continuation-loop-worktree/<worktree>/<loop>/<iteration>`), whose commit message carries what
 * `continuation-loop checkpoints` lists and which loop of that name wrote it (its `started_at`), so
 * listing needs one git call and no other file.
 */
import { LoopError } from "./errors.js";
import { hashText } from "./hash.js";
import { LOOP_NAME } from "./loopFileNames.js";
import { renderFileList } from "./scope.js";

export const CHECKPOINT_REF_ROOT = "refs/continuation-loop";
/**
 * A linked worktree's checkpoints: refs shared by every worktree (all worktrees share most refs), under the
 * worktree's own id. Not git's per-worktree `refs/worktree/`: `git gc` run in another worktree does not see
 * those and prunes the commits they point to.
 */
const WORKTREE_REF_ROOT = "refs/continuation-loop-worktree";
const FILES_CHANGED = /^Files-Changed: (\d+)$/m;
const LOOP_STARTED = /^Loop-Started-At: (.+)$/m;
const LEFT_OUT = /^Left-Out: (\d+) (.+)$/gm;

/**
 * Untracked files larger than this are left out of checkpoints (docs/REFERENCE.md "Checkpoints"): a build's output
 * rewritten every iteration would otherwise add its whole size to .git at every Stop.
 */
export const MAX_CAPTURED_BYTES = 10_000_000;

/** An untracked file a checkpoint left out for its size; `path` relative to the project root. */
export interface LeftOutFile {
  path: string;
  bytes: number;
}

/**
 * The loop's own files (state, sidecar, lock, history) change at every Stop: a checkpoint leaves
 * them out and a restore never rolls them back. Pathspecs relative to the project root.
 */
export const OWN_FILES_PATHSPEC = ":(exclude,glob).claude/continuation-loop.*";

/**
 * Claude Code's worktrees (`claude -w NAME`, `start --bg --worktree NAME`) sit in `.claude/worktrees/`: each is
 * another loop's project, whose commits and files are never this loop's change.
 */
export const WORKTREES_PATHSPEC = ":(exclude,glob).claude/worktrees/**";

export interface CheckpointRecord {
  iteration: number;
  commit: string;
  tree: string;
  /** ISO-8601, from the commit's committer date. */
  time: string;
  filesChanged: number;
  /** Untracked files it left out for their size, when it left any out. */
  leftOut?: LeftOutFile[];
  /** The `started_at` of the loop that wrote it; undefined for a checkpoint of a version before it was kept. */
  startedAt?: string;
}

/**
 * Which checkpoint is the newer: the one of the loop that started later (loops of one name never overlap), then
 * the later one; git keeps whole seconds, so two loops' checkpoints can share one. A checkpoint of 0.2.0 or earlier
 * names no start and counts as older than any that does.
 */
const compareRecency = (a: CheckpointRecord, b: CheckpointRecord): number =>
  (Date.parse(a.startedAt ?? "") || 0) - (Date.parse(b.startedAt ?? "") || 0) ||
  Date.parse(a.time) - Date.parse(b.time);

/**
 * Whose checkpoints: the loop of the name that started at `startedAt` (its state file's; undefined before
 * its first Stop), or `last` when none runs: the loop that wrote the name's newest checkpoint.
 */
export type CheckpointOwner = { startedAt: string | undefined } | "last";

/** The loop's name as refs spell it: `default`, or a named loop's NAME. */
export function checkLoopName(loop: string): string {
  if (!LOOP_NAME.test(loop)) {
    throw new LoopError("USAGE", "not a loop name", {
      field: "loop",
      expected: "default or a name of a-z, 0-9 and -, up to 40 characters",
      received: loop,
    });
  }
  return loop;
}

export function checkIteration(iteration: number): number {
  if (!Number.isSafeInteger(iteration) || iteration < 1) {
    throw new LoopError("USAGE", "not an iteration number", {
      field: "iteration",
      expected: "a whole number from 1",
      received: String(iteration),
    });
  }
  return iteration;
}

/**
 * Where a worktree's checkpoint refs live: `worktree` is git's id of a linked worktree (the name of its folder
 * under `.git/worktrees/`), undefined for the main one. An id that is no valid ref name part is spelled by its hash.
 */
export function renderRefRoot(worktree: string | undefined): string {
  if (worktree === undefined) return CHECKPOINT_REF_ROOT;
  const valid = /^[A-Za-z0-9_][A-Za-z0-9_.-]{0,99}$/.test(worktree) && !/\.\.|\.lock$|\.$/.test(worktree);
  return `${WORKTREE_REF_ROOT}/${valid ? worktree : `id-${hashText(worktree)}`}`;
}

export function renderCheckpointRef(loop: string, iteration: number, worktree?: string): string {
  return `${renderRefRoot(worktree)}/${checkLoopName(loop)}/${checkIteration(iteration)}`;
}

export function renderCheckpointMessage(
  loop: string,
  iteration: number,
  filesChanged: number,
  startedAt: string,
  leftOut: readonly LeftOutFile[] = [],
): string {
  const left = leftOut.map((file) => `Left-Out: ${file.bytes} ${JSON.stringify(file.path)}\n`).join("");
  return `continuation-loop checkpoint ${loop} iteration ${iteration}\n\nFiles-Changed: ${filesChanged}\nLoop-Started-At: ${startedAt}\n${left}`;
}

const renderMegabytes = (bytes: number): string => `${(bytes / 1_000_000).toFixed(1)} MB`;

/** The line that tells the person which large untracked files checkpoints leave out; "" for none. */
export function renderLeftOutNotice(files: readonly LeftOutFile[]): string {
  if (files.length === 0) return "";
  const list = renderFileList(files.map((file) => `${file.path} (${renderMegabytes(file.bytes)})`));
  return `continuation-loop: checkpoints leave out ${list}: untracked files over ${renderMegabytes(MAX_CAPTURED_BYTES)} are not kept, and restore leaves them as they are.`;
}

/** The files a checkpoint's message says it left out; a line that does not read as one is skipped. */
function parseLeftOut(body: string): LeftOutFile[] {
  const files: LeftOutFile[] = [];
  for (const [, bytes, path] of body.matchAll(LEFT_OUT)) {
    try {
      const parsed: unknown = JSON.parse(path ?? "");
      if (typeof parsed === "string") files.push({ path: parsed, bytes: Number(bytes) });
    } catch {
      // Not ours.
    }
  }
  return files;
}

/** `for-each-ref` fields, each ended by NUL (a commit message holds none). */
export const CHECKPOINT_LIST_FORMAT =
  "%(refname)%00%(objectname)%00%(tree)%00%(committerdate:unix)%00%(contents:body)%00";

/**
 * The records of one loop under `root` (renderRefRoot's), by iteration; refs that are not ours (another shape,
 * another root, other objects) are skipped.
 */
export function parseCheckpointList(output: string, loop: string, root = CHECKPOINT_REF_ROOT): CheckpointRecord[] {
  const prefix = `${root}/${loop}/`;
  const records: CheckpointRecord[] = [];
  const fields = output.split("\0");
  for (let i = 0; i + 5 <= fields.length; i += 5) {
    // Five NUL-ended fields per ref; the newline git ends each record with opens the next one.
    const [ref, commit, tree, time, body] = [fields[i]?.replace(/^\n/, ""), ...fields.slice(i + 1, i + 5)];
    if (!ref?.startsWith(prefix) || !commit || !tree || body === undefined) continue;
    const name = ref.slice(prefix.length);
    if (!/^[1-9]\d{0,14}$/.test(name)) continue;
    const seconds = Number(time);
    const startedAt = LOOP_STARTED.exec(body)?.[1];
    const leftOut = parseLeftOut(body);
    records.push({
      iteration: Number(name),
      commit,
      tree,
      time: Number.isFinite(seconds) ? new Date(seconds * 1000).toISOString() : "",
      filesChanged: Number(FILES_CHANGED.exec(body)?.[1] ?? 0),
      ...(leftOut.length > 0 && { leftOut }),
      ...(startedAt !== undefined && { startedAt }),
    });
  }
  return records.sort((a, b) => a.iteration - b.iteration);
}

/**
 * The checkpoints of one loop (`owner`) among its name's refs, where an earlier loop of the same name leaves
 * those of the iterations the new one has not reached. One written before checkpoints named their loop
 * counts as the running loop's when taken since it started (git keeps whole seconds).
 */
export function selectLoopCheckpoints(records: CheckpointRecord[], owner: CheckpointOwner): CheckpointRecord[] {
  if (owner === "last") {
    const newest = records.reduce<CheckpointRecord | undefined>(
      (best, r) => (!best || compareRecency(r, best) >= 0 ? r : best),
      undefined,
    );
    return records.filter((r) => r.startedAt === newest?.startedAt);
  }
  const { startedAt } = owner;
  if (startedAt === undefined) return [];
  const since = Math.floor(Date.parse(startedAt) / 1000) * 1000;
  return records.filter((r) => r.startedAt === startedAt || (r.startedAt === undefined && Date.parse(r.time) >= since));
}

/**
 * A linked worktree's checkpoints of one loop: its own, and those a version before worktrees had their own refs
 * wrote under the shared name while this very loop ran (its `started_at`, exactly: the same refs hold the main
 * worktree's and the other worktrees' checkpoints). Its own win where both have an iteration.
 */
export function selectWorktreeCheckpoints(
  own: CheckpointRecord[],
  shared: CheckpointRecord[],
  owner: CheckpointOwner,
): CheckpointRecord[] {
  const mine = selectLoopCheckpoints(own, owner);
  if (owner === "last" || owner.startedAt === undefined) return mine;
  const taken = new Set(mine.map((r) => r.iteration));
  const earlier = shared.filter((r) => r.startedAt === owner.startedAt && !taken.has(r.iteration));
  return [...mine, ...earlier].sort((a, b) => a.iteration - b.iteration);
}

/** Runs of iterations a refusal names before it leaves out the middle ones. */
const RUNS_SHOWN = 6;

/**
 * "1–4, 7, 9–5000" or "none", for refusals: consecutive iterations as one run, so that a long loop's
 * thousands of checkpoints fit a line; past RUNS_SHOWN runs, the first and last ones around a count.
 */
export function renderIterations(records: CheckpointRecord[]): string {
  if (records.length === 0) return "none";
  const runs: [number, number][] = [];
  for (const { iteration } of records) {
    const last = runs.at(-1);
    if (last && iteration === last[1] + 1) last[1] = iteration;
    else if (!last || iteration > last[1]) runs.push([iteration, iteration]);
  }
  const render = ([from, to]: [number, number]) => (from === to ? String(from) : `${from}–${to}`);
  if (runs.length <= RUNS_SHOWN) return runs.map(render).join(", ");
  const head = runs.slice(0, RUNS_SHOWN / 2);
  const tail = runs.slice(-RUNS_SHOWN / 2);
  const left = runs.length - head.length - tail.length;
  return [...head.map(render), `… (${left} more run${left === 1 ? "" : "s"})`, ...tail.map(render)].join(", ");
}
