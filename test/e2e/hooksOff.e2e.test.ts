// When Claude Code runs no hook of the loop's, or ends its Stop hook at a timeout, through the real Claude Code CLI
// on both pins (docs/REFERENCE.md "When the hooks do not run"): `disableAllHooks` and `claude plugin disable` leave
// the loop's files as they were and `status` says why the loop does not run; a Stop timeout shorter than `verify` ends the Stop mid-way with
// nothing torn, doctor says the timeout is too short, and once it is long enough the next Stop goes on.
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { text } from "./support/messagesServer.js";
import { PLUGIN_DIR, trustProject } from "./support/loopProject.js";
import { CLAUDE_VERSIONS, describeRun, hookResponses, REPO_ROOT, runClaude } from "./support/runClaude.js";
import { perTest } from "./support/perTest.js";

const t = perTest();
const SESSION = "5e55e55e-0000-4000-8000-00000000c0de";
const STATE = (extra = "") =>
  `---\nactive: true\niteration_count: 1\nmax_iterations: 4\ncompletion_promise: FINISHED\n${extra}session_id: ${SESSION}\n---\n\nDo the thing.\n`;

/** The helper from a terminal, in the project, with the test's HOME. */
const cli = (proj: string, home: string, args: string[]) =>
  spawnSync(process.execPath, [path.join(REPO_ROOT, "hooks", "cli.js"), ...args], {
    cwd: proj,
    encoding: "utf8",
    env: { PATH: process.env.PATH ?? "", HOME: home },
  });

/** Every file of the project's .claude/ folder but the history, by name and content. */
const loopFiles = (proj: string) =>
  Object.fromEntries(
    fs
      .readdirSync(path.join(proj, ".claude"))
      .filter((name) => name.startsWith("continuation-loop.") && !name.endsWith(".history.jsonl"))
      .map((name) => [name, fs.readFileSync(path.join(proj, ".claude", name), "utf8")]),
  );

