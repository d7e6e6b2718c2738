import {
  CHECKPOINT_LIST_FORMAT,
  CHECKPOINT_REF_ROOT,
  type CheckpointOwner,
  type CheckpointRecord,
  checkLoopName,
  parseCheckpointList,
  renderCheckpointRef,
  renderRefRoot,
  selectLoopCheckpoints,
  selectWorktreeCheckpoints,
} from "../core/checkpointRefs.js";
import { type GitRepo, runGit, spawnGit } from "./runGit.js";

/**
 * The checkpoints of one loop of the name (`owner`), with their trees, by iteration: this worktree's own. In a
 * linked worktree, those an earlier version wrote under the shared refs count while the loop that wrote them runs.
 */
export function readLoopCheckpoints(repo: GitRepo, loop: string, owner: CheckpointOwner): CheckpointRecord[] {
  const root = renderRefRoot(repo.worktree);
  const patterns = [`${root}/${checkLoopName(loop)}/`];
  if (repo.worktree !== undefined) patterns.push(`${CHECKPOINT_REF_ROOT}/${loop}/`);
  const output = runGit(repo, ["for-each-ref", `--format=${CHECKPOINT_LIST_FORMAT}`, ...patterns]);
  const own = parseCheckpointList(output, loop, root);
  if (repo.worktree === undefined) return selectLoopCheckpoints(own, owner);
  return selectWorktreeCheckpoints(own, parseCheckpointList(output, loop), owner);
}

/**
 * One checkpoint's record in this worktree's refs, or undefined when there is none: read through its ref alone,
 * since for-each-ref reads every ref of the folder it lists, thousands in a long loop. The same fields as the list's.
 */
export function readCheckpointRecord(repo: GitRepo, loop: string, iteration: number): CheckpointRecord | undefined {
  const ref = renderCheckpointRef(loop, iteration, repo.worktree);
  const format = `--format=${ref}%x00%H%x00%T%x00%ct%x00%b%x00`;
  const read = spawnGit(repo, ["-c", "log.showSignature=false", "log", "-1", "--no-walk", format, ref, "--"]);
  return read.status === 0 ? parseCheckpointList(read.stdout, loop, renderRefRoot(repo.worktree))[0] : undefined;
}

export function readHead(repo: GitRepo): string | undefined {
  const head = spawnGit(repo, ["rev-parse", "--quiet", "--verify", "HEAD^{commit}"]);
  return head.status === 0 ? head.stdout.trim() : undefined;
}
