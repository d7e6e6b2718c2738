// checkpoints: true through the bundled hooks and CLI (docs/REFERENCE.md "Checkpoints"): a snapshot per Stop,
// listed and restored, with HEAD, the index and the stash list as they were.
import { execFileSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { makeProject, runHook } from "../support/runHook.js";

const git = (root: string, ...args: string[]) =>
  execFileSync("git", ["-c", "user.name=t", "-c", "user.email=t@t", ...args], { cwd: root, encoding: "utf8" });
const stop = (root: string, reply: string) =>
  runHook("stop", { session_id: "s1", cwd: root, hook_event_name: "Stop", last_assistant_message: reply });
const cli = (root: string, ...args: string[]) => runHook("cli", {}, { args, env: { CLAUDE_PROJECT_DIR: root } });

describe("checkpoints", () => {
  it("keeps each Stop's tree; restore N brings iteration N's files back, HEAD, index and stash unchanged", () => {
    const { root } = makeProject("---\nmax_iterations: 10\ncheckpoints: true\n---\nGoal\n");
    writeFileSync(join(root, ".gitignore"), ".claude/\nbuild/\n");
    writeFileSync(join(root, "app.txt"), "v0\n");
    git(root, "init", "-q");
    git(root, "add", "app.txt", ".gitignore");
    git(root, "commit", "-qm", "base");
    writeFileSync(join(root, "stashed.txt"), "s\n");
    git(root, "add", "stashed.txt");
    git(root, "stash", "-q");
    writeFileSync(join(root, "staged.txt"), "staged\n");
    git(root, "add", "staged.txt");
    const head = git(root, "rev-parse", "HEAD");
    const index = git(root, "ls-files", "-s");
    const stash = git(root, "stash", "list");

    writeFileSync(join(root, "app.txt"), "v1\n");
    const first = stop(root, "one");
    expect(first.code, first.stdout).toBe(2);
    writeFileSync(join(root, "app.txt"), "v2\n");
    writeFileSync(join(root, "notes.txt"), "new in 2\n");
    expect(stop(root, "two").code).toBe(2);
    writeFileSync(join(root, "app.txt"), "v3\n");
    expect(stop(root, "three").code).toBe(2);

    const list = cli(root, "checkpoints");
    expect(list.code).toBe(0);
    expect(list.stdout).toMatch(/^\s+1\s+\d{4}-.*\n\s+2\s+\d{4}-.*\n\s+3\s+\d{4}-/m);
    expect(list.stdout).not.toMatch(/earlier/);
    // A loop left running overnight keeps thousands: the last ones are listed, and how many came before.
    const last = cli(root, "checkpoints", "--limit", "2");
    expect(last.stdout).toMatch(/… and 1 earlier \(--all lists every one\)\n\s+2\s+\d{4}-.*\n\s+3\s+\d{4}-/);
    expect(last.stdout).not.toMatch(/^\s+1\s+\d{4}-/m);
    expect(cli(root, "checkpoints", "--limit", "2", "--all").stdout).toMatch(/^\s+1\s+\d{4}-/m);
    expect(cli(root, "checkpoints", "--limit", "0").stderr).toMatch(/--limit: invalid value/);
    // Iteration 3's work is kept by its checkpoint, so going back to 2 loses nothing.
    const restored = cli(root, "restore", "2");
    expect(restored.code, restored.stderr).toBe(0);
    expect(readFileSync(join(root, "app.txt"), "utf8")).toBe("v2\n");
    expect(readFileSync(join(root, "notes.txt"), "utf8")).toBe("new in 2\n");
    expect(git(root, "rev-parse", "HEAD")).toBe(head);
    expect(git(root, "ls-files", "-s")).toBe(index);
    expect(git(root, "stash", "list")).toBe(stash);
    // Work no checkpoint holds is never overwritten.
    writeFileSync(join(root, "app.txt"), "unsaved\n");
    const refused = cli(root, "restore", "1");
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/restore/);
    expect(readFileSync(join(root, "app.txt"), "utf8")).toBe("unsaved\n");
    expect(cli(root, "restore", "9").stderr).toMatch(/no checkpoint for iteration 9/);
  });

  it("leaves a large untracked file out, says so once, lists it, and restore leaves it as it is", () => {
    const { root } = makeProject("---\nmax_iterations: 10\ncheckpoints: true\n---\nGoal\n");
    writeFileSync(join(root, ".gitignore"), ".claude/\n");
    writeFileSync(join(root, "app.txt"), "v0\n");
    git(root, "init", "-q");
    git(root, "add", "-A");
    git(root, "commit", "-qm", "base");
    // A build's output, rewritten every iteration and not ignored: kept, each Stop would add its size to .git.
    const output = join(root, "build.out");
    const storeKiB = () => Number(/^size: (\d+)$/m.exec(git(root, "count-objects", "-v"))?.[1]);
    const before = storeKiB();
    writeFileSync(output, randomBytes(10_500_000));
    writeFileSync(join(root, "app.txt"), "v1\n");
    const first = stop(root, "one");
    expect(first.code, first.stdout).toBe(2);
    expect(String(first.json?.systemMessage)).toMatch(/build\.out \(10\.5 MB\)/);
    const second = randomBytes(10_500_000);
    writeFileSync(output, second);
    writeFileSync(join(root, "app.txt"), "v2\n");
    const next = stop(root, "two");
    expect(next.code).toBe(2);
    // Told once: the same file left out again is no news.
    expect(String(next.json?.systemMessage ?? "")).not.toMatch(/build\.out/);
    for (const n of [1, 2]) {
      const files = git(root, "ls-tree", "-r", "--name-only", `refs/continuation-loop/default/${n}`);
      expect(files).toMatch(/app\.txt/);
      expect(files).not.toMatch(/build\.out/);
    }
    expect(storeKiB() - before).toBeLessThan(1000);
    expect(cli(root, "checkpoints").stdout).toMatch(/^\s+2\s+\d{4}-.*left out, too large: build\.out/m);
    const restored = cli(root, "restore", "1");
    expect(restored.code, restored.stderr).toBe(0);
    expect(readFileSync(join(root, "app.txt"), "utf8")).toBe("v1\n");
    expect(readFileSync(output).equals(second)).toBe(true);
  });

  it("works in a sparse checkout, where git refuses files outside the cone (the loop's own among them)", () => {
    const { root } = makeProject("---\nmax_iterations: 10\ncheckpoints: true\n---\nGoal\n");
    mkdirSync(join(root, "a"));
    mkdirSync(join(root, "b"));
    writeFileSync(join(root, "a/x.txt"), "x0\n");
    writeFileSync(join(root, "b/y.txt"), "y\n");
    git(root, "init", "-q");
    git(root, "add", "a", "b");
    git(root, "commit", "-qm", "base");
    git(root, "sparse-checkout", "set", "a");
    const index = readFileSync(join(root, ".git/index"));
    writeFileSync(join(root, "a/x.txt"), "x1\n");
    mkdirSync(join(root, "b"), { recursive: true });
    writeFileSync(join(root, "b/new.txt"), "new\n");
    const run = stop(root, "one");
    expect(run.code, run.stdout).toBe(2);
    const files = git(root, "ls-tree", "-r", "--name-only", "refs/continuation-loop/default/1");
    expect(files.split("\n").filter(Boolean)).toEqual(["a/x.txt", "b/new.txt", "b/y.txt"]);
    expect(readFileSync(join(root, ".git/index")).equals(index)).toBe(true);
  });

  it("lists and restores only the running loop's checkpoints, not an earlier loop's of the same name", () => {
    const { root } = makeProject();
    writeFileSync(join(root, ".gitignore"), ".claude/\n");
    writeFileSync(join(root, "app.txt"), "v0\n");
    git(root, "init", "-q");
    git(root, "add", "-A");
    git(root, "commit", "-qm", "base");
    expect(cli(root, "start", "--checkpoints", "--max-iterations", "4", "First", "loop").code).toBe(0);
    for (const n of [1, 2, 3, 4]) {
      writeFileSync(join(root, "app.txt"), `first ${n}\n`);
      expect(stop(root, `first ${n}`).code).toBe(n < 4 ? 2 : 0);
    }
    expect(existsSync(join(root, ".claude", "continuation-loop.local.md"))).toBe(false);
    expect(cli(root, "start", "--checkpoints", "Second", "loop").code).toBe(0);
    // Before its first Stop the new loop has no checkpoint of its own.
    expect(cli(root, "checkpoints").stdout).toContain("loop default has no checkpoints");
    expect(cli(root, "restore", "3").stderr).toContain("loop default has no checkpoint for iteration 3");
    writeFileSync(join(root, "second.txt"), "new in the second loop\n");
    expect(stop(root, "second 1").code).toBe(2);

    const iterations = (out: string) => [...out.matchAll(/^\s+(\d+)\s+\d{4}-/gm)].map((m) => Number(m[1]));
    expect(iterations(cli(root, "checkpoints").stdout)).toEqual([1]);
    const refused = cli(root, "restore", "3");
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain(
      "iteration: loop default has no checkpoint for iteration 3. Expected one of: 1; received 3",
    );
    expect(readFileSync(join(root, "second.txt"), "utf8")).toBe("new in the second loop\n");
    expect(readFileSync(join(root, "app.txt"), "utf8")).toBe("first 4\n");
    // Ended, the last loop's checkpoints are still listed and restored.
    expect(cli(root, "stop").code).toBe(0);
    expect(iterations(cli(root, "checkpoints").stdout)).toEqual([1]);
    expect(cli(root, "restore", "2").stderr).toContain("Expected one of: 1; received 2");
  });

  it("outside git the field is refused at /loop-start and at the Stop, the file untouched", () => {
    const { root, statePath } = makeProject("---\nmax_iterations: 10\ncheckpoints: true\n---\nGoal\n");
    const before = readFileSync(statePath, "utf8");
    const run = stop(root, "work");
    expect(run.code).toBe(0);
    expect(String(run.json?.systemMessage)).toMatch(
      /\.claude\/continuation-loop\.local\.md line 3: checkpoints: not a git repository/,
    );
    expect(readFileSync(statePath, "utf8")).toBe(before);
    const other = makeProject();
    const start = runHook("prompt", {
      session_id: "s9",
      cwd: other.root,
      hook_event_name: "UserPromptSubmit",
      prompt: "/loop-start --checkpoints Goal",
    });
    expect(start.json?.decision).toBe("block");
    expect(String(start.json?.reason)).toMatch(/not a git repository/);
    expect(existsSync(other.statePath)).toBe(false);
  });
});

