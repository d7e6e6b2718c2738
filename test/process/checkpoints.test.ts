import { execFileSync } from "node:child_process";
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { listCheckpoints, writeCheckpoint } from "../../src/io/checkpoints.js";
import { restoreCheckpoint } from "../../src/io/restoreCheckpoint.js";
import {
  env,
  git,
  newRepo,
  now,
  owner,
  readHead,
  refusal,
  startedAt,
  untouchables,
  write,
} from "../support/gitRepo.js";

const treeFiles = (root: string, commit: string) =>
  git(root, "ls-tree", "-r", "-z", "--name-only", commit).split("\0").filter(Boolean).sort();

describe("writeCheckpoint", () => {
  it("records tracked and untracked files, leaves ignored ones and the loop's own files out", () => {
    const root = newRepo({ "tracked.txt": "t\n" });
    write(root, {
      "new.txt": "n\n",
      "build/out.bin": "ignored",
      "debug.log": "ignored",
      ".claude/continuation-loop.local.md": "---\nactive: true\n---\n",
      ".claude/continuation-loop.history.jsonl": "{}\n",
      ".claude/settings.json": "{}\n",
    });
    const before = untouchables(root);
    const result = writeCheckpoint({ root, loop: "default", iteration: 1, env, now, startedAt });
    expect(result.ref).toBe("refs/continuation-loop/default/1");
    expect(treeFiles(root, result.commit)).toEqual([".claude/settings.json", ".gitignore", "new.txt", "tracked.txt"]);
    expect(result.filesChanged).toBe(2); // new.txt and .claude/settings.json, against HEAD
    expect(git(root, "rev-parse", `${result.commit}^`).trim()).toBe(before.head);
    expect(git(root, "rev-parse", `${result.commit}^{tree}`).trim()).toBe(result.tree);
    expect(untouchables(root)).toEqual(before);
    expect(git(root, "status", "--porcelain")).toContain("?? new.txt");
  });

  it("leaves out the files in exclude (a state file pinned outside .claude) and their siblings", () => {
    const root = newRepo({ "a.txt": "a\n" });
    write(root, { "tasks/loop.md": "state\n", "tasks/loop.md.lock": "1\n", "tasks/other.md": "kept\n" });
    const result = writeCheckpoint({
      root,
      loop: "default",
      iteration: 1,
      env,
      now,
      startedAt,
      exclude: [join(root, "tasks/loop.md")],
    });
    expect(treeFiles(root, result.commit)).toEqual([".gitignore", "a.txt", "tasks/other.md"]);
    write(root, { "tasks/loop.md": "state 2\n" });
    restoreCheckpoint({ root, loop: "default", iteration: 1, env, exclude: ["tasks/loop.md"], owner });
    expect(readFileSync(join(root, "tasks/loop.md"), "utf8")).toBe("state 2\n");
  });

  it("counts changed files against the previous checkpoint, and records an unchanged tree too", () => {
    const root = newRepo({ "a.txt": "a\n", "b.txt": "b\n" });
    const first = writeCheckpoint({ root, loop: "my-task", iteration: 1, env, now, startedAt });
    write(root, { "a.txt": "changed\n" });
    const second = writeCheckpoint({ root, loop: "my-task", iteration: 2, env, now, startedAt });
    const third = writeCheckpoint({ root, loop: "my-task", iteration: 3, env, now, startedAt });
    expect([first.filesChanged, second.filesChanged, third.filesChanged]).toEqual([0, 1, 0]);
    expect(third.tree).toBe(second.tree);
    expect(git(root, "rev-parse", `${third.commit}^`).trim()).toBe(second.commit);
    expect(git(root, "rev-parse", `${second.commit}^`).trim()).toBe(first.commit);
    expect(git(root, "for-each-ref", "--format=%(refname)", "refs/continuation-loop/").trim().split("\n")).toEqual([
      "refs/continuation-loop/my-task/1",
      "refs/continuation-loop/my-task/2",
      "refs/continuation-loop/my-task/3",
    ]);
  });

  it("chains a loop's checkpoints to its own, not to an earlier loop's of the same name", () => {
    const root = newRepo({ "a.txt": "a\n" });
    const head = readHead(root);
    write(root, { "a.txt": "first loop\n" });
    writeCheckpoint({ root, loop: "default", iteration: 1, env, now, startedAt });
    writeCheckpoint({ root, loop: "default", iteration: 2, env, now, startedAt });
    // A later loop that turned checkpoints on at its iteration 3.
    write(root, { "b.txt": "b\n" });
    const later = writeCheckpoint({ root, loop: "default", iteration: 3, env, now, startedAt: "2026-01-02T04:00:00Z" });
    expect(git(root, "rev-parse", `${later.commit}^`).trim()).toBe(head);
    expect(later.filesChanged).toBe(2);
    expect(git(root, "log", "-1", "--format=%B", later.commit)).toContain("Loop-Started-At: 2026-01-02T04:00:00Z\n");
  });

  it("chains to the loop's latest checkpoint across a gap, and never to a later one whose number starts alike", () => {
    const root = newRepo({ "a.txt": "a\n" });
    const one = writeCheckpoint({ root, loop: "default", iteration: 1, env, now, startedAt });
    write(root, { "a.txt": "2\n" });
    const two = writeCheckpoint({ root, loop: "default", iteration: 2, env, now, startedAt });
    // The iteration count raised by hand: no checkpoint 3 or 4.
    write(root, { "b.txt": "b\n" });
    const five = writeCheckpoint({ root, loop: "default", iteration: 5, env, now, startedAt });
    expect(git(root, "rev-parse", `${five.commit}^`).trim()).toBe(two.commit);
    expect(five.filesChanged).toBe(1);
    // 50 exists: 6 chains to 5; lowered by hand, 4 chains to 3, which chains to 2.
    writeCheckpoint({ root, loop: "default", iteration: 50, env, now, startedAt });
    const six = writeCheckpoint({ root, loop: "default", iteration: 6, env, now, startedAt });
    expect(git(root, "rev-parse", `${six.commit}^`).trim()).toBe(five.commit);
    write(root, { "c.txt": "c\n" });
    const three = writeCheckpoint({ root, loop: "default", iteration: 3, env, now, startedAt });
    const four = writeCheckpoint({ root, loop: "default", iteration: 4, env, now, startedAt });
    expect(git(root, "rev-parse", `${three.commit}^`).trim()).toBe(two.commit);
    expect(git(root, "rev-parse", `${four.commit}^`).trim()).toBe(three.commit);
    expect(one.filesChanged).toBe(0);
  });

  it("keeps the tree `git add --all` makes, the untracked files it listed added by name", () => {
    const root = newRepo({ "a.txt": "a\n", "gone.txt": "g\n", "pkg/b.txt": "b\n", "run.sh": "echo\n" });
    write(root, { "a.txt": "a2\n", "pkg/new/deep/c.txt": "c\n", "name with space é.txt": "s\n", "debug.log": "x" });
    rmSync(join(root, "gone.txt"));
    chmodSync(join(root, "run.sh"), 0o755);
    symlinkSync("pkg", join(root, "link"));
    // What git itself makes of the work tree, through an index of its own.
    const index = join(mkdtempSync(join(tmpdir(), "cl-index-")), "index");
    const own = (...args: string[]) =>
      execFileSync("git", args, { cwd: root, env: { ...env, GIT_INDEX_FILE: index }, encoding: "utf8" });
    own("read-tree", "HEAD");
    own("add", "--all");
    expect(writeCheckpoint({ root, loop: "default", iteration: 1, env, now, startedAt }).tree).toBe(
      own("write-tree").trim(),
    );
    // A repository inside the work tree, which git lists as a folder: `git add --all` makes its entry.
    const inner = join(root, "vendor");
    mkdirSync(inner);
    git(inner, "init", "-q");
    write(inner, { "v.txt": "v\n" });
    git(inner, "add", "-A");
    git(inner, "commit", "-qm", "inner");
    own("add", "--all");
    expect(writeCheckpoint({ root, loop: "default", iteration: 2, env, now, startedAt }).tree).toBe(
      own("write-tree").trim(),
    );
  });

  it("works while another git command holds the index lock", () => {
    const root = newRepo({ "a.txt": "a\n" });
    write(root, { ".git/index.lock": "", "b.txt": "b\n" });
    expect(writeCheckpoint({ root, loop: "default", iteration: 1, env, now, startedAt }).filesChanged).toBe(1);
    expect(existsSync(join(root, ".git/index.lock"))).toBe(true);
  });

  it("works in a repository with no commit yet", () => {
    const root = newRepo({ "first.txt": "1\n", "dir/second.txt": "2\n" }, false);
    const result = writeCheckpoint({ root, loop: "default", iteration: 1, env, now, startedAt });
    expect(result.filesChanged).toBe(3);
    expect(git(root, "rev-list", "--parents", "-n", "1", result.commit).trim()).toBe(result.commit);
    expect(existsSync(join(root, ".git/index"))).toBe(false);
    expect(readHead(root)).toBe("");
  });

  it.each([
    ["outside git", () => mkdtempSync(join(tmpdir(), "cl-nogit-"))],
    ["inside .git", () => join(newRepo(), ".git")],
  ])("is refused %s, naming the field and the way out", (_name, makeRoot) => {
    const root = makeRoot();
    const calls = [
      () => writeCheckpoint({ root, loop: "default", iteration: 1, env, now, startedAt }),
      () => listCheckpoints({ root, loop: "default", env, owner }),
      () => restoreCheckpoint({ root, loop: "default", iteration: 1, env, owner }),
    ];
    for (const call of calls) {
      const error = refusal(call);
      expect(error.code).toBe("CHECKPOINT_NOT_GIT");
      expect(error.details.field).toBe("checkpoints");
      expect(error.describe()).toContain("not a git repository; set checkpoints: false or run git init");
    }
  });

  it.each([
    ["a loop name with a slash", "a/b", 1],
    ["an upper-case loop name", "Main", 1],
    ["iteration 0", "default", 0],
    ["a fractional iteration", "default", 1.5],
  ])("refuses %s", (_name, loop, iteration) => {
    const root = newRepo();
    expect(refusal(() => writeCheckpoint({ root, loop, iteration, env, now, startedAt })).code).toBe("USAGE");
  });
});

describe("listCheckpoints", () => {
  it("lists iterations in numeric order with time and files changed", () => {
    const root = newRepo({ "a.txt": "a\n" });
    expect(listCheckpoints({ root, loop: "default", env, owner })).toEqual([]);
    for (const iteration of [1, 2, 10]) {
      write(root, { [`file${iteration}.txt`]: `${iteration}\n` });
      writeCheckpoint({
        root,
        loop: "default",
        iteration,
        env,
        now: new Date(now.getTime() + iteration * 1000),
        startedAt,
      });
    }
    writeCheckpoint({ root, loop: "other", iteration: 5, env, now, startedAt });
    const list = listCheckpoints({ root, loop: "default", env, owner });
    expect(list.map(({ iteration, time, filesChanged }) => ({ iteration, time, filesChanged }))).toEqual([
      { iteration: 1, time: "2026-01-02T03:04:06.000Z", filesChanged: 1 },
      { iteration: 2, time: "2026-01-02T03:04:07.000Z", filesChanged: 1 },
      { iteration: 10, time: "2026-01-02T03:04:15.000Z", filesChanged: 1 },
    ]);
    expect(list[0]?.commit).toMatch(/^[0-9a-f]{40}$/);
  });
});
