// The GitHub Actions workflow in docs/ci/: valid by the workflow schema (@action-validator/core, which
// carries it), its scripts free of expressions, and the Claude Code release it installs the one the
// end-to-end tests run (test/e2e/workflow.e2e.test.ts runs its steps).
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { validateWorkflow } from "@action-validator/core";
import { describe, expect, it } from "vitest";
import { readWorkflow, WORKFLOW } from "../e2e/support/workflow.js";
import { REPO } from "../support/runHook.js";

const validate = (text: string) => validateWorkflow(text).errors;

describe("docs/ci/continuation-loop.yml", () => {
  it("is a valid workflow by the schema", () => {
    expect(validate(readFileSync(WORKFLOW, "utf8"))).toEqual([]);
  });

  it.each([
    ["a job without runs-on", (text: string) => text.replace("runs-on:", "runs_on:")],
    ["a timeout that is no number", (text: string) => text.replace("timeout-minutes: 120", "timeout-minutes: soon")],
  ])("the check refuses %s", (_, spoil) => {
    expect(validate(spoil(readFileSync(WORKFLOW, "utf8"))).length).toBeGreaterThan(0);
  });

  it("passes values to its scripts through env, never as ${{ }} inside a script", () => {
    const steps = Object.values(readWorkflow().jobs).flatMap((job) => job.steps);
    const scripts = steps.flatMap((step) => (step.run === undefined ? [] : [step.run]));
    expect(scripts.length).toBeGreaterThanOrEqual(4);
    for (const script of scripts) expect(script).not.toContain("${{");
  });

  it("installs the newest Claude Code release the tests pin, and runs a matrix of goals", () => {
    const pin = (
      JSON.parse(readFileSync(join(REPO, "package.json"), "utf8")) as { devDependencies: Record<string, string> }
    ).devDependencies["claude-code-latest"];
    const workflow = readWorkflow();
    expect(pin).toBe(`npm:@anthropic-ai/claude-code@${workflow.env?.CLAUDE_CODE_VERSION}`);
    expect(workflow.jobs.loop?.strategy?.matrix.goal?.length).toBeGreaterThanOrEqual(2);
  });
});
