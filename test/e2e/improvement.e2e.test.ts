// Improvement loops through the real Claude Code CLI (docs/REFERENCE.md "Improvement loops"): a metric reaching
// its target, a flat metric, a lower-is-better target; a write outside scope and /loop-resume.
import { execFileSync } from "node:child_process";
import { randomUUID } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { text, toolUse, type Script } from "./support/messagesServer.js";
import { lastUserText } from "./support/requestText.js";
import { LOOP_MARKER, PLUGIN_DIR, type LoopProject } from "./support/loopProject.js";
import { NEWEST, describeRun, hookSystemMessages, runClaude } from "./support/runClaude.js";
import { perTest } from "./support/perTest.js";

const t = perTest();

/** A metric that counts its own runs (one per Stop) in the file n and prints `expression` of the count. */
const counting = (expression: string) =>
  `metric: "n=$(($(cat n 2>/dev/null || echo 0) + 1)); echo $n > n; echo $((${expression}))"`;

// A metric's and a scope's decisions are the product's own: on the newest pin only (support/pins.ts).
describe.each([NEWEST])("Claude Code %s", (version) => {
  async function run(
    p: LoopProject,
    script: Script,
    opts: { allowedTools?: string[]; prompt?: string; sessionId?: string; resume?: string } = {},
  ) {
    const server = await t.server(script);
    const r = await runClaude({
      version,
      prompt: opts.prompt ?? "go",
      baseUrl: server.url,
      cwd: p.proj,
      home: p.home,
      pluginDirs: [PLUGIN_DIR],
      allowedTools: opts.allowedTools ?? [],
      ...(opts.resume ? { resume: opts.resume } : { sessionId: opts.sessionId ?? randomUUID() }),
    });
    expect(r.code, describeRun(r)).toBe(0);
    expect(server.exhausted, "the loop ran past the scripted replies").toBe(false);
    return {
      r,
      sent: server.mainRequests.map((req) => lastUserText(req)),
      told: hookSystemMessages(r.transcriptPath, "Stop").join("\n"),
    };
  }

  it("a metric reaching its target completes the loop without a promise; the prompt shows last, best and target", async () => {
    const p = t.project();
    p.writeState(
      `---\nmax_iterations: 6\ncompletion_promise: NEVER SAID\n${counting("n * 10")}\nmetric_target: ">= 30"\n---\nRaise the score.\n`,
    );
    const { sent, told } = await run(p, [text("first try"), text("second try"), text("third try"), text("never")]);
    expect(sent).toHaveLength(3);
    const metricLine = sent[1]?.split("\n").find((line) => line.startsWith("Metric ("));
    expect(metricLine).toBe(
      `Metric (\`n=$(($(cat n 2>/dev/null || echo 0) + 1)); echo $n > n; echo $((n * 10))\`, higher is better): last 10 · best 10 at iteration 1 · target >= 30. Reaching the target completes the loop; until then the completion phrase is refused.`,
    );
    expect(sent[2]).toContain(LOOP_MARKER);
    expect(sent[2]).toContain("Metric 20 (best 20 at 2, target >= 30).");
    console.log(`[${version}] continuation prompt: ${metricLine}\n[${version}] reminder: ${sent[2]?.trim()}`);
    expect(told).toContain("completed (the metric reached its target)");
    expect(told).toContain("Best metric 30 at iteration 3 (target >= 30)");
    expect(p.history().map((r) => r.metric)).toEqual([10, 20, 30]);
    expect(p.history().at(-1)).toMatchObject({ decision: "end", reason: "completed", iteration: 3 });
    expect(p.history().at(-1)?.promise).toBeUndefined();
  });

  it("/loop-status shows the metric and every stop's value as a sparkline, the best marked", async () => {
    const p = t.project();
    p.writeState(`---\nmax_iterations: 6\n${counting("(n * 37) % 10")}\n---\nTune the cache.\n`);
    const sessionId = randomUUID();
    await run(p, [text("a"), text("b"), text("c <loop-pause>Which cache size next?</loop-pause>"), text("never")], {
      sessionId,
    });
    expect(p.history().map((r) => r.metric)).toEqual([7, 4, 1]);
    const server = await t.server([text("never")]);
    const status = await runClaude({
      version,
      prompt: "/continuation-loop:loop-status",
      baseUrl: server.url,
      cwd: p.proj,
      home: p.home,
      pluginDirs: [PLUGIN_DIR],
      resume: sessionId,
    });
    expect(status.code, describeRun(status)).toBe(0);
    expect(server.mainRequests).toHaveLength(0);
    const shown = String(status.result?.result);
    const lines = shown.split("\n").filter((line) => /^\s+metric/.test(line));
    // One row of at most 128 columns: the command, every stop's value as a sparkline with the best in
    // [ ], then the figures as far as they fit (a long command leaves room for the last value only).
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^ {2}metric: `n=.*` \[█\]▅▁ \(higher is better\): last 1 /);
    expect(lines[0]!.length).toBeLessThanOrEqual(128);
    console.log(`[${version}] /loop-status:\n${lines.join("\n")}`);
  });

  it("a flat metric ends the loop as no_improvement", async () => {
    const p = t.project();
    p.writeState(
      `---\nmax_iterations: 8\nmetric: "echo coverage 71.5%"\nmax_no_improvement: 2\nstall_limit: 0\n---\nRaise coverage.\n`,
    );
    const { sent, told } = await run(p, [text("one"), text("two"), text("three"), text("never")]);
    expect(sent).toHaveLength(3);
    expect(told).toContain("no_improvement");
    expect(told).toContain("Best metric 71.5 at iteration 1");
    expect(p.history().at(-1)).toMatchObject({ decision: "end", reason: "no_improvement", iteration: 3 });
  });

  it("a lower-is-better target (<=) works", async () => {
    const p = t.project();
    p.writeState(
      `---\nmax_iterations: 6\n${counting("100 - n * 7")}\nmetric_target: "<= 86"\n---\nCut the bundle size.\n`,
    );
    const { sent } = await run(p, [text("smaller"), text("smaller still"), text("never")]);
    expect(sent).toHaveLength(2);
    expect(sent[1]).toContain("lower is better): last 93 · best 93 at iteration 1 · target <= 86.");
    expect(p.history().at(-1)).toMatchObject({ decision: "end", reason: "completed", iteration: 2, metric: 86 });
  });

  it("a write outside scope pauses the loop naming the file; /loop-resume goes on", async () => {
    const p = t.project();
    const git = (...args: string[]) =>
      execFileSync("git", ["-c", "user.name=t", "-c", "user.email=t@t", ...args], { cwd: p.proj });
    fs.mkdirSync(path.join(p.proj, "src"));
    fs.writeFileSync(path.join(p.proj, "src", "parser.ts"), "v0\n");
    fs.writeFileSync(path.join(p.proj, ".gitignore"), ".claude/\n");
    git("init", "-q");
    git("add", ".");
    git("commit", "-qm", "base");
    p.writeState("---\nmax_iterations: 3\nscope: src\n---\nFix the parser.\n");
    const write = (file: string) => toolUse("Write", { file_path: path.join(p.proj, file), content: "changed\n" });
    const sessionId = randomUUID();
    const first = await run(
      p,
      (_req, index) =>
        [write("src/parser.ts"), text("parser fixed"), write("docs/notes.md"), text("notes written")][index] ??
        text("never"),
      { allowedTools: ["Write"], sessionId },
    );
    expect(first.sent).toHaveLength(4);
    expect(first.told).toContain(
      "loop paused at iteration 2/3 (scope): 1 file(s) changed outside scope (src): docs/notes.md",
    );
    expect(p.readState()).toContain("active: false");
    expect(p.history().at(-1)).toMatchObject({ decision: "pause", reason: "scope", iteration: 2 });

    const resumed = await run(p, [text("back at it"), text("done for now"), text("never")], {
      prompt: "/continuation-loop:loop-resume",
      resume: sessionId,
    });
    expect(resumed.sent).toHaveLength(2);
    expect(resumed.sent[1]).toContain(LOOP_MARKER);
    expect(p.history().at(-1)).toMatchObject({ decision: "end", reason: "max_iterations", iteration: 3 });
  });
});
