// Going on after an API error through the real CLI (docs/REFERENCE.md "Going on after an API error"). A session that stays up
// between turns (stream-json input, as an interactive one): on 2.1.331 a scripted rate limit or overload
// that ends a turn is followed, after the (shortened) wait, by the module's prompt and the loop goes on;
// /loop-stop (or `continuation-loop pause`) during the wait cancels it; max_api_failures errors in a row pause
// the loop. On 2.1.197 the module does not run: the error is recorded and the loop waits for a person.
import { spawnSync } from "node:child_process";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { apiError, type Script, text } from "./support/messagesServer.js";
import { lastUserText } from "./support/requestText.js";
import type { LiveSession } from "./support/liveSession.js";
import { LOOP_MARKER, PLUGIN_DIR, type LoopProject, trustProject } from "./support/loopProject.js";
import { type ClaudeVersion, NEWEST, OLDEST } from "./support/runClaude.js";
import { perTest } from "./support/perTest.js";

const GOAL = "Write the release summary in NOTES.md.";
/** 1 minute becomes 48–60 ms × 50 = 2.4–3 s; Claude Code itself does not retry (README in support/). */
const ENV = { CONTINUATION_LOOP_WAIT_SCALE: "0.05", CLAUDE_CODE_MAX_RETRIES: "0" };

const t = perTest();
/** The running loop's session: `moduleLines` and the tests' prompts read it. */
let session: LiveSession | undefined;

