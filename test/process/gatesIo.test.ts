import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { LoopError } from "../../src/core/errors.js";
import { readNotes } from "../../src/io/readProjectFiles.js";
import { readTreeState } from "../../src/io/readTreeState.js";
import { runVerify, tailOf } from "../../src/io/runVerify.js";

const env = { PATH: process.env.PATH ?? "" };
/** The checkout: its hooks/active/command.js is the worker a command runs in. */
const root = join(import.meta.dirname, "..", "..");

describe("runVerify", () => {
  const cwd = mkdtempSync(join(tmpdir(), "cl-verify-"));
  it.each([
    ["exit 0 confirms", "echo fine", { exitCode: 0, timedOut: false, outputTail: "fine" }],
    ["a failing exit status", "echo broken >&2; exit 3", { exitCode: 3, timedOut: false, outputTail: "broken" }],
    ["runs in the project root", "test -f marker.txt", { exitCode: 0 }],
    ["a missing command", "no-such-command-xyz", { exitCode: 127 }],
  ])("%s", (_name, command, expected) => {
    writeFileSync(join(cwd, "marker.txt"), "");
    expect(runVerify(command, cwd, 30, env, root)).toMatchObject({ command, ...expected });
  });

  it("times out", () => {
    expect(runVerify("sleep 5", cwd, 0.3, env, root)).toMatchObject({ exitCode: null, timedOut: true });
  });

  it("a project root that is gone is a failure with the reason, never a throw", () => {
    const result = runVerify("true", join(cwd, "gone"), 30, env, root);
    expect(result).toMatchObject({ exitCode: null, timedOut: false });
    expect(result.outputTail).toContain("ENOENT");
  });

  it("a copy without its command runner says so at once, never waits for the limit", () => {
    const result = runVerify("true", cwd, 600, env, join(cwd, "no-plugin"));
    expect(result).toMatchObject({ exitCode: null, timedOut: false });
    expect(result.outputTail).toContain(join("hooks", "active", "command.js"));
  });

  it("keeps only the tail of long output", () => {
    const result = runVerify("seq 1 5000", cwd, 30, env, root);
    expect(result.outputTail.split("\n")).toHaveLength(30);
    expect(result.outputTail.endsWith("5000")).toBe(true);
    expect(tailOf("x".repeat(10_000)).length).toBeLessThanOrEqual(3001);
    expect(tailOf("")).toBe("(no output)");
  });
});

describe("readNotes stays inside the project", () => {
  const root = mkdtempSync(join(tmpdir(), "cl-notes-"));
  const outside = mkdtempSync(join(tmpdir(), "cl-outside-"));
  writeFileSync(join(root, "NOTES.md"), "remember this\n");
  writeFileSync(join(outside, "secret.md"), "secret\n");
  mkdirSync(join(root, "docs"));
  symlinkSync(outside, join(root, "linked"));
  symlinkSync(join(outside, "secret.md"), join(root, "docs", "notes-link.md"));

  it.each([
    ["a file in the project", "NOTES.md", "remember this\n"],
    ["a file not created yet", "docs/NEW.md", ""],
  ])("reads %s", (_name, path, text) => {
    expect(readNotes(root, path, "state.md")).toEqual({ path, text });
  });

  it.each([
    ["a .. escape", "../x.md"],
    ["an absolute path outside", join(outside, "secret.md")],
    ["a symlinked folder pointing out", "linked/secret.md"],
    ["a symlinked file pointing out", "docs/notes-link.md"],
  ])("refuses %s", (_name, path) => {
    let error: unknown;
    try {
      readNotes(root, path, "state.md");
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(LoopError);
    expect((error as LoopError).code).toBe("NOTES_OUTSIDE_PROJECT");
    expect((error as LoopError).details).toMatchObject({ file: "state.md", field: "notes_file" });
  });
});

describe("readTreeState", () => {
  it('is "" outside a git repository', () => {
    expect(readTreeState(mkdtempSync(join(tmpdir(), "cl-nogit-")))).toBe("");
  });

  it("changes when the working tree changes, and only then", () => {
    const root = mkdtempSync(join(tmpdir(), "cl-git-"));
    const git = (...args: string[]) => execFileSync("git", args, { cwd: root, stdio: "pipe" });
    git("init", "-q");
    git("-c", "user.email=t@example.com", "-c", "user.name=t", "commit", "-q", "--allow-empty", "-m", "init");
    const clean = readTreeState(root);
    expect(clean).toMatch(/^[0-9a-f]{8}$/);
    expect(readTreeState(root)).toBe(clean);
    writeFileSync(join(root, "a.txt"), "one\n");
    const untracked = readTreeState(root);
    expect(untracked).not.toBe(clean);
    writeFileSync(join(root, "a.txt"), "one, longer\n");
    expect(readTreeState(root), "an untracked file's new content is a change").not.toBe(untracked);
    git("add", "a.txt");
    git("-c", "user.email=t@example.com", "-c", "user.name=t", "commit", "-q", "-m", "a");
    writeFileSync(join(root, "a.txt"), "two\n");
    const edited = readTreeState(root);
    writeFileSync(join(root, "a.txt"), "three\n");
    expect(readTreeState(root)).not.toBe(edited);
    // The loop's own files are left out: they change at every stop.
    mkdirSync(join(root, ".claude"), { recursive: true });
    const own = [join(root, ".claude", "loop.md"), join(root, ".claude", "history.jsonl")];
    const before = readTreeState(root, own);
    writeFileSync(own[0]!, "iteration_count: 2\n");
    writeFileSync(`${own[0]!}.lock`, "1\n");
    writeFileSync(own[1]!, "{}\n");
    expect(readTreeState(root, own)).toBe(before);
    expect(readTreeState(root)).not.toBe(before);
  });
});
