// No home and no temp folder (docs/REFERENCE.md "Machines that hold back"): HOME unset or pointing nowhere,
// TMPDIR missing. Checkpoints' temporary index then goes to the git folder; the loop goes on.
import { spawnSync } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { git, makeLoopRepo } from "../support/gitRepo.js";
import { CRASH_SIGNS, spawnBundle } from "../support/processes.js";
import { HOOKS, NODE } from "../support/runHook.js";

const made: string[] = [];
afterAll(() => {
  for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function makeRepo(state: string): string {
  const root = mkdtempSync(join(tmpdir(), "cl-nohome-"));
  made.push(root);
  return makeLoopRepo(root, state);
}
const stopIn = (root: string) =>
  JSON.stringify({ session_id: "s1", cwd: root, hook_event_name: "Stop", last_assistant_message: "working" });
const base = { PATH: process.env.PATH ?? "", GIT_CONFIG_NOSYSTEM: "1" };

/** A hook run with exactly this environment (spawnBundle would set HOME). */
const runBare = (hook: string, root: string, env: Record<string, string>, stdin = "", args: string[] = []) => {
  const run = spawnSync(NODE, [join(HOOKS, `${hook}.js`), ...args], {
    cwd: root,
    env,
    input: stdin,
    encoding: "utf8",
    timeout: 20_000,
  });
  return { code: run.status, stdout: run.stdout, stderr: run.stderr };
};

describe("no home, no temp folder", () => {
  it("TMPDIR pointing nowhere: checkpoints are kept and restored, nothing left in the git folder", async () => {
    const root = makeRepo("---\nmax_iterations: 5\ncheckpoints: true\n---\nGoal\n");
    const env = { ...base, HOME: root, TMPDIR: join(root, "no", "such", "folder") };
    const gitFolder = readdirSync(join(root, ".git")).sort();
    writeFileSync(join(root, "a.txt"), "one\n");
    const first = await spawnBundle("stop", { cwd: root, stdin: stopIn(root), env });
    writeFileSync(join(root, "a.txt"), "two\n");
    const second = await spawnBundle("stop", { cwd: root, stdin: stopIn(root), env });
    for (const run of [first, second]) {
      expect(`${run.stdout}${run.stderr}`).not.toMatch(CRASH_SIGNS);
      expect(run.code).toBe(2);
      expect(run.stdout).toBe("");
    }
    expect(git(root, "for-each-ref", "--format=%(refname)", "refs/continuation-loop").trim().split("\n")).toEqual([
      "refs/continuation-loop/default/1",
      "refs/continuation-loop/default/2",
    ]);
    const restored = await spawnBundle("cli", { cwd: root, args: ["restore", "1"], env });
    expect(restored.code).toBe(0);
    expect(readFileSync(join(root, "a.txt"), "utf8")).toBe("one\n");
    expect(readdirSync(join(root, ".git")).filter((name) => name.startsWith("continuation-loop-"))).toEqual([]);
    expect(readdirSync(join(root, ".git")).sort()).toEqual(gitFolder);
  });

  it.each([
    ["HOME unset", {}],
    [
      "HOME, XDG and CLAUDE_CONFIG_DIR pointing nowhere",
      { HOME: "/nonexistent", XDG_CONFIG_HOME: "/nonexistent/x", CLAUDE_CONFIG_DIR: "/nonexistent/c" },
    ],
  ])("%s: the Stop counts, the prompt hook and status answer", (_, home: Record<string, string>) => {
    const root = makeRepo("---\nmax_iterations: 5\n---\nGoal\n");
    const env = { ...base, ...home };
    const stop = runBare("stop", root, env, stopIn(root));
    expect(stop.code).toBe(2);
    const prompt = runBare(
      "prompt",
      root,
      env,
      JSON.stringify({ session_id: "s1", cwd: root, hook_event_name: "UserPromptSubmit", prompt: "go" }),
    );
    expect(prompt.code).toBe(0);
    const status = runBare("cli", root, env, "", ["status"]);
    expect(status.code).toBe(0);
    expect(status.stdout).toContain("iteration 2/5");
    for (const run of [stop, prompt, status]) expect(`${run.stdout}${run.stderr}`).not.toMatch(CRASH_SIGNS);
  });
});
