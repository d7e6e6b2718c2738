// A checkout with a .git folder on a machine with no git program (a slim container), docs/REFERENCE.md
// "Machines that hold back": the index file answers whether git tracks the state file, checkpoints are left
// out with one line, the stall check reads the turn's tool calls, and scope says git is missing.
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { parseIndexPaths } from "../../src/io/readGitIndex.js";
import { git, makeLoopRepo } from "../support/gitRepo.js";
import { CRASH_SIGNS, spawnBundle } from "../support/processes.js";
import { NODE } from "../support/runHook.js";

const made: string[] = [];
afterAll(() => {
  for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
});
const temp = (prefix: string) => {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  made.push(dir);
  return dir;
};

/** A PATH with node and nothing else: no git. */
const noGitPath = (() => {
  let dir: string | undefined;
  return () => {
    if (dir) return dir;
    dir = temp("cl-nogit-bin-");
    symlinkSync(NODE, join(dir, "node"));
    return dir;
  };
})();

const STATE = ".claude/continuation-loop.local.md";
const makeRepo = (state: string, init: string[] = []) => makeLoopRepo(temp("cl-nogit-"), state, init);

const stopIn = (root: string) =>
  JSON.stringify({ session_id: "s1", cwd: root, hook_event_name: "Stop", stop_hook_active: false });
const stopNoGit = (root: string) =>
  spawnBundle("stop", { cwd: root, stdin: stopIn(root), env: { PATH: noGitPath() }, timeoutMs: 15_000 });

describe("the index file read without git answers as git ls-files does", () => {
  const lsFiles = (root: string) => new Set(git(root, "ls-files", "-z").split("\0").filter(Boolean));
  const cases: [string, string[], (root: string) => void][] = [
    ["version 2", [], () => {}],
    ["version 3 (an intent-to-add entry)", [], (root) => git(root, "add", "-N", "later.txt")],
    ["version 4 (prefix-compressed paths)", [], (root) => git(root, "update-index", "--index-version", "4")],
    ["SHA-256 objects", ["--object-format=sha256"], () => {}],
  ];
  for (const [what, init, change] of cases) {
    it(what, () => {
      const root = makeRepo("---\n---\nGoal\n", init);
      for (const path of ["src/deep/one.ts", "src/deep/two.ts", "src/other.ts", ".claude/continuation-loop.x.md"]) {
        mkdirSync(join(root, path, ".."), { recursive: true });
        writeFileSync(join(root, path), path);
      }
      writeFileSync(join(root, "later.txt"), "");
      git(root, "add", "src", ".claude/continuation-loop.x.md");
      change(root);
      const paths = parseIndexPaths(readFileSync(join(root, ".git", "index")));
      expect(paths).toEqual(lsFiles(root));
      expect(paths?.has(STATE)).toBe(false);
    });
  }

  it("a checksum of zeros (index.skipHash) is read; a split index or a torn file is no answer", () => {
    const root = makeRepo("---\n---\nGoal\n");
    const bytes = readFileSync(join(root, ".git", "index"));
    bytes.fill(0, bytes.length - 20);
    expect(parseIndexPaths(bytes)).toEqual(lsFiles(root));
    expect(parseIndexPaths(bytes.subarray(0, bytes.length - 30))).toBeUndefined();
    git(root, "update-index", "--split-index");
    expect(parseIndexPaths(readFileSync(join(root, ".git", "index")))).toBeUndefined();
  });
});

describe("a Stop with no git on PATH", () => {
  it("a state file git tracks is still refused: the index says so", async () => {
    const root = makeRepo("---\nmax_iterations: 5\n---\nGoal\n");
    git(root, "add", "-f", STATE);
    const run = await stopNoGit(root);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain("tracked by git");
    expect(readFileSync(join(root, STATE), "utf8")).toBe("---\nmax_iterations: 5\n---\nGoal\n");
  });

  it("checkpoints are left out, said once; the loop goes on and its unchanged turns count", async () => {
    const root = makeRepo("---\nmax_iterations: 9\ncheckpoints: true\nstall_limit: 2\n---\nGoal\n");
    const runs = [];
    for (let i = 0; i < 3; i++) runs.push(await stopNoGit(root));
    for (const run of runs) expect(`${run.stdout}${run.stderr}`).not.toMatch(CRASH_SIGNS);
    expect(runs.map((r) => r.code)).toEqual([2, 2, 0]);
    const said = runs.map((r) => (r.stdout ? (JSON.parse(r.stdout).systemMessage as string) : ""));
    expect(said[0]).toMatch(/checkpoints are not kept: git is not installed .*checkpoints: false/);
    expect(said[1]).toBe("");
    // The turns called no tool and left no trace: unchanged, as outside git.
    expect(said[2]).toMatch(/stalled/);
  });

  it("scope says git is missing, not that the folder is no repository; the file is kept", async () => {
    const text = "---\nmax_iterations: 5\nscope: src\n---\nGoal\n";
    const root = makeRepo(text);
    const run = await stopNoGit(root);
    expect(run.code).toBe(0);
    const said = JSON.parse(run.stdout).systemMessage as string;
    expect(said).toMatch(/scope: git is not installed or not on PATH.*Expected git on PATH/);
    expect(said).not.toContain("git init");
    expect(readFileSync(join(root, STATE), "utf8")).toBe(text);
  });

  it("doctor warns that checkpoints are not kept and fails scope, naming git", async () => {
    const root = makeRepo("---\nmax_iterations: 5\ncheckpoints: true\nscope: src\n---\nGoal\n");
    const run = await spawnBundle("cli", { cwd: root, args: ["doctor"], env: { PATH: noGitPath() } });
    expect(run.stdout).toMatch(/warn .*checkpoints: git is not installed/);
    expect(run.stdout).toMatch(/FAIL .*scope: git is not installed/);
    expect(`${run.stdout}${run.stderr}`).not.toMatch(CRASH_SIGNS);
  });
});