async function until(what: string, check: () => boolean, ms = 30_000): Promise<void> {
  const end = Date.now() + ms;
  while (!check()) {
    // The module's own lines say how far it got.
    if (Date.now() > end)
      throw new Error(`timed out waiting for ${what}; the module said: ${moduleLines().join(" | ")}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

async function startLoop(version: ClaudeVersion, state: string, script: Script, env: Record<string, string> = ENV) {
  const p = t.project();
  trustProject(p);
  p.writeState(state);
  const s = await t.server(script);
  session = t.session({ version, baseUrl: s.url, cwd: p.proj, home: p.home, pluginDirs: [PLUGIN_DIR], env }, "start");
  return { p, s };
}

const decisions = (p: LoopProject) => p.history().map((r) => `${r.decision}:${r.reason}`);

/** The module's lines to the person (`$.ui.log`), which stream-json carries as `system/ui_log` events. */
const moduleLines = () =>
  (session?.events ?? [])
    .filter((e) => e.type === "system" && e.subtype === "ui_log" && e.plugin === "continuation-loop")
    .map((e) => String(e.text));
/** The line the module writes as it arms the wait's timer (resume.ts `followDecision`). */
const WAIT_LINE = /ended the turn; .* goes on by itself at /;
const told = (line: RegExp) => moduleLines().some((l) => line.test(l));

describe(`Claude Code ${NEWEST.name}: the loop goes on by itself after an API error`, () => {
  it("a rate limit ends a turn; after the wait the module's prompt takes the loop up again, to its end", async () => {
    const state = `---\nmax_iterations: 5\ncompletion_promise: DONE\n---\n\n${GOAL}\n`;
    const { p, s } = await startLoop(NEWEST, state, [
      text("working 1"),
      apiError(429),
      text("working 2"),
      text("Summary written. DONE"),
    ]);
    await until("the loop's end", () => p.history().some((r) => r.decision === "end"));
    expect(decisions(p)).toEqual([
      "continue:continue",
      "api_error:rate_limit",
      "wait:rate_limit",
      "resume:api_wait",
      "continue:continue",
      "end:completed",
    ]);
    const history = p.history();
    const wait = history[2] as { until: string; wait_s: number; basis: string; iteration: number };
    expect(wait).toMatchObject({ basis: "backoff", iteration: 2, failures: 1 });
    expect(wait.wait_s).toBeGreaterThanOrEqual(2.4);
    expect(wait.wait_s).toBeLessThanOrEqual(3);
    // The loop went on no sooner than the wait said, and the error turn was not an iteration.
    expect(Date.parse(String(history[3]?.time))).toBeGreaterThanOrEqual(Date.parse(wait.until));
    expect(history.map((r) => r.iteration)).toEqual([1, 2, 2, 2, 2, 3]);
    const main = s.mainRequests;
    expect(main).toHaveLength(4);
    const resume = lastUserText(main[2] as (typeof main)[number]);
    expect(resume).toContain(LOOP_MARKER);
    expect(resume).toContain("The wait after an API error is over");
    expect(resume).toContain(GOAL);
    expect(resume).toContain('"DONE"');
  });

  it("/loop-stop during the wait cancels it: no request follows", async () => {
    const state = `---\nmax_iterations: 5\n---\n\n${GOAL}\n`;
    const { p, s } = await startLoop(NEWEST, state, [text("working 1"), apiError(529), text("never sent")]);
    // The module has armed its wait (its line says so): a stop before that leaves it no wait to cancel.
    await until("the wait", () => p.history().some((r) => r.decision === "wait") && told(WAIT_LINE));
    // An overload (529): `overloaded`, or `server_error` as 2.1.331 names one that outlasted its retries.
    const kind = String(p.history().at(-1)?.reason);
    expect(["overloaded", "server_error"]).toContain(kind);
    session?.send("/continuation-loop:loop-stop");
    await until("the stop", () => p.history().some((r) => r.reason === "stopped"));
    // The module's word on its wait: a wait ends either in the resume prompt or in this one line, after
    // which the module holds no wait and no timer (its once-a-second check or the timer itself saw the stop).
    const stopped = /cancelled: the loop was stopped/;
    await until("the wait's cancellation", () => told(stopped) || s.mainRequests.length > 2);
    expect(s.mainRequests).toHaveLength(2);
    expect(told(stopped)).toBe(true);
    expect(decisions(p)).toEqual(["continue:continue", `api_error:${kind}`, `wait:${kind}`, "end:stopped"]);
    expect(p.readState()).toBeUndefined();
  });

  it("continuation-loop pause from a terminal during the wait cancels it: the loop stays paused", async () => {
    const state = `---\nmax_iterations: 5\n---\n\n${GOAL}\n`;
    const { p, s } = await startLoop(NEWEST, state, [text("working 1"), apiError(429), text("never sent")]);
    // The module has armed its wait (its line says so): a pause from a terminal before that, which nothing
    // orders after the module's read of the loop, leaves it no wait to cancel, and the loop paused all the same.
    await until("the wait", () => p.history().some((r) => r.decision === "wait") && told(WAIT_LINE));
    const cli = spawnSync(process.execPath, [path.join(PLUGIN_DIR, "hooks", "cli.js"), "pause"], {
      cwd: p.proj,
      env: { PATH: process.env.PATH ?? "", HOME: p.home, CLAUDE_PROJECT_DIR: p.proj },
      encoding: "utf8",
    });
    expect(cli.status, cli.stderr).toBe(0);
    // As for /loop-stop: the module's line that the wait is cancelled, after which it holds no timer.
    const paused = /cancelled: the loop was paused/;
    await until("the wait's cancellation", () => told(paused) || s.mainRequests.length > 2);
    expect(s.mainRequests).toHaveLength(2);
    expect(told(paused)).toBe(true);
    expect(decisions(p)).toEqual(["continue:continue", "api_error:rate_limit", "wait:rate_limit", "pause:paused"]);
    expect(p.readState()).toMatch(/^active: false$/m);
  });

  it("a wait that would end past max_duration ends the loop at once instead", async () => {
    // Waits not shortened: the first one (48–60 s) passes the loop's 30 s.
    const state = `---\nmax_iterations: 5\nmax_duration: 30s\n---\n\n${GOAL}\n`;
    const { p, s } = await startLoop(NEWEST, state, [text("working 1"), apiError(429), text("never sent")], {
      CLAUDE_CODE_MAX_RETRIES: "0",
    });
    await until("the loop's end", () => p.history().some((r) => r.decision === "end"));
    expect(decisions(p)).toEqual(["continue:continue", "api_error:rate_limit", "end:max_duration"]);
    expect(p.history().at(-1)?.goal).toContain(GOAL);
    expect(p.readState()).toBeUndefined();
    // The module's word on the command hook's decision: this line instead of a wait, and no timer armed.
    const ended = /ended: .*max_duration/;
    await until("the module's word on the end", () => told(ended) || s.mainRequests.length > 2);
    expect(told(ended)).toBe(true);
    expect(moduleLines().filter((l) => WAIT_LINE.test(l))).toEqual([]);
    expect(s.mainRequests).toHaveLength(2);
  });

  it("max_api_failures errors in a row pause the loop for the user, with the reason", async () => {
    const state = `---\nmax_iterations: 5\nmax_api_failures: 2\n---\n\n${GOAL}\n`;
    const { p, s } = await startLoop(NEWEST, state, [
      text("working 1"),
      apiError(429),
      apiError(529),
      text("never sent"),
    ]);
    await until("the pause", () => p.history().some((r) => r.decision === "pause"));
    const kind = String(p.history().at(-2)?.reason);
    expect(["overloaded", "server_error"]).toContain(kind);
    expect(decisions(p)).toEqual([
      "continue:continue",
      "api_error:rate_limit",
      "wait:rate_limit",
      "resume:api_wait",
      `api_error:${kind}`,
      "pause:api_errors",
    ]);
    expect(p.readState()).toMatch(/^active: false$/m);
    // Paused: nothing goes on by itself. The module's word on the pause comes instead of a wait: the one
    // wait it armed is the first error's, which it has already resumed.
    const paused = /paused: .*max_api_failures/;
    await until("the module's word on the pause", () => told(paused) || s.mainRequests.length > 3);
    expect(told(paused)).toBe(true);
    expect(moduleLines().filter((l) => WAIT_LINE.test(l))).toHaveLength(1);
    expect(s.mainRequests).toHaveLength(3);
  });
});

describe(`Claude Code ${OLDEST.name}: no module, the loop waits for a person after an API error`, () => {
  it("records the error, sends nothing by itself, and goes on with the person's next prompt", async () => {
    const state = `---\nmax_iterations: 5\ncompletion_promise: DONE\n---\n\n${GOAL}\n`;
    const { p, s } = await startLoop(OLDEST, state, [
      text("working 1"),
      apiError(429),
      text("working 2"),
      text("Summary written. DONE"),
    ]);
    await until("the error", () => p.history().some((r) => r.decision === "api_error"));
    expect(s.mainRequests).toHaveLength(2);
    expect(decisions(p)).toEqual(["continue:continue", "api_error:rate_limit"]);
    session?.send("Please go on.");
    await until("the loop's end", () => p.history().some((r) => r.decision === "end"));
    expect(decisions(p)).toEqual(["continue:continue", "api_error:rate_limit", "continue:continue", "end:completed"]);
    // Nothing went on by itself: the request after the error's ends with the person's prompt, not a
    // continuation (2.1.197 sends it in one user message after the failed turn's Stop feedback).
    const main = s.mainRequests;
    expect(main).toHaveLength(4);
    expect(lastUserText(main[2] as (typeof main)[number])).toMatch(/(^|\n)Please go on\.$/);
  });
});
