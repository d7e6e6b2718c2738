// The bundles load their chunks through V8's code cache (src/entries/loadChunk.ts): kept in a
// private folder under TMPDIR, rewritten when it does not fit, kept beside other builds' caches,
// never trusted from a folder others can write to, and never a reason for a hook to fail.
import {
  chmodSync,
  cpSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  utimesSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { HOOKS, makeProject, runHook } from "../support/runHook.js";

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
function stop(tmp: string, env: Record<string, string> = {}, root = makeProject(STATE).root, hooks = HOOKS) {
  const run = runHook(
    "stop",
    { session_id: "s1", cwd: root, last_assistant_message: "working" },
    { env: { TMPDIR: tmp, CLAUDE_PROJECT_DIR: root, ...env }, hooks },
  );
  expect(run.stdout).toBe("");
  expect(run.code).toBe(2);
  return run;
}

/** A copy of hooks/ whose Stop chunk is another build: other bytes, so another name and cache. */
function copyHooksAsAnotherBuild(): string {
  const dir = join(tempDir(), "hooks");
  cpSync(HOOKS, dir, { recursive: true });
  const chunk = readdirSync(join(dir, "chunks")).find((name) => name.startsWith("stopHook-"))!;
  const renamed = "stopHook-0THERB1D.js";
  writeFileSync(
    join(dir, "chunks", renamed),
    `${readFileSync(join(dir, "chunks", chunk), "utf8")}\n// another build\n`,
  );
  rmSync(join(dir, "chunks", chunk));
  const entry = join(dir, "stop.js");
  writeFileSync(entry, readFileSync(entry, "utf8").replaceAll(chunk, renamed));
  return dir;
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
    stop(tmp);
    expect(caches(dir)).toEqual([file]);
    expect(readFileSync(join(dir, file!)).equals(before)).toBe(true);
  });

  it("two builds of the Stop chunk run in turn against one cache folder: neither evicts the other", () => {
    const tmp = tempDir();
    const other = copyHooksAsAnotherBuild();
    stop(tmp);
    stop(tmp, {}, undefined, other);
    const dir = cacheDirOf(tmp);
    const written = new Map(caches(dir).map((name) => [name, readFileSync(join(dir, name))]));
    expect(written.size).toBe(2);
    for (let round = 0; round < 3; round++) {
      stop(tmp);
      stop(tmp, {}, undefined, other);
    }
    expect(caches(dir).sort()).toEqual([...written.keys()].sort());
    for (const [name, bytes] of written) expect(readFileSync(join(dir, name)).equals(bytes)).toBe(true);
  });

  it("caches of builds unused for over 30 days age out when another is saved", () => {
    const tmp = tempDir();
    stop(tmp);
    const dir = cacheDirOf(tmp);
    const stale = join(dir, "stopHook-0000AAAA.js.old.x64.cache");
    writeFileSync(stale, "old");
    const longAgo = new Date(Date.now() - 40 * 24 * 3600 * 1000);
    utimesSync(stale, longAgo, longAgo);
    for (const name of caches(dir)) if (!name.startsWith("stopHook-0000AAAA")) rmSync(join(dir, name));
    stop(tmp);
    expect(readdirSync(dir)).not.toContain("stopHook-0000AAAA.js.old.x64.cache");
    expect(caches(dir)).toHaveLength(1);
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
