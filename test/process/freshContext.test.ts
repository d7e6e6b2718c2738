// fresh_context through the bundled hooks (docs/REFERENCE.md "Fresh context"): the Stop hook asks the module for a
// clear and sends the full prompt every time; without the module it tells once and goes on; /loop-start
// refuses the flag where the module is not live; the /clear handover carries the loop and its spend;
// doctor says why.
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { makeProject, runHook } from "../support/runHook.js";
import { removeTemps, runCli, tempProject } from "./support/cli.js";

afterAll(removeTemps);

const LIVE = { CONTINUATION_LOOP_MODULE_LIVE: "2.1.331", CLAUDECODE: "1" };
const FRESH_LINE = "[continuation-loop fresh context]\n";
const stop = (root: string, session: string, env: Record<string, string> = {}) =>
  runHook(
    "stop",
    { session_id: session, cwd: root, hook_event_name: "Stop", last_assistant_message: "working" },
    { env },
  );
/** The continuation the Stop hook hands the live module: its context, exit 0. */
const handed = (r: { json?: Record<string, unknown> }) =>
  String((r.json?.hookSpecificOutput as { additionalContext?: string } | undefined)?.additionalContext);
const sidecar = (root: string) =>
  JSON.parse(readFileSync(join(root, ".claude/continuation-loop.runtime.json"), "utf8")) as Record<string, unknown>;
const loop = (fields: string) =>
  makeProject(`---\nmax_iterations: 10\nstall_limit: 0\nnotes_file: NOTES.md\n${fields}---\n\nShip the parser.\n`);

describe("the Stop hook with fresh_context and the module live", () => {
  it("asks for a clear and sends the full prompt at every Stop, with the notes as they stand", () => {
    const { root } = loop("fresh_context: true\nsession_id: s1\n");
    writeFileSync(join(root, "NOTES.md"), "first notes\n");
    for (const [i, notes] of ["first notes", "second notes", "second notes"].entries()) {
      writeFileSync(join(root, "NOTES.md"), `${notes}\n`);
      const r = stop(root, "s1", { ...LIVE, CONTINUATION_LOOP_STOP_ID: `stop-id-000${i}` });
      expect(r.code).toBe(0);
      const sent = handed(r);
      expect(sent.endsWith(`${FRESH_LINE}[continuation-loop stop stop-id-000${i}]\n`)).toBe(true);
      // The same news as the Stop before: still the whole prompt, since the context it went to is gone.
      expect(sent).toContain("Goal:\nShip the parser.");
      expect(sent).toContain(`Notes (NOTES.md)`);
      expect(sent).toContain(notes);
      expect(sent).toContain("cleared");
      expect(sent).toContain(`iteration ${i + 2}/10`);
    }
  });

  it("the same loop without the field sends the short reminder once nothing changed", () => {
    const { root } = loop("session_id: s1\n");
    writeFileSync(join(root, "NOTES.md"), "notes\n");
    expect(handed(stop(root, "s1", { ...LIVE, CONTINUATION_LOOP_STOP_ID: "stop-id-0000" }))).toContain("Goal:");
    const second = handed(stop(root, "s1", { ...LIVE, CONTINUATION_LOOP_STOP_ID: "stop-id-0001" }));
    expect(second).not.toContain("Goal:");
    expect(second).not.toContain(FRESH_LINE);
  });
});

describe("the Stop hook with fresh_context and no module", () => {
  it("tells once, in one line, and the loop goes on in its context", () => {
    const { root, statePath } = loop("fresh_context: true\n");
    writeFileSync(join(root, "NOTES.md"), "notes\n");
    const first = stop(root, "s1", { CLAUDECODE: "1" });
    expect(first.code).toBe(2);
    const told = String(first.json?.systemMessage);
    expect(told).toMatch(/^continuation-loop: fresh_context needs the companion module.*current context\.$/);
    expect(told).not.toContain("\n");
    expect(first.stderr).toContain("Goal:\nShip the parser.");
    expect(first.stderr).not.toContain("[continuation-loop");
    expect(sidecar(root).fresh_context_told).toBe(true);
    const second = stop(root, "s1", { CLAUDECODE: "1" });
    expect(second.code).toBe(2);
    expect(second.stdout).toBe("");
    expect(readFileSync(statePath, "utf8")).toContain("fresh_context: true");
  });
});

describe("/loop-start --fresh-context", () => {
  const start = (root: string, env: Record<string, string>) =>
    runHook(
      "prompt",
      {
        session_id: "s1",
        cwd: root,
        hook_event_name: "UserPromptSubmit",
        prompt: "/loop-start --fresh-context Ship it",
      },
      { env },
    );

  it("is refused where the module is not live, with the reason, and writes nothing", () => {
    const { root, statePath } = makeProject();
    const r = start(root, { CLAUDECODE: "1" });
    expect(r.json?.decision).toBe("block");
    expect(String(r.json?.reason)).toMatch(/fresh_context: needs the companion module.*2\.1\.287/);
    expect(existsSync(statePath)).toBe(false);
  });

  it("starts the loop with the field where the module is live", () => {
    const { root, statePath } = makeProject();
    const r = start(root, LIVE);
    expect(r.json?.decision).toBeUndefined();
    expect(readFileSync(statePath, "utf8")).toMatch(/^fresh_context: true$/m);
  });
});

