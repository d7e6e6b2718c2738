// The bundled UserPromptSubmit hook (hooks/prompt.js) answering the loop commands a user typed.
import { spawnSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeEach, describe, expect, it } from "vitest";
import { parseState } from "../../src/core/parseState.js";
import { NODE } from "../support/runHook.js";
import { removeTemps, REPO, tempProject } from "./support/cli.js";

afterAll(removeTemps);

let project: string;
const statePath = () => join(project, ".claude", "continuation-loop.local.md");

function prompt(
  text: string,
  session = "sess-P",
): { code: number | null; json: Record<string, unknown> | undefined; stdout: string } {
  const r = spawnSync(NODE, [join(REPO, "hooks", "prompt.js")], {
    input: JSON.stringify({ session_id: session, cwd: project, hook_event_name: "UserPromptSubmit", prompt: text }),
    env: { PATH: process.env.PATH ?? "", HOME: project, CLAUDE_PROJECT_DIR: project },
    encoding: "utf8",
  });
  return {
    code: r.status,
    stdout: r.stdout,
    json: r.stdout.trim() ? (JSON.parse(r.stdout) as Record<string, unknown>) : undefined,
  };
}

beforeEach(() => {
  project = tempProject();
});

describe("hooks/prompt.js runs the loop commands", () => {
  it.each([
    [
      "a notes file out of the project",
      "--notes-file ../NOTES.md",
      "notes_file: the notes file is outside the project",
    ],
    ["a checklist out of the project", "--checklist /etc/hosts", "checklist: the checklist is outside the project"],
    ["a metric target with no metric", "--metric-target '>= 90'", "metric_target: needs a metric to measure"],
    ["max_no_improvement with no metric", "--max-no-improvement 3", "max_no_improvement: needs a metric to measure"],
  ])("refuses %s before any loop is written, as its first stop would", (_name, flags, message) => {
    const r = prompt(`/loop-start ${flags} Goal`);
    expect(r.json?.decision).toBe("block");
    expect(String(r.json?.reason)).toContain(message);
    expect(existsSync(statePath())).toBe(false);
  });

  it("--active=false prepares the loop paused and answers in the hook: Claude gets no turn on it until /loop-resume", () => {
    const r = prompt("/loop-start --active=false --max-iterations 4 Fix the tests");
    expect(r.json?.decision).toBe("block");
    expect(String(r.json?.reason)).toContain("loop prepared in .claude/continuation-loop.local.md, paused");
    expect(String(r.json?.reason)).toContain("/loop-resume starts it");
    expect(r.json?.hookSpecificOutput).toBeUndefined();
    expect(parseState(readFileSync(statePath(), "utf8"))).toMatchObject({ active: false, max_iterations: 4 });
    const resumed = prompt("/loop-resume");
    expect(resumed.code).toBe(0);
    expect(String((resumed.json?.hookSpecificOutput as Record<string, unknown>)?.additionalContext)).toContain(
      "Fix the tests",
    );
    expect(parseState(readFileSync(statePath(), "utf8"))).toMatchObject({ active: true });
  });

  it("starts a loop from the raw prompt and gives Claude the start context", () => {
    const goal = `Don't "break" $(touch ${project}/pwned) \`id\``;
    const r = prompt(`/continuation-loop:loop-start --max-iterations 3 --completion-promise "it's done" ${goal}`);
    expect(r.code).toBe(0);
    expect(parseState(readFileSync(statePath(), "utf8"))).toMatchObject({
      body: `${goal}\n`,
      session_id: "sess-P",
      max_iterations: 3,
    });
    expect(r.json).toMatchObject({
      hookSpecificOutput: {
        hookEventName: "UserPromptSubmit",
        additionalContext: expect.stringContaining("Begin working on the goal now"),
      },
    });
    expect(existsSync(join(project, "pwned"))).toBe(false);
  });

  it("blocks a bad command line with the reason, exit 0", () => {
    const r = prompt("/loop-start --max-iterations 0 Go");
    expect(r.code).toBe(0);
    expect(r.json).toEqual({ decision: "block", reason: expect.stringContaining("--max-iterations: invalid value") });
    expect(existsSync(statePath())).toBe(false);
  });

  it("stops and reports", () => {
    prompt("/loop-start Work");
    // Answered by the hook itself (a block): no model turn. Another session names the loop.
    expect(String(prompt("/loop-status --name default", "other").json?.reason)).toContain("iteration 1/10");
    expect(String(prompt("/loop-stop --name default", "other").json?.reason)).toContain("loop stopped by the user");
    expect(existsSync(statePath())).toBe(false);
  });

  it("stays silent for any other prompt", () => {
    expect(prompt("please explain /loop-start").stdout).toBe("");
  });
});
