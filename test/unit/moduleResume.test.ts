// The module's side of going on after an API error (src/module/resume.ts), against a stand-in for Claude
// Code's `$`: the command hook's decision is followed, the wait is kept and shown, and the prompt goes
// only to a loop that still runs and still waits; a stop, a pause or a person's prompt cancels it.
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { renderLoopPaths } from "../../src/core/loopFileNames.js";
import { API_RESUME_OPENING } from "../../src/core/protocol.js";
import type { Engine } from "../../src/module/engine.js";
import { renderSidecarFor } from "../support/loopSidecar.js";
import { memoryFs } from "../support/memoryFs.js";
type Resume = typeof import("../../src/module/resume.js");
type State = typeof import("../../src/module/state.js");
let resume: Resume;
let mod: State["mod"];

const ROOT = "/p";
const STATE = `${ROOT}/.claude/continuation-loop.local.md`;
const SIDECAR = `${ROOT}/.claude/continuation-loop.runtime.json`;
const STARTED = "2026-11-24T01:00:00.000Z";
const state = (active = true) =>
  `---\nactive: ${active}\niteration_count: 2\nmax_iterations: 10\nsession_id: s1\nstarted_at: "${STARTED}"\n---\n\nWrite the summary.\n`;
/** The sidecar the StopFailure hook saves with the state file's text (`text`). */
const sidecar = (extra: Record<string, unknown>, text = state()) =>
  renderSidecarFor(
    text,
    JSON.stringify({ loop: { started_at: STARTED, session_id: "s1" }, api_errors_since_stop: 1, ...extra }),
  );

let files: Map<string, string>;
let env: Map<string, string>;
let timers: { at: number; fn: () => unknown; cancelled: boolean }[];
let sent: string[];
let logs: string[];
let toasts: string[];
let notes: string[];
let held: boolean;
let release: () => void;
/** The loops `continuation-loop view` ran for. */
let helperRuns: string[];

