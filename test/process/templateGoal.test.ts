// A loop started from a template (README "Make the tests pass": `--template tdd`) is named by its goal wherever one
// line stands for it: status, status --all, stop and history; the template's heading above the goal says nothing.
import { afterAll, beforeEach, describe, expect, it } from "vitest";
import { removeTemps, runCli, tempProject } from "./support/cli.js";

afterAll(removeTemps);

let project: string;
beforeEach(() => {
  project = tempProject();
});
const cli = (...args: string[]) => runCli(args, { cwd: project });

describe("a templated loop's goal in one line", () => {
  it.each(["tdd", "feature", "debug"])("--template %s: the goal, not the template's heading", (template) => {
    expect(cli("start", "--template", template, "Add rate limiting to the API").code).toBe(0);
    const status = cli("status");
    expect(status.code, status.stderr).toBe(0);
    expect(status.stdout).toMatch(/goal in \.claude\/continuation-loop\.local\.md: Add rate limiting to the API\n/);
    expect(cli("status", "--all").stdout).toMatch(/ — Add rate limiting to the API\n/);
    const stop = cli("stop");
    expect(stop.code, stop.stderr).toBe(0);
    expect(stop.stdout + stop.stderr).toContain('(goal: "Add rate limiting to the API", kept in the history)');
    expect(cli("history").stdout).toMatch(/stopped .* Add rate limiting to the API\n/);
    expect(cli("status").stdout).toMatch(/last loop: .* — goal: Add rate limiting to the API\n/);
  });
});
