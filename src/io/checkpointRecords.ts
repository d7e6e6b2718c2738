import {
  CHECKPOINT_LIST_FORMAT,
  CHECKPOINT_REF_ROOT,
  type CheckpointRecord,
  checkLoopName,
  parseCheckpointList,
} from "../core/checkpointRefs.js";
import { type GitRepo, runGit, spawnGit } from "./runGit.js";

/** The loop's checkpoints with their trees, by iteration; with `iteration`, that one's ref alone. */
export function readCheckpointRecords(repo: GitRepo, loop: string, iteration?: number): CheckpointRecord[] {
  // for-each-ref matches a pattern without a trailing slash whole: `…/4` is iteration 4, not 40.
  const pattern = `${CHECKPOINT_REF_ROOT}/${checkLoopName(loop)}/${iteration ?? ""}`;
  const output = runGit(repo, ["for-each-ref", `--format=${CHECKPOINT_LIST_FORMAT}`, pattern]);
  return parseCheckpointList(output, loop);
}

export function readHead(repo: GitRepo): string | undefined {
  const head = spawnGit(repo, ["rev-parse", "--quiet", "--verify", "HEAD^{commit}"]);
  return head.status === 0 ? head.stdout.trim() : undefined;
}
