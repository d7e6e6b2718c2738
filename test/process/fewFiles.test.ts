// A limit of open files too low for git to start (docs/REFERENCE.md "Machines that hold back"): the Stop cannot
// tell whether the state file came with the repository, says so once, and names the limit as the cure, not git.
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { git } from "../support/gitRepo.js";
import { CRASH_SIGNS } from "../support/processes.js";
import { HOOKS, NODE } from "../support/runHook.js";

const made: string[] = [];
afterAll(() => {
  for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
});
const STATE = "---\nmax_iterations: 5\n---\nGoal\n";

/** Enough for Node to start, too few for its spawn of git (docs/REFERENCE.md "Machines that hold back"). */
const OPEN_FILES = 26;

describe("too few open files for git", () => {
  it("the Stop refuses once, names the error and the open-file limit, and leaves the file as it was", () => {
    const root = mkdtempSync(join(tmpdir(), "cl-fewfiles-"));
    made.push(root);
    git(root, "init", "-q");
    mkdirSync(join(root, ".claude"));
    writeFileSync(join(root, ".claude/continuation-loop.local.md"), STATE);
    const stop = () =>
      spawnSync("sh", ["-c", `ulimit -n ${OPEN_FILES} && exec "$0" "$1"`, NODE, join(HOOKS, "stop.js")], {
        cwd: root,
        env: { PATH: process.env.PATH ?? "", HOME: root, GIT_CONFIG_NOSYSTEM: "1" },
        input: JSON.stringify({ session_id: "s1", cwd: root, hook_event_name: "Stop", last_assistant_message: "x" }),
        encoding: "utf8",
        timeout: 20_000,
      });
    const first = stop();
    expect(first.status).toBe(0);
    const told = String(JSON.parse(first.stdout).systemMessage);
    expect(told).toContain("(git could not run (EMFILE))");
    expect(told).toContain("a higher limit of open files for Claude Code (ulimit -n 1024");
    expect(told).not.toContain("install git");
    const second = stop();
    expect(second.status).toBe(0);
    expect(second.stdout).toBe("");
    expect(readFileSync(join(root, ".claude/continuation-loop.local.md"), "utf8")).toBe(STATE);
    for (const run of [first, second]) expect(`${run.stdout}${run.stderr}`).not.toMatch(CRASH_SIGNS);
  });
});
