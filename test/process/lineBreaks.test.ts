// The loop's other files written on Windows (CRLF, a BOM) or with tabs, through the bundled hooks: the state file's
// goal, the notes file, the checklist and a template reach Claude and a new state file with no stray "\r".
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { makeProject, runHook } from "../support/runHook.js";

const stop = (root: string, reply: string) =>
  runHook("stop", { session_id: "s1", cwd: root, hook_event_name: "Stop", last_assistant_message: reply });
const crlf = (text: string) => `\uFEFF${text.replace(/\n/g, "\r\n")}`;

describe("CRLF, a BOM and tabs in the loop's files", () => {
  it("counts a CRLF checklist with a BOM and tabs, and sends the goal and the notes with no \\r", () => {
    const { root } = makeProject(
      crlf("---\nmax_iterations: 10\nchecklist: PLAN.md\nnotes_file: NOTES.md\n---\nFix the parser.\nThen the docs.\n"),
    );
    writeFileSync(
      join(root, "PLAN.md"),
      crlf(
        "# Plan\n\n- [x]\tWrite the test\n- [ ]\n  Fix the parser\n-\t[ ] Update the docs\n\n```\n- [ ] code\n```\n",
      ),
    );
    writeFileSync(join(root, "NOTES.md"), crlf("NOTES-SEEN one\nNOTES-SEEN two\n"));
    const first = stop(root, "Started.");
    expect(first.code).toBe(2);
    expect(first.stderr).toContain("Checklist (PLAN.md): 1/3 done · next: Fix the parser");
    expect(first.stderr).toContain("Goal:\nFix the parser.\nThen the docs.\n");
    expect(first.stderr).toContain("NOTES-SEEN one\nNOTES-SEEN two\n");
    expect(first.stderr).not.toMatch(/[\r\uFEFF]/);
  });

  it("does not send the whole prompt again when an editor turns the goal's line breaks into CRLF", () => {
    const { root, statePath } = makeProject("---\nmax_iterations: 10\n---\nFix the parser.\nThen the docs.\n");
    expect(stop(root, "Started.").stderr).toContain("Goal:\n");
    const before = readFileSync(statePath, "utf8");
    writeFileSync(statePath, before.replace(/\n/g, "\r\n"));
    const next = stop(root, "Still on it.");
    expect(next.code).toBe(2);
    expect(next.stderr).not.toContain("Goal:");
    expect(next.stderr.trimEnd().split("\n")).toHaveLength(1);
  });

  it("starts a loop from a CRLF template with a BOM: the state file it writes has LF line breaks only", () => {
    const { root, statePath } = makeProject();
    const templates = join(root, ".claude", "continuation-loop", "templates");
    mkdirSync(templates, { recursive: true });
    writeFileSync(
      join(templates, "windows.md"),
      crlf("---\nmax_iterations: 5\ncompletion_promise: DONE\n---\n## Goal\n{{goal}}\n\n## Method\nSmall steps.\n"),
    );
    const start = runHook("prompt", {
      session_id: "s1",
      cwd: root,
      hook_event_name: "UserPromptSubmit",
      prompt: "/loop-start --template windows Fix the parser",
    });
    expect(start.code).toBe(0);
    const written = readFileSync(statePath, "utf8");
    expect(written).toMatch(/^---\nmax_iterations: 5\n/);
    expect(written).toContain("---\n## Goal\nFix the parser\n\n## Method\nSmall steps.\n");
    expect(written).not.toMatch(/[\r\uFEFF]/);
    const context = JSON.stringify(start.json);
    expect(context).toContain("Fix the parser");
    expect(context).not.toMatch(/\\r|\\uFEFF|\uFEFF/);
  });
});
