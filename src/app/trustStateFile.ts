import { LoopError } from "../core/errors.js";
import type { LoopFile } from "../core/loopFiles.js";
import { readGitTracking } from "../io/readTreeState.js";

/**
 * Why a state file may not run as this user's loop (docs/REFERENCE.md "Several loops"): git tracks it, so it came
 * with the repository, or git cannot say whether it does. `refused` says what is not done. Undefined for the user's own.
 */
export function readUntrusted(file: LoopFile, refused: string, field?: string): LoopError | undefined {
  const tracking = readGitTracking(file.root, file.statePath);
  if (tracking.kind === "untracked") return undefined;
  if (tracking.kind === "tracked")
    return new LoopError("STATE_TRACKED_BY_GIT", `the state file is tracked by git, so ${refused}`, {
      file: file.shown,
      ...(field && { field }),
      expected: `a state file of your own: git rm --cached ${file.shown}`,
    });
  return new LoopError(
    "STATE_TRACKING_UNKNOWN",
    `git could not say whether the state file came with the repository (${tracking.why}), so ${refused}`,
    { file: file.shown, ...(field && { field }), expected: renderLetGitAnswer(file.root, tracking.code) },
  );
}

/**
 * What lets git answer in a repository it cannot read now; `code`: the error that kept git from starting, whose
 * cure is the machine's limit, not git (docs/REFERENCE.md "Machines that hold back").
 */
export function renderLetGitAnswer(root: string, code?: string): string {
  if (code === "EMFILE" || code === "ENFILE")
    return "room for git to start: a higher limit of open files for Claude Code (ulimit -n 1024 in the shell that starts it)";
  if (code === "EAGAIN" || code === "ENOMEM")
    return "room for git to start: a higher limit of processes (ulimit -u), or memory left free";
  if (code === "ENOENT") return `git working in ${root}: install git`;
  if (code) return `git able to start in ${root}`;
  // Git ran and failed: its own line (in the reason) says why, in the person's language.
  return `git working in ${root}: what git says fixed, or if it refuses the folder as another user's, git config --global --add safe.directory ${root}`;
}
