// Going on after an API error, through the bundled hooks (docs/REFERENCE.md "Going on after an API error"): the StopFailure hook
// decides the wait the companion module keeps (the module says it runs in CONTINUATION_LOOP_RESUME), pauses
// after max_api_failures in a row, ends a loop whose wait would pass max_duration; the module's resume
// prompt is recorded, and refused once the loop was stopped or paused. Without the module: as before.
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { API_RESUME_OPENING } from "../../src/core/protocol.js";
import { digestOf, readSidecarView } from "../../src/core/sidecar.js";
import { makeProject, readHistory as history, runHook } from "../support/runHook.js";

const MODULE = { CONTINUATION_LOOP_RESUME: "1", CONTINUATION_LOOP_WAIT_SCALE: "0.001" };
const stop = (root: string, reply = "working") =>
  runHook("stop", { session_id: "s1", cwd: root, hook_event_name: "Stop", last_assistant_message: reply });
const failure = (root: string, error: string, env: Record<string, string> = MODULE) =>
  runHook("session", { cwd: root, hook_event_name: "StopFailure", session_id: "s1", error }, { env });
const prompt = (root: string, text: string) =>
  runHook("prompt", { session_id: "s1", cwd: root, hook_event_name: "UserPromptSubmit", prompt: text });
const cli = (root: string, ...args: string[]) =>
  runHook("cli", "", { cwd: root, args, env: { CLAUDE_PROJECT_DIR: root } });
const sidecar = (root: string) =>
  JSON.parse(readFileSync(join(root, ".claude", "continuation-loop.runtime.json"), "utf8")) as Record<string, unknown>;
/** The view the sidecar holds, checked to be of the state file as it is now. */
function viewOf(root: string) {
  const read = readSidecarView(readFileSync(join(root, ".claude", "continuation-loop.runtime.json"), "utf8"));
  expect(read?.digest).toBe(digestOf(readFileSync(join(root, ".claude", "continuation-loop.local.md"), "utf8")));
  return read?.view;
}
const RESUME = `${API_RESUME_OPENING} (rate_limit). Continuation loop: iteration 2/10.`;

