import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { dirname, join } from "node:path";
import { hashText } from "../core/hash.js";

function insideGitRepo(dir: string): boolean {
  for (let d = dir; ; d = dirname(d)) {
    if (existsSync(join(d, ".git"))) return true;
    if (dirname(d) === d) return false;
  }
}

/** Fingerprint of `git status --porcelain` and `git diff`; undefined outside git or when git fails. */
export function readTreeState(root: string): string | undefined {
  if (!insideGitRepo(root)) return undefined;
  const run = (args: string[]) => spawnSync("git", args, { cwd: root, encoding: "utf8", maxBuffer: 64 * 1024 * 1024, timeout: 10_000 });
  const status = run(["status", "--porcelain=v1", "--untracked-files=all"]);
  if (status.status !== 0) return undefined;
  const diff = run(["diff", "HEAD", "--no-color", "--no-ext-diff"]);
  // A repo without commits has no HEAD: the status alone is the state.
  return hashText(`${status.stdout}\u0000${diff.status === 0 ? diff.stdout : ""}`);
}
