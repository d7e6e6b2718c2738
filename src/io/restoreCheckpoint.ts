import { rmdirSync, unlinkSync } from "node:fs";
import { dirname, join } from "node:path";
import { type CheckpointOwner, checkIteration, checkLoopName, renderIterations } from "../core/checkpointRefs.js";
import { LoopError } from "../core/errors.js";
import { captureTree, renderExcludes, withTempIndex } from "./captureTree.js";
import { readLoopCheckpoints } from "./checkpointRecords.js";
import { type CheckpointScope, type GitRepo, readGitRepo, runGit, spawnGit } from "./runGit.js";

export interface RestoredCheckpoint {
  iteration: number;
  commit: string;
  /** Files written from the checkpoint. */
  written: number;
  /** Files removed because the checkpoint does not hold them. */
  removed: number;
  /** Submodules under the project root: left as they are, a checkpoint holding only their commit. */
  submodules: string[];
}

const GITLINK = "160000";

/**
 * Puts an iteration's tree back into the working tree, under the project root only: files it holds
 * are written, files it lacks that are not ignored are removed. HEAD, the index and the stash stay.
 * Only the checkpoints of one loop of the name (`owner`) count. Refused, with nothing changed, when the
 * working tree holds work that neither a checkpoint of this loop nor HEAD has: a restore may only ever
 * replace work that can be restored in turn.
 */
export function restoreCheckpoint(
  options: CheckpointScope & { iteration: number; owner: CheckpointOwner },
): RestoredCheckpoint {
  const { loop, iteration } = options;
  checkLoopName(loop);
  checkIteration(iteration);
  const repo = readGitRepo(options.root, options.env);
  const records = readLoopCheckpoints(repo, loop, options.owner);
  const target = records.find((record) => record.iteration === iteration);
  if (!target) {
    throw new LoopError("CHECKPOINT_UNKNOWN", `loop ${loop} has no checkpoint for iteration ${iteration}`, {
      field: "iteration",
      expected: `one of: ${renderIterations(records)}`,
      received: String(iteration),
    });
  }

  const excludes = renderExcludes(options.root, options.exclude);
  const current = captureTree(repo, excludes).tree;
  const [now, ...saved] = readProjectTrees(repo, [current, ...records.map((record) => record.tree), "HEAD"]);
  if (now === undefined || !saved.includes(now)) {
    throw new LoopError(
      "CHECKPOINT_UNSAVED_CHANGES",
      `the working tree has changes that no checkpoint of loop ${loop} holds; commit or stash them, then restore`,
      { field: "checkpoints", expected: `a working tree equal to a checkpoint (${renderIterations(records)}) or HEAD` },
    );
  }

  const changes = readChanges(repo, current, target.tree, excludes);
  try {
    for (const path of changes.remove) removeFile(repo.root, path);
    if (changes.write.length > 0) writeFiles(repo, target.tree, changes.write);
  } catch (error) {
    const before =
      saved.indexOf(now) < records.length ? `checkpoint ${records[saved.indexOf(now)]?.iteration}` : "HEAD";
    const reason = error instanceof Error ? error.message : String(error);
    throw new LoopError("CHECKPOINT_FAILED", `restoring iteration ${iteration} stopped part way (${reason})`, {
      field: "checkpoints",
      expected: `a writable working tree; what was there before is ${before}`,
    });
  }
  return {
    iteration,
    commit: target.commit,
    written: changes.write.length,
    removed: changes.remove.length,
    submodules: readSubmodules(repo, target.tree),
  };
}

/** Writes `paths` as `tree` holds them, through a temporary index. */
function writeFiles(repo: GitRepo, tree: string, paths: string[]): void {
  withTempIndex(repo, (indexFile) => {
    runGit(repo, ["read-tree", tree], { indexFile });
    runGit(repo, ["checkout-index", "--force", "-z", "--stdin"], { indexFile, input: `${paths.join("\0")}\0` });
  });
}

/** Each tree's subtree at the project root (the whole tree when the root is the top); missing as "". */
function readProjectTrees(repo: GitRepo, trees: string[]): string[] {
  const path = repo.prefix.replace(/\/$/, "");
  // cat-file reads one name a line: a folder named with a line break is asked for tree by tree.
  if (path.includes("\n")) return trees.map((tree) => readProjectTree(repo, tree, path));
  const output = runGit(repo, ["cat-file", "--batch-check=%(objectname) %(objecttype)"], {
    input: `${trees.map((tree) => `${tree}:${path}`).join("\n")}\n`,
  });
  return output
    .split("\n")
    .slice(0, trees.length)
    .map((line) => (line.endsWith(" tree") ? line.slice(0, -5) : ""));
}

/** One tree's subtree at `path`; "" when it has none there. */
function readProjectTree(repo: GitRepo, tree: string, path: string): string {
  const found = spawnGit(repo, ["rev-parse", "--verify", "--quiet", `${tree}:${path}`]);
  const id = found.status === 0 ? found.stdout.trim() : "";
  return id && spawnGit(repo, ["cat-file", "-t", id]).stdout.trim() === "tree" ? id : "";
}

/** What turns the working tree `from` into `to`, as paths relative to the project root. */
function readChanges(repo: GitRepo, from: string, to: string, excludes: string[]) {
  const args = ["diff-tree", "-r", "-z", "--no-renames", "--relative", from, to, "--", ".", ...excludes];
  const fields = runGit(repo, args).split("\0");
  const write: string[] = [];
  const remove: string[] = [];
  // Raw records: ":<old mode> <new mode> <old id> <new id> <status>" then the path.
  for (let i = 0; i + 1 < fields.length; i += 2) {
    const [oldMode, newMode, , , status] = (fields[i] ?? "").slice(1).split(" ");
    const path = fields[i + 1] ?? "";
    // Submodules are left as they are: their content is another repository's.
    if (status === "D" || status === "T") {
      if (oldMode !== GITLINK) remove.push(path);
    }
    if (status !== "D" && newMode !== GITLINK) write.push(path);
  }
  return { write, remove };
}

/** The submodules a tree holds under the project root, relative to it. */
function readSubmodules(repo: GitRepo, tree: string): string[] {
  const listed = runGit(repo, ["ls-tree", "-r", "-z", "--full-tree", tree, "--", repo.prefix || "."]);
  return listed
    .split("\0")
    .filter((entry) => entry.startsWith(`${GITLINK} `))
    .map((entry) => entry.slice(entry.indexOf("\t") + 1).slice(repo.prefix.length));
}

/** Removes a file, then the folders it leaves empty, up to the project root. */
function removeFile(root: string, path: string): void {
  try {
    unlinkSync(join(root, path));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
  }
  for (let dir = dirname(path); dir !== "." && dir !== "/"; dir = dirname(dir)) {
    try {
      rmdirSync(join(root, dir));
    } catch {
      return; // not empty (ignored files, say), or gone already
    }
  }
}