describe("after an API error, where the module runs", () => {
  it("records the error and a wait that grows with each error in a row; a normal turn starts the count again", () => {
    const { root, historyPath } = makeProject("---\nmax_iterations: 10\n---\nGoal\n");
    expect(stop(root).code).toBe(2);
    const before = Date.now();
    expect(failure(root, "rate_limit")).toMatchObject({ code: 0, stdout: "" });
    const [error, wait] = history(historyPath).slice(-2);
    expect(error).toMatchObject({ decision: "api_error", reason: "rate_limit", iteration: 2 });
    expect(wait).toMatchObject({ decision: "wait", reason: "rate_limit", iteration: 2, basis: "backoff", failures: 1 });
    // 1 minute, 80–100 % of it, shortened 1000 times by the test's scale.
    expect(wait?.wait_s).toBeGreaterThanOrEqual(0.04);
    expect(wait?.wait_s).toBeLessThanOrEqual(0.07);
    const until = Date.parse(String(wait?.until));
    expect(until - before).toBeGreaterThanOrEqual(40);
    expect(sidecar(root)).toMatchObject({ api_errors_since_stop: 1, api_wait_until: wait?.until });
    // The sidecar's view is of the state file as it is, so the companion module arms its wait without the helper.
    expect(viewOf(root)?.runtime.api_wait_until).toBe(wait?.until);
    // Error 2 in a row: twice as long.
    expect(failure(root, "overloaded").code).toBe(0);
    expect(history(historyPath).at(-1)).toMatchObject({ decision: "wait", reason: "overloaded", failures: 2 });
    expect(Number(history(historyPath).at(-1)?.wait_s)).toBeGreaterThanOrEqual(0.09);
    // /loop-status says when the loop goes on.
    expect(String(prompt(root, "/loop-status").json?.reason)).toMatch(
      /last API error: overloaded at \d\d:\d\d:\d\d UTC; the loop goes on by itself at \d\d:\d\d:\d\d UTC \(in /,
    );
    // The module's prompt after the wait: recorded as the loop's resume, not a person's prompt (nothing added).
    expect(prompt(root, RESUME)).toMatchObject({ code: 0, stdout: "" });
    expect(history(historyPath).at(-1)).toMatchObject({ decision: "resume", reason: "api_wait", iteration: 2 });
    expect(sidecar(root)).toMatchObject({ api_wait_until: "" });
    // The error turns were not iterations: the resumed turn's Stop counts iteration 2 → 3, and resets the count.
    const next = stop(root, "more");
    expect(next.code).toBe(2);
    expect(next.stderr).toContain("3/10");
    expect(sidecar(root)).toMatchObject({ api_errors_since_stop: 0, api_wait_until: "" });
    expect(failure(root, "rate_limit").code).toBe(0);
    expect(history(historyPath).at(-1)).toMatchObject({ decision: "wait", failures: 1 });
  });

  it("waits for Claude Code's reset time plus a margin when the module hands one", () => {
    const { root, historyPath } = makeProject("---\nmax_iterations: 10\n---\nGoal\n");
    expect(stop(root).code).toBe(2);
    const resetsAt = new Date(Date.now() + 3_600_000).toISOString();
    expect(
      failure(root, "rate_limit", { CONTINUATION_LOOP_RESUME: "1", CONTINUATION_LOOP_RESETS_AT: resetsAt }).code,
    ).toBe(0);
    const wait = history(historyPath).at(-1);
    expect(wait).toMatchObject({ decision: "wait", basis: "reset" });
    const after = Date.parse(String(wait?.until)) - Date.parse(resetsAt);
    expect(after).toBeGreaterThanOrEqual(30_000);
    expect(after).toBeLessThanOrEqual(60_000);
  });

  it("pauses after max_api_failures in a row, with the reason and the bell; /loop-resume starts the count again", () => {
    const { root, statePath, historyPath } = makeProject("---\nmax_iterations: 10\nmax_api_failures: 2\n---\nGoal\n");
    expect(stop(root).code).toBe(2);
    // A wait rings nothing; the pause rings the terminal (`notify` on by default), as a Stop's pause does.
    const waited = failure(root, "rate_limit");
    expect(waited).toMatchObject({ code: 0, stdout: "" });
    const paused = failure(root, "rate_limit");
    expect(paused.code).toBe(0);
    expect(paused.json).toEqual({ terminalSequence: "\u0007" });
    expect(readFileSync(statePath, "utf8")).toMatch(/^active: false$/m);
    expect(history(historyPath).at(-1)).toMatchObject({ decision: "pause", reason: "api_errors", failures: 2 });
    expect((sidecar(root).pause as { text: string }).text).toMatch(/2 API errors in a row .*max_api_failures is 2/);
    expect(viewOf(root)).toMatchObject({ state: { active: false }, runtime: { pause: { reason: "api_errors" } } });
    expect(String(prompt(root, "/loop-status").json?.reason)).toMatch(/paused: 2 API errors in a row/);
    // A paused loop is never taken up by the module's prompt.
    const refused = prompt(root, RESUME);
    expect(refused.json).toMatchObject({ decision: "block" });
    expect(history(historyPath).at(-1)).toMatchObject({ decision: "pause" });
    // Resumed by the user: the next error waits again instead of pausing at once.
    expect(cli(root, "resume").code).toBe(0);
    expect(sidecar(root)).toMatchObject({ api_errors_since_stop: 0, pause: null });
    expect(failure(root, "overloaded").code).toBe(0);
    expect(history(historyPath).at(-1)).toMatchObject({ decision: "wait", failures: 1 });
  });

  it("rings nothing at a pause with notify: false", () => {
    const { root, statePath } = makeProject("---\nmax_iterations: 10\nmax_api_failures: 1\nnotify: false\n---\nGoal\n");
    expect(stop(root).code).toBe(2);
    expect(failure(root, "rate_limit")).toMatchObject({ code: 0, stdout: "" });
    expect(readFileSync(statePath, "utf8")).toMatch(/^active: false$/m);
  });

  it("ends the loop when the wait would pass max_duration; the history keeps the goal and the spend", () => {
    const started = new Date(Date.now() - 59.5 * 60_000).toISOString();
    const { root, statePath, historyPath } = makeProject(
      `---\nmax_iterations: 10\nmax_duration: 1h\nsession_id: s1\nstarted_at: ${started}\n---\nShip it\n`,
    );
    // One iteration whose spend the module handed over: 0.25 USD.
    const costs = {
      CONTINUATION_LOOP_MODULE_LIVE: "2.1.331",
      CONTINUATION_LOOP_TURN_COST_USD: "0",
      CONTINUATION_LOOP_COST_USD: "0.25",
    };
    const input = { session_id: "s1", cwd: root, hook_event_name: "Stop", last_assistant_message: "working" };
    expect(runHook("stop", input, { env: costs }).code).toBe(2);
    const ended = failure(root, "rate_limit", { CONTINUATION_LOOP_RESUME: "1" });
    expect(ended.code).toBe(0);
    expect(ended.json).toEqual({ terminalSequence: "\u0007" });
    expect(existsSync(statePath)).toBe(false);
    expect(history(historyPath).at(-1)).toMatchObject({
      decision: "end",
      reason: "max_duration",
      goal: "Ship it\n",
      cost_usd: 0.25,
    });
  });

  it("a stopped loop is never taken up by the module's prompt", () => {
    const { root, historyPath } = makeProject("---\nmax_iterations: 10\n---\nGoal\n");
    expect(stop(root).code).toBe(2);
    expect(failure(root, "rate_limit").code).toBe(0);
    expect(prompt(root, "/loop-stop").code).toBe(0);
    expect(prompt(root, RESUME).json).toMatchObject({ decision: "block" });
    expect(history(historyPath).at(-1)).toMatchObject({ decision: "end", reason: "stopped" });
  });

  it("other errors are only recorded: they do not clear by themselves", () => {
    const { root, historyPath } = makeProject("---\nmax_iterations: 10\nmax_api_failures: 1\n---\nGoal\n");
    expect(stop(root).code).toBe(2);
    expect(failure(root, "invalid_request").code).toBe(0);
    expect(history(historyPath).at(-1)).toMatchObject({ decision: "api_error", reason: "invalid_request" });
    expect(sidecar(root)).toMatchObject({ api_wait_until: "", pause: null });
  });
});

describe("after an API error, without the module", () => {
  it("records it and waits for a person, as before: no wait, and no pause even past max_api_failures", () => {
    const { root, statePath, historyPath } = makeProject("---\nmax_iterations: 10\nmax_api_failures: 2\n---\nGoal\n");
    expect(stop(root).code).toBe(2);
    for (let i = 0; i < 3; i++) expect(failure(root, "rate_limit", {}).code).toBe(0);
    expect(history(historyPath).map((r) => r.decision)).toEqual(["continue", "api_error", "api_error", "api_error"]);
    expect(readFileSync(statePath, "utf8")).not.toMatch(/^active: false$/m);
    expect(sidecar(root)).toMatchObject({ api_errors_since_stop: 3, api_wait_until: "" });
  });
});