describe.each(CLAUDE_VERSIONS)("Claude Code %s", (version) => {
  it("disableAllHooks: no hook runs, the loop's files stay as they were, status says why; removed, the loop goes on", async () => {
    const p = t.project();
    trustProject(p);
    p.writeState(STATE());
    const local = path.join(p.proj, ".claude", "settings.local.json");
    fs.writeFileSync(local, JSON.stringify({ disableAllHooks: true }));
    const before = loopFiles(p.proj);
    const server = await t.server([text("one"), text("two")]);
    const run = (resume?: string) =>
      runClaude({
        version,
        prompt: "go",
        baseUrl: server.url,
        cwd: p.proj,
        home: p.home,
        pluginDirs: [PLUGIN_DIR],
        ...(resume ? { resume } : { sessionId: SESSION }),
      });
    const off = await run();
    expect(off.code, describeRun(off)).toBe(0);
    expect(hookResponses(off)).toEqual([]);
    expect(server.mainRequests).toHaveLength(1);
    expect(loopFiles(p.proj)).toEqual(before);
    const status = cli(p.proj, p.home, ["status"]);
    expect(status.status).toBe(0);
    expect(status.stdout).toContain("iteration 1/4");
    expect(status.stdout).toContain("hooks off: disableAllHooks is true in .claude/settings.local.json");

    fs.rmSync(local);
    const on = await run(SESSION);
    expect(on.code, describeRun(on)).toBe(0);
    expect(hookResponses(on, "Stop").length).toBeGreaterThan(0);
    expect(p.history().some((r) => r.decision === "continue" && r.session === SESSION)).toBe(true);
    expect(cli(p.proj, p.home, ["status"]).stdout).not.toContain("hooks off");
  }, 120_000);

  it("the plugin disabled mid-loop (claude plugin disable): no hook runs, status says so; enabled again, the loop goes on", async () => {
    const p = t.project();
    trustProject(p);
    // What a clone of the repository holds for the plugin, as a marketplace.
    const market = path.join(p.root, "market");
    for (const part of ["hooks", "templates", ".claude/commands", ".claude-plugin", "package.json"])
      fs.cpSync(path.join(REPO_ROOT, part), path.join(market, part), { recursive: true });
    const env = {
      PATH: process.env.PATH ?? "",
      HOME: p.home,
      CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: "1",
      DISABLE_AUTOUPDATER: "1",
    };
    const plugin = (...args: string[]) => {
      const r = spawnSync(version.bin, ["plugin", ...args], { cwd: p.proj, encoding: "utf8", env });
      expect(r.status, r.stdout + r.stderr).toBe(0);
    };
    plugin("marketplace", "add", market);
    plugin("install", "continuation-loop@continuation-loop");
    p.writeState(STATE());
    plugin("disable", "continuation-loop@continuation-loop");
    const before = loopFiles(p.proj);
    const server = await t.server([text("one"), text("two")]);
    const off = await runClaude({
      version,
      prompt: "go",
      baseUrl: server.url,
      cwd: p.proj,
      home: p.home,
      sessionId: SESSION,
    });
    expect(off.code, describeRun(off)).toBe(0);
    expect(hookResponses(off)).toEqual([]);
    expect(loopFiles(p.proj)).toEqual(before);
    expect(cli(p.proj, p.home, ["status"]).stdout).toContain("hooks off: the plugin is disabled");

    plugin("enable", "continuation-loop@continuation-loop");
    expect(cli(p.proj, p.home, ["status"]).stdout).not.toContain("hooks off");
    const on = await runClaude({
      version,
      prompt: "go on",
      baseUrl: server.url,
      cwd: p.proj,
      home: p.home,
      resume: SESSION,
    });
    expect(on.code, describeRun(on)).toBe(0);
    expect(p.history().some((r) => r.decision === "continue" && r.session === SESSION)).toBe(true);
  }, 120_000);

  it("a Stop timeout shorter than verify: the Stop is ended with nothing torn, doctor says so, and once fixed the next Stop completes the loop", async () => {
    const p = t.project();
    trustProject(p);
    spawnSync("git", ["init", "-q"], { cwd: p.proj });
    expect(cli(p.proj, p.home, ["install", "--project", p.proj]).status).toBe(0);
    const settingsPath = path.join(p.proj, ".claude", "settings.json");
    const settings = JSON.parse(fs.readFileSync(settingsPath, "utf8"));
    const stopHook = settings.hooks.Stop[0].hooks[0];
    const ours = stopHook.timeout;
    stopHook.timeout = 2;
    fs.writeFileSync(settingsPath, JSON.stringify(settings, null, 2));
    // The verify outlasts the Stop's 2 s: Claude Code ends the Stop while it runs (before the lock: none is left).
    p.writeState(STATE('verify: "sleep 4; echo verified"\n'));
    const state = p.readState();
    const server = await t.server([text("FINISHED"), text("FINISHED")]);
    const first = await runClaude({
      version,
      prompt: "go",
      baseUrl: server.url,
      cwd: p.proj,
      home: p.home,
      sessionId: SESSION,
    });
    expect(first.code, describeRun(first)).toBe(0);
    const stops = hookResponses(first, "Stop");
    expect(stops).toHaveLength(1);
    expect(stops[0]?.exit_code).not.toBe(2);
    // Nothing torn: the state file as it was, no temp file, no sidecar or a whole one.
    expect(p.readState()).toBe(state);
    const files = fs.readdirSync(path.join(p.proj, ".claude"));
    expect(files.filter((f) => f.endsWith(".tmp") || f.endsWith(".lock"))).toEqual([]);
    const sidecar = path.join(p.proj, ".claude", "continuation-loop.runtime.json");
    if (fs.existsSync(sidecar)) expect(() => JSON.parse(fs.readFileSync(sidecar, "utf8"))).not.toThrow();
    expect(cli(p.proj, p.home, ["status"]).stdout).not.toContain("last save cut short");
    const doctor = cli(p.proj, p.home, ["doctor"]);
    expect(doctor.stdout).toMatch(/warn {2}the Stop hook's timeout is 2s in \.claude\/settings\.json/);

    stopHook.timeout = ours;
    fs.writeFileSync(settingsPath, JSON.stringify(settings, null, 2));
    expect(cli(p.proj, p.home, ["doctor"]).stdout).not.toContain("the Stop hook's timeout");
    const next = await runClaude({
      version,
      prompt: "go on",
      baseUrl: server.url,
      cwd: p.proj,
      home: p.home,
      resume: SESSION,
    });
    expect(next.code, describeRun(next)).toBe(0);
    expect(p.readState()).toBeUndefined();
    expect(cli(p.proj, p.home, ["status"]).stdout).not.toContain("cut short");
    const end = p.history().find((r) => r.decision === "end");
    expect(end?.reason).toBe("completed");
  }, 120_000);
});