describe("the clear between iterations", () => {
  const session = (root: string, body: object) =>
    runHook("session", { cwd: root, ...body }, { env: { CLAUDE_PID: "4242", ...LIVE } });

  it("carries the loop, its counters and its spend to the new session; the next figure counts from zero", () => {
    const { root, statePath } = loop("fresh_context: true\nmax_cost: 5\n");
    writeFileSync(join(root, "NOTES.md"), "notes\n");
    const costs = (turn: string, now: string) => ({
      ...LIVE,
      CONTINUATION_LOOP_TURN_COST_USD: turn,
      CONTINUATION_LOOP_COST_USD: now,
      CONTINUATION_LOOP_STOP_ID: "stop-id-0000",
    });
    expect(stop(root, "old", costs("0", "0.3")).code).toBe(0);
    session(root, { hook_event_name: "SessionEnd", session_id: "old", reason: "clear" });
    const started = session(root, { hook_event_name: "SessionStart", session_id: "new", source: "clear" });
    // The loop's own clear, every iteration: no line for it.
    expect(started.stdout).toBe("");
    expect(readFileSync(statePath, "utf8")).toContain('session_id: "new"');
    expect(sidecar(root)).toMatchObject({ spend: { figure: 0, baseline: -0.3 } });
    // The new session's figure is above the old one's last: it is still all new spend.
    expect(stop(root, "new", costs("0", "0.4")).code).toBe(0);
    const history = readFileSync(join(root, ".claude/continuation-loop.history.jsonl"), "utf8").trim().split("\n");
    expect(JSON.parse(history.at(-1)!)).toMatchObject({ iteration: 2, session: "new", cost_usd: 0.7 });
  });
});

describe("doctor", () => {
  it("says why a loop's fresh_context cannot be honoured here", () => {
    const { root } = loop("fresh_context: true\n");
    writeFileSync(join(root, "NOTES.md"), "notes\n");
    const off = runHook("cli", "", { args: ["doctor", "--project", root], env: { CLAUDECODE: "1" } });
    expect(off.stdout).toMatch(/warn +fresh_context needs the companion module.*keeps one context/);
    const live = runHook("cli", "", { args: ["doctor", "--project", root], env: LIVE });
    expect(live.stdout).toMatch(/ok +fresh_context: each continuation clears the context first/);
  });
});

describe("the install route (continuation-loop install), where the module never loads", () => {
  const SESSION = { CLAUDECODE: "1", CLAUDE_CODE_SESSION_ID: "0f6f1c8e-3b0a-4c1e-9d2a-5b7e8c9d0a1b" };
  const ROUTE = "loads with the plugin route only (claude --plugin-dir or the marketplace)";
  const installed = () => {
    const root = tempProject();
    expect(runCli(["install", "--project", root], { cwd: "/" }).code).toBe(0);
    return { root, script: join(root, ".claude/continuation-loop/hooks/cli.js") };
  };

  it("doctor names the route as the reason, in a session and from a terminal", () => {
    const { root, script } = installed();
    for (const env of [SESSION, {}]) {
      const run = runCli(["doctor"], { cwd: root, script, env });
      expect(run.stdout).toContain(`ok    the companion module is not live here: it ${ROUTE}`);
      expect(run.stdout).not.toMatch(/2\.1\.287|safe-mode/);
    }
    writeFileSync(join(root, ".claude/continuation-loop.local.md"), "---\nfresh_context: true\n---\nGoal\n");
    const run = runCli(["doctor"], { cwd: root, script, env: SESSION });
    expect(run.stdout).toContain(`warn  fresh_context needs the companion module, which ${ROUTE}`);
  });

  it("start --fresh-context is refused there, in a session or from a terminal, saying the plugin route is needed; a Stop says so too", () => {
    const { root, script } = installed();
    for (const env of [SESSION, {}]) {
      const run = runCli(["start", "--fresh-context", "Try"], { cwd: root, script, env });
      expect(run).toMatchObject({ code: 2, stdout: "" });
      expect(run.stderr).toContain(`fresh_context: needs the companion module, which ${ROUTE}`);
      expect(run.stderr).toContain("or the plugin route (continuation-loop uninstall, then claude --plugin-dir");
      expect(run.stderr).not.toMatch(/2\.1\.287|safe-mode/);
    }
    const slash = runHook(
      "prompt",
      { session_id: "s1", cwd: root, hook_event_name: "UserPromptSubmit", prompt: "/loop-start --fresh-context Try" },
      { env: { CLAUDECODE: "1" } },
    );
    expect(String(slash.json?.reason)).toContain(ROUTE);
    expect(existsSync(join(root, ".claude/continuation-loop.local.md"))).toBe(false);
    // A file with the field, written by hand: its first Stop, the installed hook's, names the route once.
    writeFileSync(join(root, ".claude/continuation-loop.local.md"), "---\nfresh_context: true\n---\nGoal\n");
    const hooks = join(root, ".claude/continuation-loop/hooks");
    const stop = runHook(
      "stop",
      { session_id: "s1", cwd: root, hook_event_name: "Stop", last_assistant_message: "working" },
      { hooks, env: { CLAUDECODE: "1" } },
    );
    expect(stop.code).toBe(2);
    expect(stop.json?.systemMessage).toBe(
      `continuation-loop: fresh_context needs the companion module, which ${ROUTE}, not with the hooks continuation-loop install copied into this project; this loop goes on in its current context.`,
    );
    // A project on the plugin route, from a terminal: nobody can tell yet, so the loop starts.
    expect(runCli(["start", "--fresh-context", "Try"], { cwd: tempProject() }).code).toBe(0);
  });
});
