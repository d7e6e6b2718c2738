// A loop with a `checklist` run through the bundled Stop hook (docs/REFERENCE.md "Checklists").
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { makeProject, runHook } from "../support/runHook.js";

const stop = (root: string, reply: string) =>
  runHook("stop", { session_id: "s1", cwd: root, hook_event_name: "Stop", last_assistant_message: reply });
const lastHistory = (path: string) => JSON.parse(readFileSync(path, "utf8").trim().split("\n").at(-1) ?? "{}");

describe("checklist", () => {
  it("refuses the promise while a box is open, shows the progress, and completes once every box is checked", () => {
    const { root, statePath, historyPath } = makeProject(
      '---\nmax_iterations: 10\ncompletion_promise: "DONE"\nchecklist: PLAN.md\n---\nWork through the plan.\n',
    );
    const plan = join(root, "PLAN.md");
    writeFileSync(plan, "# Plan\n\n- [x] Write the test\n- [ ] Fix the parser\n\n```\n- [ ] not a task\n```\n");
    const first = stop(root, "Started.");
    expect(first.code).toBe(2);
    expect(first.stderr).toContain("Checklist (PLAN.md): 1/2 done · next: Fix the parser");
    // The promise with a box open: refused, and Claude is told which box.
    const refused = stop(root, "All good. DONE");
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(
      /not accepted: the checklist PLAN.md has 1\/2 boxes checked; the next open box \(line 4\): Fix the parser/,
    );
    // An ordinary iteration: the one-line reminder carries the progress.
    const ordinary = stop(root, "Still on it.");
    expect(ordinary.stderr.trimEnd().split("\n")).toHaveLength(1);
    expect(ordinary.stderr).toContain("Checklist 1/2 done · next: Fix the parser.");
    // Every box checked: the loop completes without the promise.
    writeFileSync(plan, readFileSync(plan, "utf8").replace("- [ ] Fix the parser", "- [x] Fix the parser"));
    const end = stop(root, "Fixed the parser.");
    expect(end.code).toBe(0);
    expect(String(end.json?.systemMessage)).toContain("completed (every box of PLAN.md checked)");
    expect(existsSync(statePath)).toBe(false);
    expect(lastHistory(historyPath)).toMatchObject({ decision: "end", reason: "completed" });
  });

  it.each([
    [
      "has no boxes",
      "PLAN.md",
      "Just prose, [ ] and a date [x] 2026-01-31.\n",
      /checklist: the checklist has no task boxes/,
    ],
    ["is missing", "MISSING.md", undefined, /checklist: the checklist cannot be read/],
    ["leaves the project", "../PLAN.md", undefined, /checklist: the checklist is outside the project/],
    [
      "is over 1 MiB",
      "PLAN.md",
      `${"- [x] done\n".repeat(100_000)}- [ ] last\n`,
      /checklist: the checklist is too large for its boxes to be counted\. Expected a checklist of at most 1 MiB .*; received PLAN\.md, 1100011 bytes/,
    ],
  ])(
    "a checklist that %s is an invalid field: Claude may stop, the file is untouched",
    (_name, path, text, message) => {
      const { root, statePath } = makeProject(`---\nmax_iterations: 10\nchecklist: ${path}\n---\nGoal\n`);
      if (text) writeFileSync(join(root, "PLAN.md"), text);
      const before = readFileSync(statePath, "utf8");
      const run = stop(root, "working");
      expect(run.code).toBe(0);
      expect(String(run.json?.systemMessage)).toMatch(message);
      expect(readFileSync(statePath, "utf8")).toBe(before);
    },
  );

  it("counts every box of a long checklist: an open one after 40 KB of checked ones keeps the loop going", () => {
    const { root, statePath } = makeProject("---\nmax_iterations: 10\nchecklist: PLAN.md\n---\nGoal\n");
    writeFileSync(join(root, "PLAN.md"), `${"- [x] a finished step of the plan\n".repeat(1200)}- [ ] the last step\n`);
    const run = stop(root, "Working.");
    expect(run.code).toBe(2);
    expect(run.stderr).toContain("Checklist (PLAN.md): 1200/1201 done · next: the last step");
    expect(existsSync(statePath)).toBe(true);
  });

  it("/loop-status shows the checklist's progress", () => {
    const { root } = makeProject("---\nmax_iterations: 10\nsession_id: s1\nchecklist: PLAN.md\n---\nGoal\n");
    writeFileSync(join(root, "PLAN.md"), "1. [x] one\n2. [ ] two\n3. [ ] three\n");
    const status = runHook("prompt", {
      session_id: "s1",
      cwd: root,
      hook_event_name: "UserPromptSubmit",
      prompt: "/loop-status",
    });
    expect(String(status.json?.reason)).toContain("checklist PLAN.md 1/3 done · next: two");
  });
});
