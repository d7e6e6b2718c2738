// max_cost from Claude Code's own figures (README "Spend limits"): the status line records
// cost.total_cost_usd for the session's loop; the Stop hook ends the loop once the spend reaches it.
import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { readLoopSpend } from "../../src/core/sidecar.js";
import { recordCostFigure, makeRuntime } from "../../src/core/sidecar.js";
import { makeProject, runHook } from "../support/runHook.js";

const stop = (root: string, reply = "working") =>
  runHook("stop", { session_id: "s1", cwd: root, hook_event_name: "Stop", last_assistant_message: reply });
const statusline = (root: string, cost: number, session = "s1") =>
  runHook(
    "cli",
    { session_id: session, cwd: root, workspace: { project_dir: root }, cost: { total_cost_usd: cost } },
    { args: ["statusline"] },
  );

describe("the spend, from Claude Code's figures", () => {
  it.each([
    ["no figure yet", [], undefined],
    ["the first figure is the baseline", [1.25], 0],
    ["then the rise from it", [1.25, 1.75, 2.5], 1.25],
    ["a figure that drops (a new count, e.g. /clear) carries the spend so far", [1, 3, 0.5, 1], 3],
    ["without the noise of the subtraction", [0.00488, 0.00732], 0.00244],
    ["without the noise of the subtraction, from below", [1, 1.00244], 0.00244],
  ] as const)("%s", (_name, figures, spent) => {
    const runtime = figures.reduce((r, f) => recordCostFigure(r, f), makeRuntime());
    expect(readLoopSpend(runtime)).toBe(spent);
  });
});

describe("max_cost", () => {
  it("ends the loop once the status line reports the limit crossed; status, history and the end line show the spend", () => {
    const { root, historyPath } = makeProject("---\nmax_iterations: 50\nmax_cost: 2\nsession_id: s1\n---\nGoal\n");
    expect(stop(root).code).toBe(2);
    const line = statusline(root, 10);
    expect(line.code).toBe(0);
    expect(line.stdout).toContain("$0.00/$2.00");
    expect(stop(root).stderr).toContain("$2.00 left");
    expect(statusline(root, 11.5).stdout).toContain("$1.50/$2.00");
    const status = runHook("prompt", {
      session_id: "s1",
      cwd: root,
      hook_event_name: "UserPromptSubmit",
      prompt: "/loop-status",
    });
    expect(String(status.json?.reason)).toContain("cost $1.50 of $2.00 ($0.50 left)");
    expect(stop(root).code).toBe(2);
    statusline(root, 12.25);
    const end = stop(root);
    expect(end.code).toBe(0);
    expect(String(end.json?.systemMessage)).toMatch(/reached max_cost.*\$2\.25 spent/);
    const last = JSON.parse(readFileSync(historyPath, "utf8").trim().split("\n").at(-1) ?? "{}");
    expect(last).toMatchObject({ decision: "end", reason: "max_cost", cost_usd: 2.25 });
  });

  it("a status line drawn while a Stop holds the lock does not wait for it; the next redraw records the figure", () => {
    const { root, statePath } = makeProject("---\nmax_iterations: 50\nmax_cost: 1\nsession_id: s1\n---\nGoal\n");
    expect(stop(root).code).toBe(2);
    expect(statusline(root, 1).code).toBe(0);
    writeFileSync(`${statePath}.lock`, `${process.pid}\n`); // a live owner: a Stop at work
    const started = Date.now();
    const held = statusline(root, 5);
    expect(Date.now() - started).toBeLessThan(4_000); // the Stop's own wait would be 5 s
    expect(held.stdout).toContain("$0.00/$1.00");
    rmSync(`${statePath}.lock`);
    expect(statusline(root, 5).stdout).toContain("$4.00/$1.00");
  });

  it("another session's status line records nothing for this loop", () => {
    const { root } = makeProject("---\nmax_iterations: 50\nmax_cost: 1\nsession_id: s1\n---\nGoal\n");
    expect(stop(root).code).toBe(2);
    statusline(root, 0, "s2");
    statusline(root, 5, "s2");
    expect(stop(root).code).toBe(2);
  });

  it("from a terminal on the plugin route, start and doctor count on the companion module too", () => {
    const { root } = makeProject();
    const env = { HOME: join(root, "home"), CLAUDE_PROJECT_DIR: root };
    const cli = (...args: string[]) => runHook("cli", "", { cwd: root, args, env });
    const started = cli("start", "--max-cost", "3", "Goal");
    expect(started.code).toBe(0);
    expect(started.stderr).toContain("from the companion module (the plugin on Claude Code 2.1.287 or later)");
    expect(started.stderr).not.toContain("max_cost needs the plugin's status line");
    expect(cli("doctor").stdout).toMatch(/warn\s+max_cost takes Claude Code's cost figures from the companion module/);
    // The install route never loads the module: only a status line can hand the loop the figures.
    expect(cli("install").code).toBe(0);
    expect(cli("start", "--name", "b", "--max-cost", "3", "Goal").stderr).toContain(
      "max_cost needs the plugin's status line",
    );
    expect(cli("doctor").stdout).toMatch(/warn\s+max_cost needs the plugin's status line/);
  });

  it("/loop-start with max_cost says plainly when no status line of the plugin can report spend", () => {
    const { root } = makeProject();
    const home = join(root, "home");
    mkdirSync(join(home, ".claude"), { recursive: true });
    const start = (session: string, env: Record<string, string> = {}) =>
      runHook(
        "prompt",
        {
          session_id: session,
          cwd: root,
          hook_event_name: "UserPromptSubmit",
          prompt: `/loop-start --name ${session} --max-cost 3 Goal`,
        },
        { env: { HOME: home, CLAUDE_CONFIG_DIR: join(home, ".claude"), ...env } },
      );
    expect(String(start("a").json?.systemMessage)).toContain("max_cost needs the plugin's status line");
    // The companion module hands the loop Claude Code's cost figures itself: nothing to say.
    const live = start("m", { CONTINUATION_LOOP_MODULE_LIVE: "2.1.332" });
    expect(String(live.json?.systemMessage)).toContain("loop started");
    expect(String(live.json?.systemMessage)).not.toContain("max_cost needs");
    writeFileSync(
      join(home, ".claude", "settings.json"),
      JSON.stringify({
        statusLine: { type: "command", command: 'node "/x/hooks/cli.js" statusline', refreshInterval: 1 },
      }),
    );
    expect(String(start("b").json?.systemMessage)).not.toContain("max_cost needs");
  });
});