/** `continuation-loop view --name NAME` on the files in memory: the sidecar for them, exit 1 when it cannot. */
function runViewHelper(argv: readonly string[]) {
  const name = argv[argv.indexOf("--name") + 1] ?? "default";
  helperRuns.push(name);
  const paths = renderLoopPaths(`${ROOT}/.claude/`, name);
  const text = files.get(paths.statePath);
  try {
    if (text === undefined) throw new Error("no such loop file");
    return { exitCode: 0, stdout: renderSidecarFor(text, files.get(paths.sidecarPath)), stderr: "" };
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
    submit: ({ text }: { text: string }) => {
      sent.push(text);
      // Claude Code holds a prompt while a dialog of its own is open: it resolves once the turn starts.
      return held ? new Promise<void>((resolve) => (release = resolve)) : Promise.resolve();
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
    // A prompt Claude Code holds never resolves: the run goes on once the timer's work has settled or waits.
    await Promise.race([timer.fn(), new Promise((resolve) => setTimeout(resolve, 50))]);
  }
  for (let i = 0; i < 10; i++) await Promise.resolve();
}

/** A StopFailure whose command hook (beneath) decides as `decide` says; returns what the hook saw. */
async function failTurn(decide: () => void): Promise<{ resume: string | undefined }> {
  const seen: { resume: string | undefined } = { resume: undefined };
  await resume.onStopFailure($, { session_id: "s1", error: "rate_limit" }, async () => {
    seen.resume = env.get("CONTINUATION_LOOP_RESUME");
    decide();
    return {};
  });
  return seen;
}

// Each test loads the module's files afresh: what an earlier test, or another file of the unit tests, which
// share one module graph (isolate: false), left in their memory (the helper's views by text, a wait) decides nothing.
beforeEach(async () => {
  vi.resetModules();
  resume = await import("../../src/module/resume.js");
  ({ mod } = await import("../../src/module/state.js"));
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
  held = false;
  release = () => undefined;
  helperRuns = [];
  Object.assign(mod, { ready: true, root: ROOT });
});

afterEach(() => {
  resume.cancelWait($);
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
    expect(resume.renderWaitPart(Date.now())).toBe("waits for the rate or usage limit until 02:01:30 UTC (1m 30s)");
    await advance(89_000);
    expect(sent).toEqual([]);
    await advance(1000);
    expect(sent).toHaveLength(1);
    expect(sent[0]?.startsWith(API_RESUME_OPENING)).toBe(true);
    expect(sent[0]).toContain("iteration 2/10");
    expect(sent[0]).toContain("Write the summary.");
    expect(resume.renderWaitPart(Date.now())).toBeUndefined();
    await advance(600_000);
    expect(sent).toHaveLength(1);
    // Every read found the sidecar saved with the state file as it was: no helper.
    expect(helperRuns).toEqual([]);
  });

  it("a machine that slept past the wait's time goes on at the first tick after it wakes, once", async () => {
    await failTurn(() => files.set(SIDECAR, sidecar({ api_wait_until: waitUntil(2 * 3_600_000) })));
    resume.checkWait($);
    await advance(0);
    expect(sent).toEqual([]);
    // Suspended overnight: the wall clock moved 7 hours, the timer (awake time only) has not fired.
    vi.setSystemTime(Date.now() + 7 * 3_600_000);
    resume.checkWait($);
    for (let i = 0; i < 20; i++) await Promise.resolve();
    expect(sent).toHaveLength(1);
    expect(sent[0]?.startsWith(API_RESUME_OPENING)).toBe(true);
    // Neither the next tick nor the late timer sends it again.
    resume.checkWait($);
    for (const timer of timers) if (!timer.cancelled) await timer.fn();
    await advance(3_600_000);
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
    resume.checkWait($);
    expect(logs.at(-1)).toMatch(/cancelled: the loop was stopped/);
    await advance(120_000);
    expect(sent).toEqual([]);
  });

  it("a loop paused just before the wait ends is never taken up, even before a tick saw it", async () => {
    await failTurn(() => files.set(SIDECAR, sidecar({ api_wait_until: waitUntil(60_000) })));
    // By hand: the sidecar's view is of the text before; the helper reads the file as it is.
    files.set(STATE, state(false));
    await advance(60_000);
    expect(sent).toEqual([]);
    expect(logs.at(-1)).toMatch(/cancelled: the loop was paused/);
    expect(helperRuns).toEqual(["default"]);
  });

  it("a state file broken by a hand edit during the wait stops nothing: fixed, the loop goes on", async () => {
    await failTurn(() => files.set(SIDECAR, sidecar({ api_wait_until: waitUntil(60_000) })));
    const told = logs.length;
    files.set(STATE, state().replace("max_iterations: 10", "max_iterations: ten"));
    const { refreshView } = await import("../../src/module/view.js");
    await refreshView($, true);
    resume.checkWait($);
    expect(mod.invalid).toBe("default");
    // Still broken when the wait is over: nothing is sent, nothing cancelled, no end told.
    await advance(60_000);
    await advance(1000);
    expect(sent).toEqual([]);
    expect(logs.slice(told)).toEqual([]);
    expect(toasts).toEqual([]);
    // Fixed: the loop goes on, once.
    files.set(STATE, state());
    await advance(1000);
    expect(sent).toHaveLength(1);
    expect(sent[0]?.startsWith(API_RESUME_OPENING)).toBe(true);
    await advance(60_000);
    expect(sent).toHaveLength(1);
  });

  it("an API error while the state file is broken tells no end", async () => {
    const { refreshView } = await import("../../src/module/view.js");
    await refreshView($, true);
    expect(mod.view).toBeDefined();
    // The command hook refuses the broken file and leaves it as it was.
    await failTurn(() => files.set(STATE, state().replace("active: true", "active: maybe")));
    expect(mod.invalid).toBe("default");
    expect(logs).toEqual([]);
    expect(toasts).toEqual([]);
    expect(notes).toEqual([]);
  });

  it("a person's prompt during the wait goes on at once: the wait is dropped", async () => {
    await failTurn(() => files.set(SIDECAR, sidecar({ api_wait_until: waitUntil(60_000) })));
    resume.cancelWait($, "a prompt went on first");
    await advance(120_000);
    expect(sent).toEqual([]);
  });

  it("follows a pause for errors in a row: one line and a toast, no wait", async () => {
    const reason = "5 API errors in a row (the last: rate_limit); max_api_failures is 5";
    await failTurn(() => {
      files.set(STATE, state(false));
      const pause = { reason: "api_errors", text: reason, since: "2026-01-01T00:00:00Z" };
      files.set(SIDECAR, sidecar({ pause }, state(false)));
    });
    expect(logs.at(-1)).toBe(`loop paused: ${reason}. /loop-resume (or active: true) resumes it.`);
    expect(toasts).toHaveLength(1);
    // The StopFailure hook rings the terminal (`notify`), as at any pause: no second notice from the module.
    expect(notes).toEqual([]);
    expect(helperRuns).toEqual([]);
    expect(resume.renderWaitPart(Date.now())).toBeUndefined();
    await advance(3_600_000);
    expect(sent).toEqual([]);
  });

  it("follows the loop's end when the wait would pass max_duration: one line and the toast (the hook rings)", async () => {
    const { refreshView } = await import("../../src/module/view.js");
    await refreshView($, true);
    const history = `${ROOT}/.claude/continuation-loop.history.jsonl`;
    await failTurn(() => {
      files.delete(STATE);
      files.delete(SIDECAR);
      files.set(
        history,
        `${JSON.stringify({ time: "2026-03-01T12:00:00.000Z", state_file: ".claude/continuation-loop.local.md", decision: "end", reason: "max_duration" })}\n`,
      );
    });
    expect(logs.at(-1)).toBe("the loop ended: waiting for the API would pass its max_duration.");
    expect(toasts).toEqual(["continuation-loop: loop max_duration"]);
    expect(notes).toEqual([]);
    await advance(3_600_000);
    expect(sent).toEqual([]);
  });

  it("tells that end even when the error came before the module had read the loop", async () => {
    await failTurn(() => {
      files.delete(STATE);
      files.delete(SIDECAR);
    });
    expect(logs.at(-1)).toBe("the loop ended: waiting for the API would pass its max_duration.");
    expect(notes).toEqual([]);
    expect(timers.filter((t) => !t.cancelled)).toHaveLength(0);
  });

  it("an error the command hook does not wait for leaves everything to the person", async () => {
    await failTurn(() => undefined);
    expect(logs).toEqual([]);
    expect(timers.filter((t) => !t.cancelled)).toHaveLength(0);
  });
});

