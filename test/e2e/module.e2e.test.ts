// The companion module through the real CLI in -p (docs/REFERENCE.md "The companion module"): on 2.1.331 the loop's
// continuations are prompts from the plugin, max_cost holds with no status line, other Stop hooks still
// run, and a module failing at any step leaves the loop to the command hooks with no iteration lost or
// doubled. 2.1.197 ignores the module and runs the same loop.
import { randomUUID } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { text, type RecordedRequest } from "./support/messagesServer.js";
import { lastUserText, messageText } from "./support/requestText.js";
import { LOOP_MARKER, PLUGIN_DIR, trustProject } from "./support/loopProject.js";
import {
  describeRun,
  hookResponses,
  hookSystemMessages,
  runClaude,
  type ClaudeVersion,
  NEWEST,
  OLDEST,
} from "./support/runClaude.js";
import { perTest } from "./support/perTest.js";
import { watchPausedHooks } from "./support/pausedHooks.js";

const GOAL = "Write the release summary in NOTES.md.";

const t = perTest();

/** A second plugin in `root/<name>-plugin` with one command hook: `event` runs `script` (CommonJS) with node. */
function writePlugin(root: string, name: string, event: string, script: string): string {
  const dir = path.join(root, `${name}-plugin`);
  fs.mkdirSync(path.join(dir, ".claude-plugin"), { recursive: true });
  fs.mkdirSync(path.join(dir, "hooks"));
  fs.writeFileSync(path.join(dir, ".claude-plugin", "plugin.json"), JSON.stringify({ name, version: "1.0.0" }));
  fs.writeFileSync(path.join(dir, "hooks", "hook.cjs"), script);
  const command = `node "${path.join(dir, "hooks", "hook.cjs")}"`;
  const hooks = { hooks: { [event]: [{ hooks: [{ type: "command", command }] }] } };
  fs.writeFileSync(path.join(dir, "hooks", "hooks.json"), JSON.stringify(hooks));
  return dir;
}

/** A second plugin whose Stop hook counts its runs in a file and, when `blocks` says so, blocks its first Stops. */
function otherPlugin(root: string, blocks = 0): { dir: string; runs: () => number } {
  const log = path.join(root, "other-stops.log");
  const script =
    `const fs=require("fs");fs.appendFileSync(${JSON.stringify(log)},"x");` +
    `const n=fs.readFileSync(${JSON.stringify(log)},"utf8").length;` +
    `if(n<=${blocks}){process.stderr.write("OTHER-PLUGIN-"+n+": run the linter before you stop.");process.exit(2)}`;
  const dir = writePlugin(root, "other", "Stop", script);
  return { dir, runs: () => (fs.existsSync(log) ? fs.readFileSync(log, "utf8").length : 0) };
}

/** A second plugin whose UserPromptSubmit hook appends one line per run to a file, and says nothing. */
function promptCounter(root: string): { dir: string; runs: () => number } {
  const log = path.join(root, "prompts.log");
  const dir = writePlugin(
    root,
    "counter",
    "UserPromptSubmit",
    `require("fs").appendFileSync(${JSON.stringify(log)}, "x\\n");`,
  );
  const runs = () => (fs.existsSync(log) ? fs.readFileSync(log, "utf8").split("\n").filter(Boolean).length : 0);
  return { dir, runs };
}

async function runLoop(
  version: ClaudeVersion,
  state: string,
  opts: {
    env?: Record<string, string>;
    replies?: number;
    usage?: { input_tokens: number; output_tokens: number };
    pluginDirs?: string[];
  } = {},
) {
  const p = t.project();
  trustProject(p);
  p.writeState(state);
  const replies = Array.from({ length: opts.replies ?? 3 }, (_, i) => text(`working ${i + 1}`, opts.usage));
  const server = await t.server([...replies, text("never sent")]);
  const r = await runClaude({
    version,
    prompt: "start",
    baseUrl: server.url,
    cwd: p.proj,
    home: p.home,
    pluginDirs: [PLUGIN_DIR, ...(opts.pluginDirs ?? [])],
    ...(opts.env && { env: opts.env }),
  });
  expect(r.code, describeRun(r)).toBe(0);
  const main = server.mainRequests;
  const history = p.history();
  return { r, main, history, continuations: main.slice(1).map((req) => lastUserText(req)) };
}

