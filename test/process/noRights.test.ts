// Files the hooks cannot write (docs/REFERENCE.md "Machines that hold back"): a history another user owns or
// made read-only, a read-only .claude folder. The loop counts or says which file and what to do. Run as an
// unprivileged user when the tests run as root, who writes anything.
import { chmodSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { makeBadProject, removeBadProjects, stopInput, userFor } from "../support/badProject.js";
import { CRASH_SIGNS, spawnBundle } from "../support/processes.js";

afterAll(removeBadProjects);
const asOther = userFor(true);
const said = (stdout: string) => (stdout ? String(JSON.parse(stdout).systemMessage ?? "") : "");

describe.concurrent("files the hooks cannot write", () => {
  it("a history that cannot be written: the loop goes on and the person is told once, naming it", async () => {
    const { root, statePath } = makeBadProject({ expect: [], needsNonRoot: true });
    writeFileSync(statePath, "---\nmax_iterations: 5\n---\nGoal\n");
    const history = join(root, ".claude", "continuation-loop.history.jsonl");
    writeFileSync(history, "");
    chmodSync(history, 0o444);
    const first = await spawnBundle("stop", { cwd: root, stdin: stopInput(root), timeoutMs: 15_000, ...asOther });
    const second = await spawnBundle("stop", { cwd: root, stdin: stopInput(root), timeoutMs: 15_000, ...asOther });
    for (const run of [first, second]) expect(`${run.stdout}${run.stderr}`).not.toMatch(CRASH_SIGNS);
    expect([first.code, second.code]).toEqual([2, 2]);
    expect(said(first.stdout)).toMatch(
      /^continuation-loop: \.claude\/continuation-loop\.history\.jsonl cannot be written \((EACCES|EPERM)\).*chmod u\+w/,
    );
    expect(said(second.stdout)).toBe("");
    expect(readFileSync(history, "utf8")).toBe("");
    expect(readFileSync(statePath, "utf8")).toMatch(/\niteration_count: 3\n/);
  });

  it("doctor: a read-only .claude fails, naming the folder; a read-only history warns", async () => {
    const { root, statePath } = makeBadProject({ expect: [], needsNonRoot: true });
    writeFileSync(statePath, "---\nmax_iterations: 5\n---\nGoal\n");
    const history = join(root, ".claude", "continuation-loop.history.jsonl");
    writeFileSync(history, "");
    chmodSync(history, 0o444);
    const warned = await spawnBundle("cli", { cwd: root, args: ["doctor"], timeoutMs: 15_000, ...asOther });
    expect(warned.stdout).toMatch(/warn {2}\.claude\/continuation-loop\.history\.jsonl cannot be written/);
    expect(warned.stdout).not.toMatch(/FAIL/);
    chmodSync(join(root, ".claude"), 0o555);
    try {
      const failed = await spawnBundle("cli", { cwd: root, args: ["doctor"], timeoutMs: 15_000, ...asOther });
      expect(failed.stdout).toMatch(/FAIL {2}\.claude\/ cannot be written \((EACCES|EPERM)\).*chmod u\+w/);
      expect(failed.code).toBe(1);
      expect(`${failed.stdout}${failed.stderr}`).not.toMatch(CRASH_SIGNS);
    } finally {
      chmodSync(join(root, ".claude"), 0o777);
    }
  });

  it("a read-only state file in a writable folder is counted and keeps its mode", async () => {
    const { root, statePath } = makeBadProject({ expect: [], needsNonRoot: true });
    writeFileSync(statePath, "---\nmax_iterations: 5\n---\nGoal\n");
    chmodSync(statePath, 0o444);
    const run = await spawnBundle("stop", { cwd: root, stdin: stopInput(root), timeoutMs: 15_000, ...asOther });
    expect(run.code).toBe(2);
    expect(readFileSync(statePath, "utf8")).toMatch(/\niteration_count: 2\n/);
    expect(statSync(statePath).mode & 0o777).toBe(0o444);
  });
});
