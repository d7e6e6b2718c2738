import {
  CHECKPOINT_LIST_FORMAT,
  CHECKPOINT_REF_ROOT,
  type CheckpointRecord,
  checkLoopName,
  parseCheckpointList,
  renderCheckpointRef,
} from "../core/checkpointRefs.js";
import { type GitRepo, runGit, spawnGit } from "./runGit.js";

/** The loop's checkpoints with their trees, by iteration. */
export function readCheckpointRecords(repo: GitRepo, loop: string): CheckpointRecord[] {
  const pattern = `${CHECKPOINT_REF_ROOT}/${checkLoopName(loop)}/`;
  const output = runGit(repo, ["for-each-ref", `--format=${CHECKPOINT_LIST_FORMAT}`, pattern]);
  return parseCheckpointList(output, loop);
}

/**
 * One checkpoint's record, or undefined when there is none: read through its ref alone, since for-each-ref reads
 * every ref of the folder it lists, thousands in a long loop. The same fields as the list's.
 */
export function readCheckpointRecord(repo: GitRepo, loop: string, iteration: number): CheckpointRecord | undefined {
  const ref = renderCheckpointRef(loop, iteration);
  const format = `--format=${ref}%x00%H%x00%T%x00%ct%x00%b%x00`;
  const read = spawnGit(repo, ["-c", "log.showSignature=false", "log", "-1", "--no-walk", format, ref, "--"]);
  return read.status === 0 ? parseCheckpointList(read.stdout, loop)[0] : undefined;
}

export function readHead(repo: GitRepo): string | undefined {
  const head = spawnGit(repo, ["rev-parse", "--quiet", "--verify", "HEAD^{commit}"]);
  return head.status === 0 ? head.stdout.trim() : undefined;
}
