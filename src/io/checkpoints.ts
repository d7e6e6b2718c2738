/**
 * Checkpoints (docs/REFERENCE.md's `checkpoints` field): at each Stop the project's working tree is kept
 * as a commit object under `refs/continuation-loop/<loop>/<iteration>` (a linked worktree's under refs of its
 * own). Nothing the user works with moves: not HEAD, not the index, not the stash, not a file.
 */
import {
  type CheckpointOwner,
  type LeftOutFile,
  renderCheckpointMessage,
  renderCheckpointRef,
  selectLoopCheckpoints,
} from "../core/checkpointRefs.js";
import { captureTree, renderExcludes } from "./captureTree.js";
import { readCheckpointRecord, readHead, readLoopCheckpoints } from "./checkpointRecords.js";
import { type CheckpointScope, type GitRepo, readGitRepo, runGit, spawnGit } from "./runGit.js";
import { statSync, unlinkSync } from "node:fs";
import { resolve } from "node:path";
import { LoopError } from "../core/errors.js";

export interface WrittenCheckpoint {
  ref: string;
  commit: string;
  tree: string;
  filesChanged: number;
  /** Untracked files left out for their size (docs/REFERENCE.md "Checkpoints"). */
  leftOut: LeftOutFile[];
  /** Those of them the checkpoint before did not leave out: what the person has not been told yet. */
  newlyLeftOut: LeftOutFile[];
}

export interface CheckpointSummary {
  iteration: number;
  commit: string;
  /** ISO-8601. */
  time: string;
  filesChanged: number;
  leftOut: LeftOutFile[];
}

/** Checkpoint commits carry this identity, so that they work where no git identity is set. */
const IDENTITY = { name: "continuation-loop", email: "continuation-loop@localhost" };

/**
 * `startedAt`: the loop's `started_at`, which marks the checkpoint as its own. `tree`: the working tree
 * already captured this Stop with the same excludes (the scope check's), if it was and holds no stand-in.
 */
export function writeCheckpoint(
  options: CheckpointScope & { iteration: number; now: Date; startedAt: string; tree?: string | undefined },
): WrittenCheckpoint {
  const { loop, iteration, now, startedAt } = options;
  const repo = readGitRepo(options.root, options.env);
  const ref = renderCheckpointRef(loop, iteration, repo.worktree);
  const excludes = renderExcludes(options.root, options.exclude);
  const { tree, leftOut } = options.tree ? { tree: options.tree, leftOut: [] } : captureTree(repo, excludes);

  const previous = readPreviousCheckpoint(repo, loop, iteration, startedAt);
  const parent = previous?.commit ?? readHead(repo);
  const filesChanged = countChangedFiles(
    repo,
    previous?.tree ?? (parent ? `${parent}^{tree}` : undefined),
    tree,
    excludes,
  );

  const date = `${Math.floor(now.getTime() / 1000)} +0000`;
  const commit = runGit(repo, ["commit-tree", "--no-gpg-sign", tree, ...(parent ? ["-p", parent] : []), "-F", "-"], {
    input: renderCheckpointMessage(loop, iteration, filesChanged, startedAt, leftOut),
    extraEnv: {
      GIT_AUTHOR_NAME: IDENTITY.name,
      GIT_AUTHOR_EMAIL: IDENTITY.email,
      GIT_AUTHOR_DATE: date,
      GIT_COMMITTER_NAME: IDENTITY.name,
      GIT_COMMITTER_EMAIL: IDENTITY.email,
      GIT_COMMITTER_DATE: date,
    },
  }).trim();
  writeCheckpointRef(repo, ref, commit, `continuation-loop: checkpoint ${loop} ${iteration}`);
  if (iteration % MAINTENANCE_EVERY === 0) runAutoMaintenance(repo);
  const before = new Set((previous?.leftOut ?? []).map((file) => file.path));
  const newlyLeftOut = leftOut.filter((file) => !before.has(file.path));
  return { ref, commit, tree, filesChanged, leftOut, newlyLeftOut };
}

/**
 * This loop's latest checkpoint before `iteration`; an earlier loop's of the same name is neither parent nor base.
 * The one just before is read alone, so that a Stop reads one ref however many the loop has kept; only a gap
 * (`checkpoints` turned on mid-loop, an iteration count edited) reads them all.
 */
