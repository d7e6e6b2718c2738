// No Node on PATH, or one too old, through the real Claude Code CLI (docs/REFERENCE.md "No Node, or an old
// one"). Claude Code is a native binary and runs without Node: the person is told once per session, and at
// `/loop-start`, in one line naming Node.js; nothing starts, and no hook exits non-zero. On the plugin
// route (module on and off where the version has it) and the install route.
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { renderNodeNeeded } from "../../src/core/nodeSupport.js";
import { BROKEN_NODES, makeBrokenNodePath, makeGuardPath, oldNodeBinary } from "../support/nodePaths.js";
import { type Script, text } from "./support/messagesServer.js";
import { type LoopProject, PLUGIN_DIR, trustProject } from "./support/loopProject.js";
import {
  CLAUDE_VERSIONS,
  type ClaudeVersion,
  describeRun,
  hookResponses,
  REPO_ROOT,
  runClaude,
  type StreamEvent,
  NEWEST,
} from "./support/runClaude.js";
import { perTest } from "./support/perTest.js";

const START = "/continuation-loop:loop-start --max-iterations 3 Fix the tests";

const t = perTest();

/** A project Claude Code trusts (the module loads only there), and a PATH with no node (or `node`, when given). */
function setup(node?: string): { p: LoopProject; PATH: string } {
  const p = t.project();
  trustProject(p);
  return { p, PATH: makeGuardPath(path.join(p.root, "bin"), node) };
}

const serve = (script: Script) => t.server(script);

const hookEvents = (events: StreamEvent[]) =>
  events.filter((e) => e.type === "system" && e.subtype === "hook_response");
/** What each SessionStart hook told the person. */
const startLines = (events: StreamEvent[]) =>
  hookEvents(events)
    .filter((e) => e.hook_event === "SessionStart" && String(e.stdout).trim())
    .map((e) => (JSON.parse(String(e.stdout)) as { systemMessage?: string }).systemMessage);
/** Every hook run: its event, exit code and stderr; a hook error would show here. */
const exits = (events: StreamEvent[]) =>
  hookEvents(events).map((e) => ({ hook: e.hook_event, exit: e.exit_code, stderr: e.stderr }));
/** Every hook exited 0, and printed on stderr only what a node that does not run printed (`stderr`). */
const quiet = (events: StreamEvent[], stderr = "") => exits(events).map((e) => ({ ...e, exit: 0, stderr }));
/** No loop file of any kind in the project's .claude/. */
const loopFiles = (proj: string) =>
  fs.existsSync(path.join(proj, ".claude"))
    ? fs.readdirSync(path.join(proj, ".claude")).filter((f) => f.startsWith("continuation-loop."))
    : [];

const modes = (version: ClaudeVersion): [string, Record<string, string>][] =>
  version === NEWEST
    ? [
        ["the module on", {}],
        ["the module off", { CONTINUATION_LOOP_MODULE: "0" }],
      ]
    : [["no module on this version", {}]];

