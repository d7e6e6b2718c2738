// The module's side of going on after an API error (src/module/resume.ts), against a stand-in for Claude
// Code's `$`: the command hook's decision is followed, the wait is kept and shown, and the prompt goes
// only to a loop that still runs and still waits; a stop, a pause or a person's prompt cancels it.
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { composeLoopView } from "../../src/core/composeLoopView.js";
import { renderLoopPaths } from "../../src/core/loopFileNames.js";
import { renderLoopView } from "../../src/core/loopView.js";
import { API_RESUME_OPENING } from "../../src/core/protocol.js";
import type { Engine } from "../../src/module/engine.js";
import { memoryFs } from "../support/memoryFs.js";
import { cancelWait, checkWait, onStopFailure, renderWaitPart } from "../../src/module/resume.js";
import { mod } from "../../src/module/state.js";

const ROOT = "/p";
const STATE = `${ROOT}/.claude/continuation-loop.local.md`;
const SIDECAR = `${ROOT}/.claude/continuation-loop.runtime.json`;
const STARTED = "2026-11-24T01:00:00.000Z";
const state = (active = true) =>
  `---\nactive: ${active}\niteration_count: 2\nmax_iterations: 10\nsession_id: s1\nstarted_at: "${STARTED}"\n---\n\nWrite the summary.\n`;
const sidecar = (extra: Record<string, unknown>) =>
  JSON.stringify({ loop: { started_at: STARTED, session_id: "s1" }, api_errors_since_stop: 1, ...extra });

let files: Map<string, string>;
let env: Map<string, string>;
let timers: { at: number; fn: () => unknown; cancelled: boolean }[];
let sent: string[];
let logs: string[];
let toasts: string[];
let notes: string[];

/** `continuation-loop view --name NAME` on the files in memory: the helper's own parse, exit 1 when it cannot. */
function runViewHelper(argv: readonly string[]) {
  const name = argv[argv.indexOf("--name") + 1] ?? "default";
  const paths = renderLoopPaths(`${ROOT}/.claude/`, name);
  const text = files.get(paths.statePath);
  try {
    if (text === undefined) throw new Error("no such loop file");
    const view = composeLoopView(name, name, text, files.get(paths.sidecarPath), () => {
      throw new Error("no checklist");
    });
    return { exitCode: 0, stdout: renderLoopView(view), stderr: "" };
  } catch (error) {
    return { exitCode: 1, stdout: "", stderr: String(error) };
  }
}

const $ = {
  plugin: { root: "/plugin" },
  process: { run: async (argv: readonly string[]) => runViewHelper(argv) },
  env: {
    get: async (name: string) => env.get(name),
    set: async (name: string, value: string | undefined) =>
      value === undefined ? env.delete(name) : env.set(name, value),
  },
  fs: memoryFs(() => files),
  prompt: {
    submit: async ({ text }: { text: string }) => {
      sent.push(text);
    },
  },
  session: {
    id: async () => "s1",
    usage: async () => ({ rateLimits: [] }),
    version: async () => ({ version: "2.1.331" }),
  },
  clock: {
    after: (ms: number, fn: () => unknown) => {
      const timer = { at: Date.now() + ms, fn, cancelled: false };
      timers.push(timer);
      return { cancel: () => (timer.cancelled = true) };
    },
    every: () => undefined,
  },
  ui: {
    toast: (text: string) => toasts.push(text),
    notify: async (text: string) => {
      notes.push(text);
      return { isSent: true, channel: "terminal_bell" };
    },
    log: (text: string) => logs.push(text),
    invalidate: () => undefined,
    resolve: () => ({ Box: "Box", Text: "Text" }),
  },
} as unknown as Engine;

/** Moves the clock on and runs the timers that fell due. */
async function advance(ms: number): Promise<void> {
  vi.setSystemTime(Date.now() + ms);
  for (const timer of timers.filter((t) => !t.cancelled && t.at <= Date.now())) {
    timer.cancelled = true;
    await timer.fn();
  }
  for (let i = 0; i < 10; i++) await Promise.resolve();
}

/** A StopFailure whose command hook (beneath) decides as `decide` says; returns what the hook saw. */
async function failTurn(decide: () => void): Promise<{ resume: string | undefined }> {
  const seen: { resume: string | undefined } = { resume: undefined };
  await onStopFailure($, { session_id: "s1", error: "rate_limit" }, async () => {
    seen.resume = env.get("CONTINUATION_LOOP_RESUME");
    decide();
    return {};
  });
  return seen;
}

beforeEach(() => {
  vi.useFakeTimers({ toFake: ["Date"] });
  vi.setSystemTime(Date.parse("2026-11-24T02:00:00Z"));
  files = new Map([
    [STATE, state()],
    [SIDECAR, sidecar({})],
  ]);
  env = new Map();
  timers = [];
  sent = [];
  logs = [];
  toasts = [];
  notes = [];
  Object.assign(mod, { ready: true, root: ROOT, view: undefined, lastRead: 0, deferred: false });
});

