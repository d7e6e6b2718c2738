// Permission modes through the real CLI (docs/REFERENCE.md "Plan mode"): the Stop input says the session's mode.
// In plan mode Claude cannot edit and only the person leaves it, so the loop does not drive Claude on: the turn
// ends uncounted, the person is told once, and the first Stop outside plan mode goes on from the same iteration;
// `run`, where nobody can leave it, exits 3. Every other mode changes nothing for the loop. A tool refused turn
// after turn stalls the loop where Claude Code marks the refusal (docs/REFERENCE.md "How a loop ends"). Both pinned
// versions; the companion module where it runs.
import { execFileSync, spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { CLI, startRunCommand } from "./support/runCommand.js";
import { type LoopProject, PLUGIN_DIR, trustProject } from "./support/loopProject.js";
import { text, toolUse } from "./support/messagesServer.js";
import { CLAUDE_VERSIONS, cleanEnv, describeRun, hookResponses, NEWEST, runClaude } from "./support/runClaude.js";
import { perTest } from "./support/perTest.js";
import { ROUTES } from "./support/routes.js";

const t = perTest();

const decisions = (p: LoopProject) => p.history().map((r) => `${r.decision}:${r.iteration}`);

/** The helper's `status` for the project, as a person runs it in a terminal. */
function status(p: LoopProject): string {
  const r = spawnSync(process.execPath, [CLI, "status"], {
    cwd: p.proj,
    env: cleanEnv({ baseUrl: "http://127.0.0.1:9", home: p.home }),
    encoding: "utf8",
  });
  return r.stdout;
}

describe.each(ROUTES)("Claude Code $title: plan mode", (route) => {
  it("a loop in plan mode waits uncounted and says so once; the first prompt outside plan mode goes on", async () => {
    const p = t.project();
    trustProject(p);
    p.writeState("---\nmax_iterations: 2\n---\n\nMake the change.\n");
    const server = await t.server((_req, index) => text(`reply ${index}`));
    const run = (prompt: string, mode: string, resume?: string) =>
      runClaude({
        version: route.version,
        prompt,
        baseUrl: server.url,
        cwd: p.proj,
        home: p.home,
        pluginDirs: [PLUGIN_DIR],
        env: route.env,
        extraArgs: ["--permission-mode", mode],
        ...(resume && { resume }),
      });

    // Plan mode: one turn, no continuation; the loop keeps its iteration and its file, active.
    const planned = await run("Plan the change", "plan");
    expect(planned.code, describeRun(planned)).toBe(0);
    expect(server.mainRequests).toHaveLength(1);
    expect(decisions(p)).toEqual(["waiting_plan:1"]);
    expect(p.readState()).toMatch(/session_id: /);
    expect(p.readState()).not.toMatch(/iteration_count/);
    const told = hookResponses(planned, "Stop").map((e) => String(e.stdout));
    expect(told.filter((out) => /plan mode/.test(out))).toHaveLength(1);
    expect(status(p)).toMatch(/loop waiting, iteration 1\/2[\s\S]*plan mode/);

    // Still in plan mode: the wait goes on, and is neither told nor recorded again.
    const again = await run("Refine the plan", "plan", planned.sessionId);
    expect(again.code, describeRun(again)).toBe(0);
    expect(server.mainRequests).toHaveLength(2);
    expect(decisions(p)).toEqual(["waiting_plan:1"]);
    expect(hookResponses(again, "Stop").some((e) => /plan mode/.test(String(e.stdout)))).toBe(false);

    // Out of plan mode: the loop goes on from iteration 1 to its end.
    const going = await run("Go ahead", "acceptEdits", planned.sessionId);
    expect(going.code, describeRun(going)).toBe(0);
    expect(decisions(p)).toEqual(["waiting_plan:1", "continue:1", "end:2"]);
    expect(server.mainRequests).toHaveLength(4);
    expect(fs.existsSync(p.statePath)).toBe(false);
  });
});

// That only plan mode changes a loop is the product's rule; the mode each pin puts in the Stop input is measured
// by the plan-mode tests above on both.
describe.each([NEWEST])("Claude Code %s: other permission modes", (version) => {
  it("acceptEdits, bypassPermissions, dontAsk and auto run the loop as default does", async () => {
    for (const mode of ["default", "acceptEdits", "bypassPermissions", "dontAsk", "auto"]) {
      const p = t.project();
      p.writeState("---\nmax_iterations: 3\n---\n\nMake the change.\n");
      const server = await t.server((_req, index) => text(`reply ${index}`));
      const r = await runClaude({
        version,
        prompt: "start",
        baseUrl: server.url,
        cwd: p.proj,
        home: p.home,
        pluginDirs: [PLUGIN_DIR],
        extraArgs: ["--permission-mode", mode],
        // Claude Code refuses bypassPermissions as root outside a sandbox; the tests run as root.
        env: { IS_SANDBOX: "1" },
      });
      expect(r.code, `${mode}: ${describeRun(r)}`).toBe(0);
      expect(decisions(p), mode).toEqual(["continue:1", "continue:2", "end:3"]);
      expect(server.mainRequests, mode).toHaveLength(3);
      expect(path.basename(p.statePath)).toBe("continuation-loop.local.md");
    }
  });
});

describe.each(CLAUDE_VERSIONS)("Claude Code %s: a tool refused turn after turn", (version) => {
  const marks = version === NEWEST;
  it.each([
    ["permissions.deny", { permissions: { deny: ["Bash(echo:*)"] } }, []],
    [
      "a PreToolUse hook",
      {
        hooks: {
          PreToolUse: [
            {
              matcher: "Bash",
              hooks: [
                {
                  type: "command",
                  command: `echo '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"not here"}}'`,
                },
              ],
            },
          ],
        },
      },
      ["Bash"],
    ],
  ])(
    "refused by %s, with a new reply each turn, the loop stalls where Claude Code marks the refusal",
    async (_by, settings, allowed) => {
      const p = t.project();
      execFileSync("git", ["init", "-q"], { cwd: p.proj });
      fs.writeFileSync(path.join(p.proj, ".claude", "settings.json"), JSON.stringify(settings));
      p.writeState("---\nmax_iterations: 8\n---\n\nRun the build.\n");
      // Each turn: the same refused call, then a reply worded anew, as a model's would be.
      const server = await t.server((_req, index) =>
        index % 2 === 0 ? toolUse("Bash", { command: "echo build" }) : text(`Refused, attempt ${index}.`),
      );
      const r = await runClaude({
        version,
        prompt: "start",
        baseUrl: server.url,
        cwd: p.proj,
        home: p.home,
        pluginDirs: [PLUGIN_DIR],
        allowedTools: allowed,
        extraArgs: ["--permission-mode", "default"],
      });
      expect(r.code, describeRun(r)).toBe(0);
      const end = p.history().at(-1);
      if (marks) {
        // The first refused turn gives the tree to compare with; the next three changed nothing (stall_limit 3).
        expect(end).toMatchObject({ decision: "end", reason: "stalled", iteration: 4, refused_tools: ["Bash"] });
        const told = hookResponses(r, "Stop")
          .map((e) => String(e.stdout))
          .join("\n");
        expect(told).toMatch(/stalled[\s\S]*refused Bash/);
      } else {
        // 2.1.197 marks no refusal in the transcript: the loop runs to its limit, as before.
        expect(end).toMatchObject({ decision: "end", reason: "max_iterations", iteration: 8 });
      }
    },
  );
});

describe("continuation-loop run in plan mode", () => {
  it("exits 3, paused for a person, after one uncounted turn: nobody can leave plan mode in -p", async () => {
    const p = t.project();
    const server = await t.server((_req, index) => text(`plan ${index}`));
    const r = startRunCommand(NEWEST, {
      cwd: p.proj,
      dir: p.root,
      baseUrl: server.url,
      home: p.home,
      args: ["--max-iterations", "3", "Make the change", "--", "--permission-mode", "plan"],
    });
    const done = await r.done;
    expect(done.code, done.stderr).toBe(3);
    expect(r.claudePids()).toHaveLength(1);
    expect(server.mainRequests).toHaveLength(1);
    expect(decisions(p)).toEqual(["waiting_plan:1"]);
    expect(done.stderr).toMatch(/paused for you at iteration 1\/3: .*plan mode.*--permission-mode/);
  });
});