/** Every message of a request after the model's last reply: what a Stop's answer handed it. */
function textAfterReply(req: RecordedRequest): string {
  const messages = req.body?.messages ?? [];
  let last = messages.length - 1;
  while (last >= 0 && messages[last]?.role !== "assistant") last -= 1;
  return messages
    .slice(last + 1)
    .map(messageText)
    .join("\n");
}

const threeIterations = `---\nmax_iterations: 3\n---\n\n${GOAL}\n`;

describe.each([OLDEST, NEWEST])("Claude Code %s with the module present", (version) => {
  it("runs every iteration once, each continuation carrying the marker and the goal", async () => {
    const { main, history, continuations } = await runLoop(version, threeIterations);
    expect(main).toHaveLength(3);
    expect(history.map((h) => h.decision)).toEqual(["continue", "continue", "end"]);
    expect(history.at(-1)?.reason).toBe("max_iterations");
    expect(continuations[0]).toContain(LOOP_MARKER);
    expect(continuations[0]).toContain(GOAL);
    expect(continuations[1]).toContain("3/3");
    for (const c of continuations) expect(c).not.toContain("[continuation-loop stop");
    // Where the module runs the text arrives as a prompt, with no hook command before it.
    for (const c of continuations) expect(c.includes("stop.js")).toBe(version === OLDEST);
  });
});