/** A prompt entering the session, as Claude Code hands it to `prompt.submit` hooks; what passing it on returns. */
const enter = (kind: string) =>
  resume.onPromptEnter($, { origin: { kind } }, async () => ({ text: "entered", origin: { kind } }));

describe("the module beside Claude Code's own automatic continue after a usage limit", () => {
  it("after the module went on, Claude Code's continue (once the session is idle) is dropped, once, with the reason", async () => {
    await failTurn(() => files.set(SIDECAR, sidecar({ api_wait_until: waitUntil(60_000) })));
    await advance(60_000);
    expect(sent).toHaveLength(1);
    const dropped = await enter("auto-continuation");
    expect(dropped).toEqual({
      drop: expect.stringMatching(
        /^continuation-loop: the loop already went on after the usage limit \(02:01:00 UTC\)/,
      ),
    });
    // Only the one Claude Code armed for that limit: another goes in.
    expect(await enter("auto-continuation")).toEqual({ text: "entered", origin: { kind: "auto-continuation" } });
  });

  it("a person's prompt after the module went on cancels Claude Code's continue, so nothing is dropped after it", async () => {
    await failTurn(() => files.set(SIDECAR, sidecar({ api_wait_until: waitUntil(60_000) })));
    await advance(60_000);
    expect(await enter("composer")).toMatchObject({ text: "entered" });
    expect(await enter("auto-continuation")).toMatchObject({ text: "entered" });
  });

  it("Claude Code's continue coming first, during the wait, goes on, and the module's wait is dropped", async () => {
    await failTurn(() => files.set(SIDECAR, sidecar({ api_wait_until: waitUntil(60_000) })));
    expect(await enter("auto-continuation")).toMatchObject({ text: "entered" });
    expect(logs.at(-1)).toMatch(/cancelled: Claude Code's own automatic continue went first/);
    expect(resume.renderWaitPart(Date.now())).toBeUndefined();
    await advance(120_000);
    expect(sent).toEqual([]);
  });

  it("the module's own prompts and a loop's continuations pass untouched", async () => {
    await failTurn(() => files.set(SIDECAR, sidecar({ api_wait_until: waitUntil(60_000) })));
    await advance(60_000);
    expect(await enter("plugin")).toMatchObject({ text: "entered" });
    expect(await enter("task-notification")).toMatchObject({ text: "entered" });
    // The watch for Claude Code's continue is still on.
    expect(await enter("auto-continuation")).toHaveProperty("drop");
  });

  it("a resume prompt Claude Code holds (its usage-limit dialog open) is told after a few seconds, once", async () => {
    held = true;
    await failTurn(() => files.set(SIDECAR, sidecar({ api_wait_until: waitUntil(60_000) })));
    const before = logs.length;
    await advance(60_000);
    expect(sent).toHaveLength(1);
    await advance(4_000);
    expect(logs).toHaveLength(before);
    await advance(1_000);
    expect(logs.slice(before)).toEqual([expect.stringMatching(/Claude Code is not taking prompts yet/)]);
    expect(notes).toEqual(["continuation-loop: the loop waits for your answer to Claude Code's dialog"]);
    release();
    await advance(60_000);
    expect(sent).toHaveLength(1);
    expect(logs).toHaveLength(before + 1);
  });
});

describe("a wait only the loop's files hold (Claude Code started again during it)", () => {
  it("is kept again in this process, told in one line, and goes on once", async () => {
    const until = waitUntil(45_000);
    files.set(SIDECAR, sidecar({ api_wait_until: until, last_api_error: "rate_limit at 2026-11-24T01:59:00.000Z" }));
    const { refreshView } = await import("../../src/module/view.js");
    await refreshView($, true);
    resume.checkWait($);
    expect(logs.at(-1)).toMatch(
      /the loop was waiting after an API error \(rate_limit\) when Claude Code started again; it goes on by itself at 02:00:45 UTC \(in 45s\)/,
    );
    expect(resume.renderWaitPart(Date.now())).toBe("waits for the rate or usage limit until 02:00:45 UTC (45s)");
    resume.checkWait($);
    await advance(45_000);
    expect(sent).toHaveLength(1);
    expect(sent[0]?.startsWith(API_RESUME_OPENING)).toBe(true);
    // The prompt hook has not yet cleared the files' wait: the module does not keep it a second time.
    resume.checkWait($);
    await advance(60_000);
    expect(sent).toHaveLength(1);
  });

  it("after a clock set back past its start, is shown and kept for at most its own length", async () => {
    // The error came at 02:00 for a wait of 2 minutes; the clock was then set back an hour.
    files.set(
      SIDECAR,
      sidecar({ api_wait_until: "2026-11-24T02:02:00.000Z", last_api_error: "rate_limit at 2026-11-24T02:00:00.000Z" }),
    );
    vi.setSystemTime(Date.parse("2026-11-24T01:00:00Z"));
    const { refreshView } = await import("../../src/module/view.js");
    await refreshView($, true);
    resume.checkWait($);
    expect(logs.at(-1)).toMatch(/goes on by itself at 01:02:00 UTC \(in 2m\)/);
    expect(resume.renderWaitPart(Date.now())).toBe("waits for the rate or usage limit until 01:02:00 UTC (2m)");
    await advance(119_000);
    expect(sent).toEqual([]);
    await advance(1000);
    expect(sent).toHaveLength(1);
  });

  it("armed, then the clock set back an hour: the band says what is left of it, not an hour more", async () => {
    const until = waitUntil(120_000);
    await failTurn(() =>
      files.set(SIDECAR, sidecar({ api_wait_until: until, last_api_error: "rate_limit at 2026-11-24T02:00:00.000Z" })),
    );
    expect(resume.renderWaitPart(Date.now() - 3_600_000)).toMatch(/ \(2m\)$/);
    expect(resume.renderWaitPart(Date.now() + 300_000)).toMatch(/ \(0s\)$/);
  });

  it("is not kept for a paused loop, nor again once a prompt went on first", async () => {
    const until = waitUntil(30_000);
    files.set(STATE, state(false));
    files.set(SIDECAR, sidecar({ api_wait_until: until }));
    const { refreshView } = await import("../../src/module/view.js");
    await refreshView($, true);
    resume.checkWait($);
    expect(resume.renderWaitPart(Date.now())).toBeUndefined();
    files.set(STATE, state(true));
    mod.lastRead = 0;
    await refreshView($, true);
    resume.checkWait($);
    expect(resume.renderWaitPart(Date.now())).toBeDefined();
    resume.cancelWait($, "a prompt went on first");
    resume.checkWait($);
    expect(resume.renderWaitPart(Date.now())).toBeUndefined();
    await advance(60_000);
    expect(sent).toEqual([]);
  });
});
