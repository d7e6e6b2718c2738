// Checkpoints of several loops at once (docs/REFERENCE.md "Checkpoints"): loops in linked worktrees of one
// repository stopping at the same moment, git's automatic maintenance among them, and a checkpoint ref's lock
// held by another git or left by a killed one.
import { mkdirSync, mkdtempSync, readFileSync, utimesSync, writeFileSync, existsSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { parseState } from "../../src/core/parseState.js";
import { CRASH_SIGNS, spawnBundle } from "../support/processes.js";
import { env, git } from "../support/gitRepo.js";

const STATE = "---\nmax_iterations: 100\nstall_limit: 0\ncheckpoints: true\nscope: src\nsession_id: S\n---\nGoal\n";
const stop = (root: string, reply: string) =>
  spawnBundle("stop", {
    cwd: root,
    env,
    stdin: JSON.stringify({ session_id: "S", cwd: root, hook_event_name: "Stop", last_assistant_message: reply }),
  });
const iterationOf = (root: string) =>
  parseState(readFileSync(join(root, ".claude/continuation-loop.local.md"), "utf8"), "state").iteration_count;
const refsOf = (root: string) => git(root, "for-each-ref", "--format=%(refname)", "refs/").split("\n").filter(Boolean);

/** A repository with a checkpointing loop in its main worktree and in `linked` linked worktrees. */
function makeWorktrees(linked: number): string[] {
  const main = join(mkdtempSync(join(tmpdir(), "cl-crowd-")), "main");
  mkdirSync(join(main, "src"), { recursive: true });
  writeFileSync(join(main, ".gitignore"), ".claude/\n");
  writeFileSync(join(main, "src/app.txt"), "v0\n");
  git(main, "init", "-q");
  git(main, "add", ".");
  git(main, "commit", "-qm", "base");
  const roots = [main, ...Array.from({ length: linked }, (_, n) => resolve(main, `../wt${n + 1}`))];
  for (const root of roots) {
    if (root !== main) git(main, "worktree", "add", "-q", root);
    mkdirSync(join(root, ".claude"));
    writeFileSync(join(root, ".claude/continuation-loop.local.md"), STATE);
  }
  return roots;
}

/** The lock file git makes beside a ref while it writes it. */
const refLock = (root: string, ref: string) =>
  `${resolve(root, git(root, "rev-parse", "--git-path", ref).trim())}.lock`;

describe("checkpoints of loops in linked worktrees stopping at the same moment", () => {
  it("every Stop continues and keeps its checkpoint, while git's automatic maintenance packs beside them", {
    timeout: 60_000,
  }, async () => {
    const roots = makeWorktrees(2);
    const main = roots[0] as string;
    // Past git's threshold at once: each 20th checkpoint's maintenance check runs gc, detached, beside the Stops.
    git(main, "config", "gc.auto", "1");
    const ROUNDS = 20;
    for (let round = 1; round <= ROUNDS; round++) {
      for (const root of roots) writeFileSync(join(root, "src/app.txt"), `v${round}\n`);
      const runs = await Promise.all(roots.map((root) => stop(root, `turn ${round}`)));
      for (const run of runs) {
        expect(run.code, run.stdout + run.stderr).toBe(2);
        expect(run.stdout + run.stderr).not.toMatch(CRASH_SIGNS);
        expect(run.stdout).toBe("");
      }
    }
    for (const root of roots) expect(iterationOf(root)).toBe(ROUNDS + 1);
    const checkpoints = refsOf(main).filter((ref) => !ref.startsWith("refs/heads/"));
    expect(checkpoints).toHaveLength(roots.length * ROUNDS);
  });
});

describe("a checkpoint ref whose lock another git holds", () => {
  it("left by a git killed mid-write: the Stop removes it and keeps its checkpoint", async () => {
    const [root] = makeWorktrees(0) as [string];
    const lock = refLock(root, "refs/continuation-loop/default/1");
    mkdirSync(resolve(lock, ".."), { recursive: true });
    writeFileSync(lock, "");
    const minuteAgo = new Date(Date.now() - 60_000);
    utimesSync(lock, minuteAgo, minuteAgo);
    const run = await stop(root, "one");
    expect(run.code, run.stdout).toBe(2);
    expect(run.stdout).toBe("");
    expect(existsSync(lock)).toBe(false);
    expect(refsOf(root)).toContain("refs/continuation-loop/default/1");
  });

  it("held now: the Stop still continues, says once that this checkpoint was not kept, and the next Stops keep theirs", async () => {
    const [root] = makeWorktrees(0) as [string];
    const first = refLock(root, "refs/continuation-loop/default/1");
    const second = refLock(root, "refs/continuation-loop/default/2");
    mkdirSync(resolve(first, ".."), { recursive: true });
    writeFileSync(first, "");
    writeFileSync(second, "");
    const one = await stop(root, "one");
    expect(one.code, one.stdout).toBe(2);
    const told = JSON.parse(one.stdout).systemMessage as string;
    expect(told).toContain(first);
    expect(told).toContain("checkpoint");
    const two = await stop(root, "two");
    expect([two.code, two.stdout]).toEqual([2, ""]);
    writeFileSync(join(root, "src/app.txt"), "v3\n");
    const three = await stop(root, "three");
    expect([three.code, three.stdout]).toEqual([2, ""]);
    expect(iterationOf(root)).toBe(4);
    expect(refsOf(root).filter((ref) => ref.startsWith("refs/continuation-loop/"))).toEqual([
      "refs/continuation-loop/default/3",
    ]);
    // Another git's locks are left alone.
    expect([existsSync(first), existsSync(second)]).toEqual([true, true]);
  });
});