describe(`Claude Code ${NEWEST.name}: the module`, () => {
  it("ends a loop at max_cost with no status line, by Claude Code's own cost figures", async () => {
    const state = `---\nmax_iterations: 20\nmax_cost: 1\n---\n\n${GOAL}\n`;
    const usage = { input_tokens: 100_000, output_tokens: 2_000 };
    const { r, main, history } = await runLoop(NEWEST, state, { replies: 20, usage });
    const end = history.at(-1);
    expect(end).toMatchObject({ decision: "end", reason: "max_cost" });
    expect(main.length).toBeLessThan(20);
    // The spend recorded is Claude Code's own total for the loop's turns (the loop started with the session).
    const results = r.events.filter((e) => e.type === "result");
    const total = results.at(-1)?.total_cost_usd as number;
    expect(end?.cost_usd as number).toBeCloseTo(total, 9);
    expect(end?.cost_usd as number).toBeGreaterThanOrEqual(1);
  });

  it("keeps the spend across a restart: a loop paused in one process goes on in `claude -p --continue`, counted once", async () => {
    const p = t.project();
    trustProject(p);
    p.writeState(`---\nmax_iterations: 5\nmax_cost: 50\n---\n\n${GOAL}\n`);
    const usage = { input_tokens: 10_000, output_tokens: 500 };
    const replies = [
      "working 1",
      "<loop-pause>Which format?</loop-pause>",
      "working 2",
      "working 3",
      "working 4",
      "working 5",
    ];
    const server = await t.server([...replies.map((reply) => text(reply, usage)), text("never sent")]);
    const run = (prompt: string, extraArgs: string[] = []) =>
      runClaude({
        version: NEWEST,
        prompt,
        baseUrl: server.url,
        cwd: p.proj,
        home: p.home,
        pluginDirs: [PLUGIN_DIR],
        extraArgs,
      });
    const first = await run("start");
    expect(first.code, describeRun(first)).toBe(0);
    expect(p.history().at(-1)).toMatchObject({ decision: "pause", reason: "question", iteration: 2 });
    // Claude Code started again (after an update, README "Updating"), the session continued with the answer.
    const second = await run("Markdown", ["--continue"]);
    expect(second.code, describeRun(second)).toBe(0);
    const history = p.history();
    expect(history.map((h) => `${h.decision}:${h.iteration}`)).toEqual([
      "continue:1",
      "pause:2",
      "resume:2",
      "continue:2",
      "continue:3",
      "continue:4",
      "end:5",
    ]);
    expect(history.at(-1)?.reason).toBe("max_iterations");
    // The session's own total, which the continued process gives back and goes on from.
    const total = second.result?.total_cost_usd as number;
    expect(total).toBeGreaterThan(first.result?.total_cost_usd as number);
    expect(history.at(-1)?.cost_usd as number).toBeCloseTo(total, 9);
  });

  it("a Stop's word to the person stays beside the continuation it hands the module: a misspelled key, told once", async () => {
    const { r, main, continuations } = await runLoop(NEWEST, `---\nmax_iterations: 3\nmaxCost: 5\n---\n\n${GOAL}\n`);
    expect(main).toHaveLength(3);
    for (const c of continuations) expect(c).not.toContain("stop.js");
    const told = hookSystemMessages(r.transcriptPath, "Stop").filter((m) => m.includes("maxCost"));
    expect(told).toHaveLength(1);
    expect(told[0]).toMatch(/line 3: maxCost is not a field.*max_cost/);
  });

  /**
   * A loop of four iterations on the newest version, `node` on PATH logging each run (the helper's `view`, and the
   * hooks, so the log is known to work); `watch` runs beside Claude Code from its start to its end.
   */
  async function runLoggedLoop(
    env: Record<string, string> = {},
    watch?: (home: string) => { stop: () => void },
  ): Promise<{ runs: string[] }> {
    const p = t.project();
    trustProject(p);
    const sessionId = randomUUID();
    p.writeState(`---\nmax_iterations: 4\nsession_id: ${sessionId}\n---\n\n${GOAL}\n`);
    const shim = path.join(p.root, "bin");
    const log = path.join(p.root, "node-runs.log");
    fs.mkdirSync(shim);
    fs.writeFileSync(path.join(shim, "node"), `#!/bin/sh\necho "$*" >> "${log}"\nexec "${process.execPath}" "$@"\n`, {
      mode: 0o755,
    });
    const server = await t.server([1, 2, 3, 4].map((i) => text(`working ${i}`)));
    const watching = watch?.(p.home);
    const r = await runClaude({
      version: NEWEST,
      prompt: "start",
      baseUrl: server.url,
      cwd: p.proj,
      home: p.home,
      sessionId,
      pluginDirs: [PLUGIN_DIR],
      env: { PATH: `${shim}:${process.env.PATH ?? ""}`, ...env },
    }).finally(() => watching?.stop());
    expect(r.code, describeRun(r)).toBe(0);
    expect(p.history().map((h) => h.decision)).toEqual(["continue", "continue", "continue", "end"]);
    return { runs: fs.readFileSync(log, "utf8").split("\n") };
  }

  it("draws the band from the Stop hook's view: one helper run for the loop as found, none per iteration", async () => {
    const { runs } = await runLoggedLoop();
    expect(runs.filter((line) => line.includes("hooks/stop.js")).length).toBeGreaterThanOrEqual(4);
    expect(runs.filter((line) => line.includes("hooks/cli.js view"))).toHaveLength(1);
  });

  it("a band read that lands inside a Stop's commit runs no helper: each Stop held after its state file's rename", async () => {
    // Each hook stops once at the test-only point after its state file's rename, its sidecar not yet written, and is
    // held there past a second: the module reads the loop at least once a second while it shows one.
    const held: string[] = [];
    const { runs } = await runLoggedLoop({ CONTINUATION_LOOP_TEST_CRASH_AT: "rename-done:pause" }, (home) =>
      watchPausedHooks(home, (_n, command) => {
        held.push(command);
        Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 1_500);
      }),
    );
    expect(held.filter((command) => command.includes("hooks/stop.js")).length).toBeGreaterThanOrEqual(3);
    expect(runs.filter((line) => line.includes("hooks/cli.js view"))).toHaveLength(1);
  });

  it("leaves another plugin's Stop hook running at every Stop", async () => {
    const p0 = otherPlugin(fs.mkdtempSync(path.join(path.dirname(PLUGIN_DIR), ".scratch-other-")));
    t.removeAfter(path.dirname(p0.dir));
    const quiet = await runLoop(NEWEST, threeIterations, { pluginDirs: [p0.dir] });
    expect(quiet.main).toHaveLength(3);
    expect(p0.runs()).toBe(3);
  });

  it("hands Claude another plugin's Stop block as it was, beside the loop's continuation", async () => {
    // With the module, and without it: the same texts reach Claude.
    const envs: Record<string, string>[] = [{}, { CONTINUATION_LOOP_MODULE: "0" }];
    for (const env of envs) {
      const p0 = otherPlugin(fs.mkdtempSync(path.join(path.dirname(PLUGIN_DIR), ".scratch-other-")), 2);
      t.removeAfter(path.dirname(p0.dir));
      const run = await runLoop(NEWEST, threeIterations, { pluginDirs: [p0.dir], env });
      expect(run.history.map((h) => [h.decision, h.iteration])).toEqual([
        ["continue", 1],
        ["continue", 2],
        ["end", 3],
      ]);
      expect(run.main).toHaveLength(3);
      expect(p0.runs()).toBe(3);
      // What Claude reads after its reply at each of the two Stops both hooks blocked.
      const sent = run.main.slice(1).map((req) => textAfterReply(req));
      for (const [i, text] of sent.entries()) {
        expect(text).toContain(`OTHER-PLUGIN-${i + 1}: run the linter before you stop.`);
        expect(text).toContain(LOOP_MARKER);
        expect(text).not.toContain("[continuation-loop stop");
      }
      expect(sent[0]).toContain(GOAL);
    }
  });

  it("runs the UserPromptSubmit hooks as often as without the module: once, for the person's prompt", async () => {
    const fiveIterations = `---\nmax_iterations: 5\n---\n\n${GOAL}\n`;
    const counts: Record<string, unknown>[] = [];
    for (const env of [{}, { CONTINUATION_LOOP_MODULE: "0" }] as Record<string, string>[]) {
      const counter = promptCounter(fs.mkdtempSync(path.join(path.dirname(PLUGIN_DIR), ".scratch-counter-")));
      t.removeAfter(path.dirname(counter.dir));
      const run = await runLoop(NEWEST, fiveIterations, { replies: 5, pluginDirs: [counter.dir], env });
      expect(run.history.map((h) => [h.decision, h.iteration])).toEqual([
        ["continue", 1],
        ["continue", 2],
        ["continue", 3],
        ["continue", 4],
        ["end", 5],
      ]);
      for (const c of run.continuations) expect(c).toContain(LOOP_MARKER);
      // Every UserPromptSubmit hook run, this plugin's prompt.js and the counter's: two, for the first prompt.
      counts.push({ other: counter.runs(), all: hookResponses(run.r, "UserPromptSubmit").length });
    }
    expect(counts[0]).toEqual(counts[1]);
    expect(counts[0]).toEqual({ other: 1, all: 2 });
  });

  it.each(["load", "stop", "turn", "draw", "off"])(
    "a module that fails at %s leaves the loop to the command hooks: no iteration lost or doubled",
    async (step) => {
      const env: Record<string, string> =
        step === "off" ? { CONTINUATION_LOOP_MODULE: "0" } : { CONTINUATION_LOOP_MODULE_FAULT: step };
      const { main, history, continuations } = await runLoop(NEWEST, threeIterations, { env });
      expect(main).toHaveLength(3);
      expect(history.map((h) => [h.decision, h.iteration])).toEqual([
        ["continue", 1],
        ["continue", 2],
        ["end", 3],
      ]);
      for (const c of continuations) expect(c).toContain(LOOP_MARKER);
    },
  );
});