function readPreviousCheckpoint(repo: GitRepo, loop: string, iteration: number, startedAt: string) {
  if (iteration <= 1) return undefined;
  const just = readCheckpointRecord(repo, loop, iteration - 1);
  const [before] = just ? selectLoopCheckpoints([just], { startedAt }) : [];
  if (before) return before;
  return readLoopCheckpoints(repo, loop, { startedAt })
    .filter((record) => record.iteration < iteration)
    .at(-1);
}

/** How long git itself retries a ref lock another git holds (`core.filesRefLockTimeout`, in ms): a pack-refs of gc's holds it that briefly. */
const REF_LOCK_WAIT_MS = 2_000;
/** A lock on a checkpoint ref older than this was left by a git killed mid-write (a Stop killed by its timeout). */
const REF_LOCK_STALE_MS = 10_000;

/**
 * Points the checkpoint ref at its commit. Only the loop's Stop writes its refs, under the state file's lock, so a
 * lock on one that outlives any git's write is a killed Stop's and is removed; a live one (gc's pack-refs in another
 * worktree) is waited for. One still held is refused with its own code: the Stop goes on without this checkpoint.
 */
function writeCheckpointRef(repo: GitRepo, ref: string, commit: string, message: string): void {
  const update = () =>
    spawnGit(repo, ["-c", `core.filesRefLockTimeout=${REF_LOCK_WAIT_MS}`, "update-ref", "-m", message, ref, commit]);
  let result = update();
  if (result.status === 0) return;
  const lock = readRefLock(repo, ref);
  if (lock && Date.now() - lock.mtimeMs > REF_LOCK_STALE_MS) {
    try {
      unlinkSync(lock.path);
    } catch {
      // gone meanwhile: the retry tells
    }
    result = update();
    if (result.status === 0) return;
  }
  const reason = result.stderr.trim().split("\n").slice(0, 3).join(" ") || `exit status ${result.status}`;
  const held = readRefLock(repo, ref);
  if (held)
    throw new LoopError("CHECKPOINT_REF_LOCKED", `${held.path} is held by another git process`, {
      field: "checkpoints",
    });
  throw new LoopError("CHECKPOINT_FAILED", `git update-ref failed: ${reason}`, { field: "checkpoints" });
}

/** The lock file git makes beside a ref it writes, with its time; undefined when there is none. */
function readRefLock(repo: GitRepo, ref: string): { path: string; mtimeMs: number } | undefined {
  const where = spawnGit(repo, ["rev-parse", "--git-path", ref]);
  if (where.status !== 0) return undefined;
  const path = `${resolve(repo.root, where.stdout.trim())}.lock`;
  try {
    return { path, mtimeMs: statSync(path).mtimeMs };
  } catch {
    return undefined;
  }
}

/** How often a Stop runs git's automatic maintenance check: what it would pack grows only a little in between. */
const MAINTENANCE_EVERY = 20;

/**
 * What `git commit` runs after it writes, unless `maintenance.auto` is off: git's own check, which packs loose
 * objects and refs once there are many and honours the repository's settings (`gc.auto`, `gc.autoDetach`).
 * Checkpoints are written with plumbing, which never runs it, so a long loop's objects and refs would stay loose
 * until someone commits. Its failure (a git too old to know it, a lock held) only leaves them loose.
 */
function runAutoMaintenance(repo: GitRepo): void {
  const auto = spawnGit(repo, ["config", "--get", "--type=bool", "maintenance.auto"]);
  if (auto.stdout.trim() === "false") return;
  spawnGit(repo, ["maintenance", "run", "--auto", "--quiet"]);
}

/** The checkpoints of one loop of the name (`owner`), by iteration. */
export function listCheckpoints(options: CheckpointScope & { owner: CheckpointOwner }): CheckpointSummary[] {
  const repo = readGitRepo(options.root, options.env);
  return readLoopCheckpoints(repo, options.loop, options.owner).map((record) => ({
    iteration: record.iteration,
    commit: record.commit,
    time: record.time,
    filesChanged: record.filesChanged,
    leftOut: record.leftOut ?? [],
  }));
}

/** Paths under the project root that differ between two trees (`from` undefined: the empty tree). */
function countChangedFiles(repo: GitRepo, from: string | undefined, to: string, excludes: string[]): number {
  // A repository with no commit yet: everything in the first checkpoint is new.
  const base = from ?? runGit(repo, ["hash-object", "-t", "tree", "-w", "--stdin"], { input: "" }).trim();
  const args = ["diff-tree", "-r", "-z", "--no-renames", "--name-only", "--relative", base, to, "--", ".", ...excludes];
  return runGit(repo, args).split("\0").filter(Boolean).length;
}
