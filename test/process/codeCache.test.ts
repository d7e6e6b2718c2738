// The bundles load their chunks through V8's code cache (src/entries/loadChunk.ts): kept in a
// private folder under TMPDIR, rewritten when it does not fit and now and then to take in other
// paths, never trusted from a folder others can write to, and never a reason for a hook to fail.
import { chmodSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { makeProject, runHook } from "../support/runHook.js";

const uid = process.getuid?.();
const cacheDirOf = (tmp: string) =>
  join(tmp, uid === undefined ? "continuation-loop-v8" : `continuation-loop-v8-${uid}`);
const STATE = "---\nmax_iterations: 50\n---\nGoal\n";
const made: string[] = [];
afterAll(() => {
  for (const dir of made) rmSync(dir, { recursive: true, force: true });
});
const tempDir = () => {
  const dir = mkdtempSync(join(tmpdir(), "cl-v8-"));
  made.push(dir);
  return dir;
};

/**
 * One active Stop with its own TMPDIR (in a new project unless `root` is given: the loop's first
 * Stop sends the full prompt, a later one a reminder); the loop must continue (exit 2) whatever
 * the cache holds.
 */
function stop(tmp: string, env: Record<string, string> = {}, root = makeProject(STATE).root) {
  const run = runHook(
    "stop",
    { session_id: "s1", cwd: root, last_assistant_message: "working" },
    { env: { TMPDIR: tmp, CLAUDE_PROJECT_DIR: root, ...env } },
  );
  expect(run.stdout).toBe("");
  expect(run.code).toBe(2);
  return run;
}

const caches = (dir: string) =>
  readdirSync(dir).filter((name) => name.startsWith("stopHook-") && name.endsWith(".cache"));

describe("the chunks' code cache", () => {
  it("is written once, private, and used as is afterwards", () => {
    const tmp = tempDir();
    stop(tmp);
    const dir = cacheDirOf(tmp);
    expect(statSync(dir).mode & 0o777).toBe(0o700);
    const [file] = caches(dir);
    expect(file).toBeDefined();
    const before = readFileSync(join(dir, file!));
    stop(tmp, { CONTINUATION_LOOP_CODE_CACHE: "keep" });
    expect(caches(dir)).toEqual([file]);
    expect(readFileSync(join(dir, file!)).equals(before)).toBe(true);
  });

  it("saved again now and then, it gains what a Stop on another path compiled", () => {
    const tmp = tempDir();
    const { root } = makeProject(STATE);
    stop(tmp, {}, root); // the loop's first Stop: the full prompt
    const dir = cacheDirOf(tmp);
    const [file] = caches(dir);
    const before = statSync(join(dir, file!)).size;
    stop(tmp, { CONTINUATION_LOOP_CODE_CACHE: "keep" }, root); // a reminder: not saved
    expect(statSync(join(dir, file!)).size).toBe(before);
    stop(tmp, { CONTINUATION_LOOP_CODE_CACHE: "refresh" }, root); // a reminder again, saved this time
    expect(caches(dir)).toEqual([file]);
    expect(statSync(join(dir, file!)).size).toBeGreaterThan(before);
  });

  it("a corrupt cache is rejected and rewritten; the hook works all the same", () => {
    const tmp = tempDir();
    stop(tmp);
    const dir = cacheDirOf(tmp);
    const [file] = caches(dir);
    writeFileSync(join(dir, file!), "not a V8 code cache");
    stop(tmp);
    expect(readFileSync(join(dir, file!), "utf8")).not.toBe("not a V8 code cache");
  });

  it.skipIf(uid === undefined)("a cache folder others can write to is not used", () => {
    const tmp = tempDir();
    const dir = cacheDirOf(tmp);
    mkdirSync(dir);
    chmodSync(dir, 0o777);
    stop(tmp);
    expect(readdirSync(dir)).toEqual([]);
  });

  it("CONTINUATION_LOOP_CODE_CACHE=0 turns it off", () => {
    const tmp = tempDir();
    stop(tmp, { CONTINUATION_LOOP_CODE_CACHE: "0" });
    expect(readdirSync(tmp)).toEqual([]);
  });

  it("an unwritable TMPDIR only means no cache", () => {
    stop(join(tmpdir(), "cl-v8-missing", "nested", "folder"));
  });
});
