import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, readlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, relative } from "node:path";
import { LoopError } from "../../src/core/errors.js";

// No global or system git config: checkpoints must work where no identity is set.
const home = mkdtempSync(join(tmpdir(), "cl-ckpt-home-"));
export const env = { PATH: process.env.PATH ?? "", HOME: home, GIT_CONFIG_NOSYSTEM: "1", LC_ALL: "C" };
export const now = new Date("2026-01-02T03:04:05Z");
/** The `started_at` of the loop whose checkpoints the tests write, list and restore. */
export const startedAt = "2026-01-02T03:00:00.000Z";
export const owner = { startedAt };

export function git(cwd: string, ...args: string[]): string {
  return execFileSync("git", ["-c", "user.name=Test", "-c", "user.email=test@example.com", ...args], {
    cwd,
    env,
    encoding: "utf8",
  });
}

/** `root` made a repository with one commit and a loop's state file (`.claude/continuation-loop.local.md`). */
export function makeLoopRepo(root: string, state: string, init: string[] = []): string {
  git(root, "init", "-q", ...init);
  writeFileSync(join(root, "a.txt"), "a\n");
  git(root, "add", "a.txt");
  git(root, "commit", "-q", "-m", "one");
  mkdirSync(join(root, ".claude"));
  writeFileSync(join(root, ".claude/continuation-loop.local.md"), state);
  return root;
}

export function write(root: string, files: Record<string, string>): void {
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), text);
  }
}

/** Every file under `root` but .git, with its text: what a restore must bring back. */
export function snapshot(root: string, dir = root, out: Record<string, string> = {}): Record<string, string> {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.name === ".git") continue;
    if (entry.isDirectory()) snapshot(root, path, out);
    else out[relative(root, path)] = entry.isSymbolicLink() ? `-> ${readlinkSync(path)}` : readFileSync(path, "utf8");
  }
  return out;
}

/** HEAD, the real index's bytes and the stash list: what no checkpoint call may change. */
export function untouchables(root: string) {
  return {
    head: readHead(root),
    index: existsSync(join(root, ".git/index")) ? readFileSync(join(root, ".git/index")).toString("base64") : "",
    stash: git(root, "stash", "list"),
    branch: git(root, "symbolic-ref", "HEAD").trim(),
  };
}

export function newRepo(files: Record<string, string> = {}, commit = true): string {
  const root = mkdtempSync(join(tmpdir(), "cl-ckpt-"));
  git(root, "init", "-q", "-b", "main");
  write(root, { ".gitignore": "build/\n*.log\n", ...files });
  if (commit) {
    git(root, "add", "-A");
    git(root, "commit", "-qm", "initial");
  }
  return root;
}

export function refusal(run: () => unknown): LoopError {
  try {
    run();
  } catch (error) {
    if (error instanceof LoopError) return error;
    throw error;
  }
  throw new Error("expected a refusal");
}

export function readHead(root: string): string {
  try {
    return git(root, "rev-parse", "--verify", "--quiet", "HEAD").trim();
  } catch {
    return "";
  }
}
