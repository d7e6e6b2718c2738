import { chmodSync, readFileSync, statSync, symlinkSync, unlinkSync } from "node:fs";
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
  refusal,
  snapshot,
  startedAt,
  untouchables,
  write,
} from "../support/gitRepo.js";

const NAMES = [
  "my notes.txt",
  "ünïcødé/日本語 ファイル.md",
  "quote\"and'apostrophe.txt",
  "tab\there.txt",
  "line\nbreak.txt",
  "$(touch pwned) `id`;&.txt",
  "st*r?[1]\\.txt",
  "-dash.txt",
  // The same name in NFD (as macOS writes it) and NFC: two files on Linux.
  "cafe\u0301.txt",
  "caf\u00e9.txt",
];

describe("restoreCheckpoint", () => {
  it("brings back an iteration's files exactly, and leaves HEAD, the index, the stash and ignored files alone", () => {
    const root = newRepo({ "src/app.ts": "v0\n", "README.md": "readme\n" });
    // A stash present from the start: it must survive.
    write(root, { "README.md": "stashed edit\n" });
    git(root, "stash", "-q");
    write(root, { "build/cache.bin": "ignored\n", ".claude/continuation-loop.local.md": "iteration_count: 1\n" });
    const before = untouchables(root);

    write(root, { "src/app.ts": "v1\n", "notes/one.md": "1\n" });
    writeCheckpoint({ root, loop: "default", iteration: 1, env, now, startedAt });
    write(root, { "src/app.ts": "v2\n", "notes/two.md": "2\n", [NAMES[0] ?? ""]: "spaces\n" });
    unlinkSync(join(root, "README.md"));
    writeCheckpoint({ root, loop: "default", iteration: 2, env, now, startedAt });
    const second = snapshot(root);
    write(root, { "src/app.ts": "v3\n", "deep/er/three.md": "3\n", "README.md": "back\n" });
    unlinkSync(join(root, "notes/one.md"));
    writeCheckpoint({ root, loop: "default", iteration: 3, env, now, startedAt });
    write(root, { ".claude/continuation-loop.local.md": "iteration_count: 4\n", "build/cache.bin": "rebuilt\n" });
    expect(untouchables(root)).toEqual(before);

    const result = restoreCheckpoint({ root, loop: "default", iteration: 2, env, owner });
    expect(result).toMatchObject({ iteration: 2, written: 2, removed: 2 });
    const restored = snapshot(root);
    // The loop's own state and ignored files are not rolled back.
    expect(restored).toEqual({
      ...second,
      ".claude/continuation-loop.local.md": "iteration_count: 4\n",
      "build/cache.bin": "rebuilt\n",
    });
    expect(statSync(join(root, "deep"), { throwIfNoEntry: false })).toBeUndefined();
    expect(untouchables(root)).toEqual(before);
    expect(git(root, "stash", "show", "-p")).toContain("stashed edit");

    // And forward again: the tree now equals checkpoint 2, so restoring 3 is allowed.
    restoreCheckpoint({ root, loop: "default", iteration: 3, env, owner });
    expect(readFileSync(join(root, "src/app.ts"), "utf8")).toBe("v3\n");
    expect(untouchables(root)).toEqual(before);
  });

  it("refuses, changing nothing, when the working tree holds an edit no checkpoint has", () => {
    const root = newRepo({ "a.txt": "a\n" });
    write(root, { "a.txt": "one\n" });
    writeCheckpoint({ root, loop: "default", iteration: 1, env, now, startedAt });
    write(root, { "a.txt": "two\n" });
    writeCheckpoint({ root, loop: "default", iteration: 2, env, now, startedAt });
    write(root, { "a.txt": "unsaved\n", "new.txt": "also unsaved\n" });
    const files = snapshot(root);
    const error = refusal(() => restoreCheckpoint({ root, loop: "default", iteration: 1, env, owner }));
    expect(error.code).toBe("CHECKPOINT_UNSAVED_CHANGES");
    expect(error.describe()).toContain("commit or stash them");
    expect(snapshot(root)).toEqual(files);
    // Another loop's checkpoint does not count for this one.
    writeCheckpoint({ root, loop: "other", iteration: 1, env, now, startedAt });
    expect(refusal(() => restoreCheckpoint({ root, loop: "default", iteration: 1, env, owner })).code).toBe(
      "CHECKPOINT_UNSAVED_CHANGES",
    );
  });

  it("allows a working tree equal to HEAD: nothing there is lost", () => {
    const root = newRepo({ "a.txt": "a\n" });
    write(root, { "a.txt": "checkpointed\n" });
    writeCheckpoint({ root, loop: "default", iteration: 1, env, now, startedAt });
    git(root, "checkout", "-q", "--", "a.txt");
    restoreCheckpoint({ root, loop: "default", iteration: 1, env, owner });
    expect(readFileSync(join(root, "a.txt"), "utf8")).toBe("checkpointed\n");
  });

  it("refuses an unknown iteration, listing the known ones", () => {
    const root = newRepo();
    expect(refusal(() => restoreCheckpoint({ root, loop: "default", iteration: 1, env, owner })).describe()).toContain(
      "one of: none",
    );
    for (const iteration of [1, 2, 3]) writeCheckpoint({ root, loop: "default", iteration, env, now, startedAt });
    const error = refusal(() => restoreCheckpoint({ root, loop: "default", iteration: 7, env, owner }));
    expect(error.code).toBe("CHECKPOINT_UNKNOWN");
    expect(error.describe()).toContain("one of: 1–3");
  });

  it("handles names with spaces, quotes, tabs and unicode, a symlink and an executable bit", () => {
    const root = newRepo({ "run.sh": "#!/bin/sh\n" });
    write(root, Object.fromEntries(NAMES.map((name) => [name, `${name}\n`])));
    chmodSync(join(root, "run.sh"), 0o755);
    symlinkSync("run.sh", join(root, "link"));
    const first = writeCheckpoint({ root, loop: "default", iteration: 1, env, now, startedAt });
    expect(first.filesChanged).toBe(NAMES.length + 2);
    const files = snapshot(root);
    write(root, Object.fromEntries(NAMES.map((name) => [name, "changed\n"])));
    unlinkSync(join(root, "link"));
    chmodSync(join(root, "run.sh"), 0o644);
    writeCheckpoint({ root, loop: "default", iteration: 2, env, now, startedAt });
    restoreCheckpoint({ root, loop: "default", iteration: 1, env, owner });
    expect(snapshot(root)).toEqual(files);
    expect(statSync(join(root, "run.sh")).mode & 0o111).not.toBe(0);
  });

  it("in a repository with no commit yet", () => {
    const root = newRepo({ "a.txt": "1\n" }, false);
    writeCheckpoint({ root, loop: "default", iteration: 1, env, now, startedAt });
    write(root, { "a.txt": "2\n", "b.txt": "b\n" });
    writeCheckpoint({ root, loop: "default", iteration: 2, env, now, startedAt });
    expect(restoreCheckpoint({ root, loop: "default", iteration: 1, env, owner })).toMatchObject({
      written: 1,
      removed: 1,
    });
    expect(snapshot(root)).toEqual({ ".gitignore": "build/\n*.log\n", "a.txt": "1\n" });
    expect(listCheckpoints({ root, loop: "default", env, owner }).map((c) => c.iteration)).toEqual([1, 2]);
  });

  it("keeps to the project root when it is a folder inside the repository", () => {
    const repo = newRepo({ "outside.txt": "o\n", "app/a.txt": "a\n" });
    const root = join(repo, "app");
    write(repo, { "app/a.txt": "one\n" });
    const first = writeCheckpoint({ root, loop: "default", iteration: 1, env, now, startedAt });
    expect(first.filesChanged).toBe(1);
    write(repo, { "app/a.txt": "two\n", "app/b.txt": "b\n", "outside.txt": "edited outside\n" });
    expect(writeCheckpoint({ root, loop: "default", iteration: 2, env, now, startedAt }).filesChanged).toBe(2);
    restoreCheckpoint({ root, loop: "default", iteration: 1, env, owner });
    expect(snapshot(root)).toEqual({ "a.txt": "one\n" });
    expect(readFileSync(join(repo, "outside.txt"), "utf8")).toBe("edited outside\n");
  });

  it("in a folder of the repository named with a line break: the main tree's refs, and unsaved work refused", () => {
    const repo = newRepo({ "outside.txt": "o\n" });
    const root = join(repo, "line\nbreak");
    write(root, { "a.txt": "one\n" });
    writeCheckpoint({ root, loop: "default", iteration: 1, env, now, startedAt });
    expect(git(repo, "for-each-ref", "--format=%(refname)")).toContain("refs/continuation-loop/default/1\n");
    write(root, { "a.txt": "unsaved\n" });
    const error = refusal(() => restoreCheckpoint({ root, loop: "default", iteration: 1, env, owner }));
    expect(error.code).toBe("CHECKPOINT_UNSAVED_CHANGES");
    expect(readFileSync(join(root, "a.txt"), "utf8")).toBe("unsaved\n");
    write(root, { "a.txt": "two\n" });
    writeCheckpoint({ root, loop: "default", iteration: 2, env, now, startedAt });
    restoreCheckpoint({ root, loop: "default", iteration: 1, env, owner });
    expect(snapshot(root)).toEqual({ "a.txt": "one\n" });
  });
});