afterEach(() => {
  cancelWait($);
  vi.useRealTimers();
});

const waitUntil = (ms: number) => new Date(Date.now() + ms).toISOString();

describe("the module after an API error", () => {
  it("tells the command hook it will go on (for that event only), keeps the wait, shows it, then sends the prompt once", async () => {
    const until = waitUntil(90_000);
    const seen = await failTurn(() => files.set(SIDECAR, sidecar({ api_wait_until: until })));
    expect(seen.resume).toBe("1");
    expect(env.has("CONTINUATION_LOOP_RESUME")).toBe(false);
    expect(logs.at(-1)).toMatch(
      /an API error \(rate_limit\) ended the turn; .* goes on by itself at 02:01:30 UTC \(in 1m 30s;/,
    );
    expect(renderWaitPart(Date.now())).toBe("waits for the rate or usage limit until 02:01:30 UTC (1m 30s)");
    await advance(89_000);
    expect(sent).toEqual([]);
    await advance(1000);
    expect(sent).toHaveLength(1);
    expect(sent[0]?.startsWith(API_RESUME_OPENING)).toBe(true);
    expect(sent[0]).toContain("iteration 2/10");
    expect(sent[0]).toContain("Write the summary.");
    expect(renderWaitPart(Date.now())).toBeUndefined();
    await advance(600_000);
    expect(sent).toHaveLength(1);
  });

  it("a loop stopped during the wait is never taken up", async () => {
    await failTurn(() => files.set(SIDECAR, sidecar({ api_wait_until: waitUntil(60_000) })));
    files.delete(STATE);
    files.delete(SIDECAR);
    mod.lastRead = 0;
    // The once-a-second tick reads the files, then sees the loop gone.
    const { refreshView } = await import("../../src/module/view.js");
    await refreshView($, true);
    checkWait($);
    expect(logs.at(-1)).toMatch(/cancelled: the loop was stopped/);
    await advance(120_000);
    expect(sent).toEqual([]);
  });

  it("a loop paused just before the wait ends is never taken up, even before a tick saw it", async () => {
    await failTurn(() => files.set(SIDECAR, sidecar({ api_wait_until: waitUntil(60_000) })));
    files.set(STATE, state(false));
    await advance(60_000);
    expect(sent).toEqual([]);
    expect(logs.at(-1)).toMatch(/cancelled: the loop was paused/);
  });

  it("a person's prompt during the wait goes on at once: the wait is dropped", async () => {
    await failTurn(() => files.set(SIDECAR, sidecar({ api_wait_until: waitUntil(60_000) })));
    cancelWait($, "a prompt went on first");
    await advance(120_000);
    expect(sent).toEqual([]);
  });

  it("follows a pause for errors in a row: one line and a toast, no wait", async () => {
    const reason = "5 API errors in a row (the last: rate_limit); max_api_failures is 5";
    await failTurn(() => {
      files.set(STATE, state(false));
      files.set(SIDECAR, sidecar({ pause: { reason: "api_errors", text: reason, since: "2026-01-01T00:00:00Z" } }));
    });
    expect(logs.at(-1)).toBe(`loop paused: ${reason}. /loop-resume (or active: true) resumes it.`);
    expect(toasts).toHaveLength(1);
    // `notify: true` (the default): the person's terminal notification too.
    expect(notes).toEqual(["continuation-loop: loop paused after API errors in a row"]);
    expect(renderWaitPart(Date.now())).toBeUndefined();
    await advance(3_600_000);
    expect(sent).toEqual([]);
  });

  it("follows the loop's end when the wait would pass max_duration: one line, the toast, the notification", async () => {
    const { refreshView } = await import("../../src/module/view.js");
    await refreshView($, true);
    const history = `${ROOT}/.claude/continuation-loop.history.jsonl`;
    await failTurn(() => {
      files.delete(STATE);
      files.delete(SIDECAR);
      files.set(history, `${JSON.stringify({ decision: "end", reason: "max_duration" })}\n`);
    });
    expect(logs.at(-1)).toBe("the loop ended: waiting for the API would pass its max_duration.");
    expect(toasts).toEqual(["continuation-loop: loop max_duration"]);
    expect(notes).toEqual(["continuation-loop: loop ended (max_duration) after an API error"]);
    await advance(3_600_000);
    expect(sent).toEqual([]);
  });

  it("tells that end even when the error came before the module had read the loop", async () => {
    await failTurn(() => {
      files.delete(STATE);
      files.delete(SIDECAR);
    });
    expect(logs.at(-1)).toBe("the loop ended: waiting for the API would pass its max_duration.");
    expect(notes).toEqual(["continuation-loop: loop ended (max_duration) after an API error"]);
    expect(timers.filter((t) => !t.cancelled)).toHaveLength(0);
  });

  it("an error the command hook does not wait for leaves everything to the person", async () => {
    await failTurn(() => undefined);
    expect(logs).toEqual([]);
    expect(timers.filter((t) => !t.cancelled)).toHaveLength(0);
  });
});