describe.each(CLAUDE_VERSIONS)("Claude Code %s", (version) => {
  describe.each(modes(version))("plugin route, %s", (_mode, env) => {
    it("no node on PATH: /loop-start answers one line naming Node.js and starts nothing; the session's start says it once; no hook exits non-zero", async () => {
      const { p, PATH } = setup();
      const s = await serve([text("never sent")]);
      const r = await runClaude({
        version,
        prompt: START,
        baseUrl: s.url,
        cwd: p.proj,
        home: p.home,
        pluginDirs: [PLUGIN_DIR],
        env: { PATH, ...env },
      });
      expect(r.code, describeRun(r)).toBe(0);
      expect(s.mainRequests).toHaveLength(0);
      expect(loopFiles(p.proj)).toEqual([]);
      expect(startLines(r.events)).toEqual([renderNodeNeeded()]);
      const prompt = hookResponses(r, "UserPromptSubmit");
      expect(prompt.map((e) => JSON.parse(String(e.stdout)))).toEqual([
        { decision: "block", reason: renderNodeNeeded() },
      ]);
      expect(String(r.result?.result)).toContain(renderNodeNeeded());
      expect(exits(r.events).length).toBeGreaterThanOrEqual(2);
      expect(exits(r.events)).toEqual(quiet(r.events));

      // A resumed session is told again, once; a plain prompt is answered as usual.
      const again = await runClaude({
        version,
        prompt: "hello",
        resume: r.sessionId,
        baseUrl: s.url,
        cwd: p.proj,
        home: p.home,
        pluginDirs: [PLUGIN_DIR],
        env: { PATH, ...env },
      });
      expect(again.code, describeRun(again)).toBe(0);
      expect(s.mainRequests).toHaveLength(1);
      expect(startLines(again.events)).toEqual([renderNodeNeeded()]);
      expect(exits(again.events).map((e) => e.hook)).toEqual(
        expect.arrayContaining(["SessionStart", "UserPromptSubmit", "Stop"]),
      );
      expect(exits(again.events)).toEqual(quiet(again.events));
    });

    it.each([
      ["no node on PATH", ""],
      ["an asdf shim with no version set as node", BROKEN_NODES.asdf.stderr],
    ])(
      "%s, a few turns in one session: told once at the start, each loop command refused with the line, other prompts answered, no hook error",
      async (_what, stderr) => {
        const { p, PATH: none } = setup();
        const PATH = stderr ? makeBrokenNodePath(path.join(p.root, "broken"), "asdf") : none;
        const s = await serve([text("Hello there."), text("Here again.")]);
        const live = t.session(
          { version, baseUrl: s.url, cwd: p.proj, home: p.home, pluginDirs: [PLUGIN_DIR], env: { PATH, ...env } },
          "hello",
        );
        const results = () => live.events.filter((e) => e.type === "result");
        const turn = async (n: number) => {
          const end = Date.now() + 60_000;
          while (results().length < n) {
            if (Date.now() > end) throw new Error(`no result ${n}: ${JSON.stringify(live.events.slice(-5))}`);
            await new Promise((resolve) => setTimeout(resolve, 100));
          }
        };
        await turn(1);
        for (const [i, prompt] of [START, "/continuation-loop:loop-status", "/continuation-loop:loop-stop"].entries()) {
          live.send(prompt);
          await turn(i + 2);
        }
        live.send("again");
        await turn(5);
        const { code } = await live.close();
        expect(code).toBe(0);

        expect(s.mainRequests).toHaveLength(2);
        expect(loopFiles(p.proj)).toEqual([]);
        expect(startLines(live.events)).toEqual([renderNodeNeeded()]);
        // Each loop command's answer is the line (from the prompt hook, or from the module on its own commands).
        for (const result of results().slice(1, 4))
          expect(String(result.result)).toContain(renderNodeNeeded().replace(/^continuation-loop: /, ""));
        expect(exits(live.events).filter((e) => e.hook === "Stop")).toHaveLength(2);
        expect(exits(live.events)).toEqual(quiet(live.events, stderr));
      },
    );
  });

  it("Node 18 first on PATH: /loop-start answers the line with that version, the session's start says it once, nothing starts", async () => {
    const { p, PATH } = setup(oldNodeBinary(18));
    const s = await serve([text("never sent")]);
    const r = await runClaude({
      version,
      prompt: START,
      baseUrl: s.url,
      cwd: p.proj,
      home: p.home,
      pluginDirs: [PLUGIN_DIR],
      env: { PATH },
    });
    expect(r.code, describeRun(r)).toBe(0);
    expect(s.mainRequests).toHaveLength(0);
    expect(loopFiles(p.proj)).toEqual([]);
    expect(startLines(r.events)).toEqual([renderNodeNeeded("18.19.0")]);
    expect(String(r.result?.result)).toContain(renderNodeNeeded("18.19.0"));
    expect(exits(r.events)).toEqual(quiet(r.events));
  });

  it("an installed project (no plugin) with no node on PATH: /loop-start answers the line, the session's start says it once, no hook exits non-zero", async () => {
    const { p, PATH } = setup();
    const install = spawnSync(
      process.execPath,
      [path.join(REPO_ROOT, "hooks", "cli.js"), "install", "--project", p.proj],
      {
        encoding: "utf8",
      },
    );
    expect(install.status, install.stderr).toBe(0);
    const s = await serve([text("never sent")]);
    const r = await runClaude({
      version,
      prompt: "/loop-start --max-iterations 3 Fix the tests",
      baseUrl: s.url,
      cwd: p.proj,
      home: p.home,
      env: { PATH },
    });
    expect(r.code, describeRun(r)).toBe(0);
    expect(s.mainRequests).toHaveLength(0);
    expect(loopFiles(p.proj)).toEqual([]);
    expect(startLines(r.events)).toEqual([renderNodeNeeded()]);
    expect(hookResponses(r, "UserPromptSubmit").map((e) => JSON.parse(String(e.stdout)))).toEqual([
      { decision: "block", reason: renderNodeNeeded() },
    ]);
    expect(exits(r.events)).toEqual(quiet(r.events));
  });
});