describe("checkpoints in git worktrees of one repository", () => {
  const refs = (root: string) => git(root, "for-each-ref", "--format=%(refname)").trim().split("\n");
  const stopIn = (root: string, session: string, reply: string) =>
    runHook("stop", { session_id: session, cwd: root, hook_event_name: "Stop", last_assistant_message: reply });
  const iterations = (out: string) => [...out.matchAll(/^\s+(\d+)\s+\d{4}-/gm)].map((m) => Number(m[1]));
  /** A repository with one commit and a linked worktree `wt` beside it: the two project roots. */
  const makeWorktrees = () => {
    const { root: main } = makeProject();
    writeFileSync(join(main, ".gitignore"), ".claude/\n");
    writeFileSync(join(main, "app.txt"), "v0\n");
    git(main, "init", "-q", "-b", "main");
    git(main, "add", "-A");
    git(main, "commit", "-qm", "base");
    const linked = `${main}-wt`;
    git(main, "worktree", "add", "-q", "-b", "feature", linked);
    return { main, linked };
  };

  it("each worktree's loop keeps, lists and restores its own checkpoints, and git gc anywhere keeps them", () => {
    const { main, linked } = makeWorktrees();
    const indexes = () => [main, linked].map((root) => git(root, "rev-parse", "--git-path", "index").trim());
    const indexBytes = () => indexes().map((path) => readFileSync(resolve(main, path)).toString("base64"));
    const before = indexBytes();
    expect(cli(main, "start", "--checkpoints", "Main", "loop").code).toBe(0);
    expect(cli(linked, "start", "--checkpoints", "Worktree", "loop").code).toBe(0);
    for (const n of [1, 2, 3]) {
      writeFileSync(join(main, "app.txt"), `main ${n}\n`);
      expect(stopIn(main, "s-main", `main ${n}`).code).toBe(2);
      writeFileSync(join(linked, "app.txt"), `worktree ${n}\n`);
      expect(stopIn(linked, "s-wt", `worktree ${n}`).code).toBe(2);
    }
    // One set of refs per worktree; git shares them, so each worktree sees both.
    const id = git(linked, "rev-parse", "--git-dir").trim().split("/").at(-1);
    const expected = [1, 2, 3].flatMap((n) => [
      `refs/continuation-loop-worktree/${id}/default/${n}`,
      `refs/continuation-loop/default/${n}`,
    ]);
    expect(
      refs(main)
        .filter((ref) => ref.includes("continuation-loop"))
        .sort(),
    ).toEqual(expected.sort());
    expect(indexBytes()).toEqual(before);

    // A gc in either worktree sees every checkpoint as reachable.
    git(main, "gc", "-q", "--prune=now");
    git(linked, "gc", "-q", "--prune=now");
    for (const ref of expected) expect(git(main, "cat-file", "-t", ref).trim()).toBe("commit");

    expect(iterations(cli(main, "checkpoints").stdout)).toEqual([1, 2, 3]);
    expect(iterations(cli(linked, "checkpoints").stdout)).toEqual([1, 2, 3]);
    expect(cli(main, "restore", "2").code).toBe(0);
    expect(readFileSync(join(main, "app.txt"), "utf8")).toBe("main 2\n");
    expect(cli(linked, "restore", "1").code).toBe(0);
    expect(readFileSync(join(linked, "app.txt"), "utf8")).toBe("worktree 1\n");
    expect(readFileSync(join(main, "app.txt"), "utf8")).toBe("main 2\n");
    expect(indexBytes()).toEqual(before);

    // Ended, each worktree's last loop is still its own: a clean main tree never gets the worktree's files.
    expect(cli(linked, "stop").code).toBe(0);
    expect(cli(main, "stop").code).toBe(0);
    git(main, "checkout", "--", "app.txt");
    const restored = cli(main, "restore", "3");
    expect(restored.code, restored.stderr).toBe(0);
    expect(readFileSync(join(main, "app.txt"), "utf8")).toBe("main 3\n");
    expect(iterations(cli(linked, "checkpoints").stdout)).toEqual([1, 2, 3]);
  });

  it("a worktree's loop keeps the checkpoints an earlier version wrote under the shared refs, and only its own", () => {
    const { main, linked } = makeWorktrees();
    expect(cli(linked, "start", "--checkpoints", "Worktree", "loop").code).toBe(0);
    writeFileSync(join(linked, "app.txt"), "worktree 1\n");
    expect(stopIn(linked, "s-wt", "worktree 1").code).toBe(2);
    // Where a version before worktrees had refs of their own kept iteration 1: under the shared name.
    const [own] = refs(linked).filter((ref) => ref.startsWith("refs/continuation-loop-worktree/"));
    const first = git(linked, "rev-parse", String(own)).trim();
    git(linked, "update-ref", "refs/continuation-loop/default/1", first);
    git(linked, "update-ref", "-d", String(own));
    // The main worktree's loop of an earlier version, at its iteration 5.
    writeFileSync(join(main, "app.txt"), "main 5\n");
    expect(cli(main, "start", "--checkpoints", "Main", "loop").code).toBe(0);
    writeFileSync(
      join(main, ".claude", "continuation-loop.local.md"),
      "---\niteration_count: 5\ncheckpoints: true\n---\nMain\n",
    );
    expect(stopIn(main, "s-main", "main 5").code).toBe(2);
    expect(refs(main)).toContain("refs/continuation-loop/default/5");

    writeFileSync(join(linked, "app.txt"), "worktree 2\n");
    expect(stopIn(linked, "s-wt", "worktree 2").code).toBe(2);
    const list = cli(linked, "checkpoints").stdout;
    expect(iterations(list)).toEqual([1, 2]);
    // Its new checkpoint follows on from the one the earlier version wrote.
    expect(list).toMatch(/^\s+2\s+\d{4}-\S+\s+1$/m);
    expect(cli(linked, "restore", "5").stderr).toContain("Expected one of: 1–2; received 5");
    expect(cli(linked, "restore", "1").code).toBe(0);
    expect(readFileSync(join(linked, "app.txt"), "utf8")).toBe("worktree 1\n");
    expect(readFileSync(join(main, "app.txt"), "utf8")).toBe("main 5\n");
  });

  it("Claude Code's worktrees in .claude/worktrees/ are no change of the project's loop: scope, stall and restore", () => {
    const { root: main } = makeProject();
    writeFileSync(join(main, ".gitignore"), "node_modules/\n");
    mkdirSync(join(main, "src"));
    writeFileSync(join(main, "src", "a.txt"), "v0\n");
    git(main, "init", "-q", "-b", "main");
    git(main, "add", "-A");
    git(main, "commit", "-qm", "base");
    // Where `claude -w w1` and `start --bg --worktree w1` make it.
    const linked = join(main, ".claude", "worktrees", "w1");
    git(main, "worktree", "add", "-q", "-b", "worktree-w1", linked);
    const index = () => readFileSync(join(main, ".git", "index")).toString("base64");
    expect(
      cli(main, "start", "--checkpoints", "--scope", "src", "--max-files-changed", "2", "--stall-limit", "2", "Goal")
        .code,
    ).toBe(0);
    writeFileSync(join(main, "src", "a.txt"), "v1\n");
    expect(stopIn(main, "s-main", "work").code).toBe(2);
    const before = index();
    // The other loop commits in its worktree while this one changes nothing: a stall, never a scope pause.
    let ended: ReturnType<typeof stopIn> | undefined;
    for (let n = 1; n <= 5 && !ended; n++) {
      writeFileSync(join(linked, `f${n}.txt`), `${n}\n`);
      git(linked, "add", "-A");
      git(linked, "commit", "-qm", `worktree ${n}`);
      const run = stopIn(main, "s-main", "same");
      expect(String(run.json?.systemMessage ?? "")).not.toMatch(/scope/);
      if (run.code === 0) ended = run;
    }
    expect(String(ended?.json?.systemMessage)).toMatch(/stalled/);
    expect(index()).toBe(before);
    writeFileSync(join(linked, "f9.txt"), "9\n");
    git(linked, "add", "-A");
    git(linked, "commit", "-qm", "worktree 9");
    const restored = cli(main, "restore", "1");
    expect(restored.code, restored.stderr).toBe(0);
    expect(readFileSync(join(linked, "f9.txt"), "utf8")).toBe("9\n");
  });
});