describe(`Claude Code ${NEWEST.name}, the module with a Node too old on PATH`, () => {
  it("runs the view helper once for a loop bound to the session, then never again; its /loop-status answers the line", async () => {
    const { p } = setup();
    // `node` on PATH is Node 18, through a script that logs each run (the hooks' too).
    const bin = path.join(p.root, "old-bin");
    const log = path.join(p.root, "node-runs.log");
    makeGuardPath(bin);
    fs.writeFileSync(path.join(bin, "node"), `#!/bin/sh\necho "$*" >> "${log}"\nexec "${oldNodeBinary(18)}" "$@"\n`, {
      mode: 0o755,
    });
    const sessionId = "5a0c6b1e-2f3d-4e5f-8a9b-0c1d2e3f4a5b";
    fs.mkdirSync(path.join(p.proj, ".claude"), { recursive: true });
    const state = `---\nmax_iterations: 4\nsession_id: ${sessionId}\n---\n\nFix the tests\n`;
    const statePath = path.join(p.proj, ".claude", "continuation-loop.local.md");
    fs.writeFileSync(statePath, state);
    const s = await serve([text("Hello there."), text("Here again.")]);
    const live = t.session(
      {
        version: NEWEST,
        baseUrl: s.url,
        cwd: p.proj,
        home: p.home,
        sessionId,
        pluginDirs: [PLUGIN_DIR],
        env: { PATH: bin },
      },
      "hello",
    );
    const results = () => live.events.filter((e) => e.type === "result");
    const turn = async (n: number) => {
      const end = Date.now() + 60_000;
      while (results().length < n) {
        if (Date.now() > end) throw new Error(`no result ${n}`);
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    };
    // A hand edit before each later turn: a module that ran the helper once per distinct text would run it again.
    const edit = (max: number) =>
      fs.writeFileSync(statePath, state.replace("max_iterations: 4", `max_iterations: ${max}`));
    await turn(1);
    edit(5);
    live.send("/continuation-loop:loop-status");
    await turn(2);
    edit(6);
    live.send("again");
    await turn(3);
    expect((await live.close()).code).toBe(0);

    const runs = fs.readFileSync(log, "utf8").split("\n").filter(Boolean);
    expect(runs.filter((line) => line.includes("hooks/cli.js view"))).toHaveLength(1);
    // The loop was neither continued nor touched: the hooks stopped at the version check.
    expect(fs.readFileSync(statePath, "utf8")).toBe(state.replace("max_iterations: 4", "max_iterations: 6"));
    expect(s.mainRequests).toHaveLength(2);
    expect(String(results()[1]?.result)).toContain(renderNodeNeeded("18.19.0").replace(/^continuation-loop: /, ""));
    expect(exits(live.events)).toEqual(quiet(live.events));
    expect(startLines(live.events)).toEqual([renderNodeNeeded("18.19.0")]);
  });
});
