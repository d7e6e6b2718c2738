// The module's side of waiting for background work (src/module/hold.ts), against a stand-in for Claude
// Code's `$`: the hold the Stop hook kept in the loop's files gets a timer to the moment background_wait
// passes; then, between turns and only while the loop still waits, the module sends the wake prompt once.
// A loop stopped or paused meanwhile cancels it, said in one line; a turn that starts drops it.
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { renderLoopPaths } from "../../src/core/loopFileNames.js";
import { BACKGROUND_WAKE_OPENING } from "../../src/core/protocol.js";
import type { Engine } from "../../src/module/engine.js";
import { followHold, pauseHold } from "../../src/module/hold.js";
import { makeModState, mod } from "../../src/module/state.js";
import { refreshView } from "../../src/module/view.js";
import { renderSidecarFor } from "../support/loopSidecar.js";
import { memoryFs } from "../support/memoryFs.js";

const ROOT = "/p";
const STATE = `${ROOT}/.claude/continuation-loop.local.md`;
const SIDECAR = `${ROOT}/.claude/continuation-loop.runtime.json`;
const STARTED = "2026-11-24T01:00:00.000Z";
/** Each test's hold begins on a day of its own: the module remembers the holds it woke. */
let day = 0;
let SINCE = "";
const at = (clock: string) => `2026-11-${String(day).padStart(2, "0")}T${clock}.000Z`;
const state = (extra = "") =>
  `---\nactive: ${!extra.includes("active: false")}\niteration_count: 2\nmax_iterations: 10\nsession_id: s1\nstarted_at: "${STARTED}"\n${extra.replace("active: false\n", "")}---\n\nCheck the site.\n`;
const task = (id: string, description: string, since?: string) => ({
  id,
  type: "shell",
  description,
  since: since ?? SINCE,
});
const sidecar = (hold: unknown) =>
  JSON.stringify({ loop: { started_at: STARTED, session_id: "s1" }, background_hold: hold });
let HOLD: { since: string; tasks: ReturnType<typeof task>[]; route: string };

let files: Map<string, string>;
let timers: { at: number; fn: () => unknown; cancelled: boolean }[];
let sent: string[];
let logs: string[];

/** `continuation-loop view --name NAME` on the files in memory: the sidecar the hooks would save, exit 1 when it cannot. */
function runViewHelper(argv: readonly string[]) {
  const name = argv[argv.indexOf("--name") + 1] ?? "default";
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
  env: { get: async () => undefined, set: async () => undefined },
  fs: memoryFs(() => files),
  prompt: {
    submit: async ({ text }: { text: string }) => {
      sent.push(text);
    },
  },
  session: { id: async () => "s1" },
  clock: {
    after: (ms: number, fn: () => unknown) => {
      const timer = { at: Date.now() + ms, fn, cancelled: false };
      timers.push(timer);
      return { cancel: () => (timer.cancelled = true) };
    },
    every: () => undefined,
  },
  ui: { log: (text: string) => logs.push(text), invalidate: () => undefined, toast: () => undefined },
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

/** The files as the Stop hook left them (the sidecar saved with the state file's text), read by the module as after a Stop, between turns. */
async function afterStop(text: string, side: string | undefined): Promise<void> {
  files.set(STATE, text);
  if (side === undefined) files.delete(SIDECAR);
  else files.set(SIDECAR, renderSidecarFor(text, side));
  mod.turnId = undefined;
  await refreshView($, true);
  followHold($);
}

const armed = () => timers.filter((t) => !t.cancelled);

beforeEach(() => {
  vi.useFakeTimers({ toFake: ["Date"] });
  day += 1;
  SINCE = at("02:00:00");
  HOLD = { since: SINCE, tasks: [task("b1", "dev server")], route: "module" };
  vi.setSystemTime(Date.parse(at("02:00:05")));
  files = new Map();
  timers = [];
  sent = [];
  logs = [];
  Object.assign(mod, makeModState(), { ready: true, root: ROOT });
});

afterEach(() => {
  pauseHold($);
  vi.useRealTimers();
});

describe("the module while the loop waits for background work", () => {
  it("wakes the session once background_wait has passed since the hold began, naming what still runs, once", async () => {
    await afterStop(state("background_wait: 10m\n"), sidecar(HOLD));
    expect(armed().map((t) => new Date(t.at).toISOString())).toEqual([at("02:10:00")]);
    // Each tick follows the same hold: no second timer.
    followHold($);
    expect(armed()).toHaveLength(1);
    await advance(594_000);
    expect(sent).toEqual([]);
    await advance(1000);
    expect(sent).toHaveLength(1);
    expect(sent[0]?.startsWith(BACKGROUND_WAKE_OPENING)).toBe(true);
    expect(sent[0]).toContain("dev server (shell, id b1)");
    expect(sent[0]).toContain("iteration 2/10");
    expect(sent[0]).toContain("Check the site.");
    followHold($);
    await advance(3_600_000);
    expect(sent).toHaveLength(1);
  });

  it("a clock set back past the hold's start wakes the session background_wait from now, not an hour later", async () => {
    vi.setSystemTime(Date.parse(at("01:00:05")));
    await afterStop(state("background_wait: 10m\n"), sidecar(HOLD));
    expect(armed().map((t) => new Date(t.at).toISOString())).toEqual([at("01:10:05")]);
    await advance(600_000);
    expect(sent).toHaveLength(1);
    expect(sent[0]?.startsWith(BACKGROUND_WAKE_OPENING)).toBe(true);
  });

  it("a machine that slept past the bound wakes the session at the first tick after it wakes, once", async () => {
    await afterStop(state("background_wait: 10m\n"), sidecar(HOLD));
    followHold($);
    expect(sent).toEqual([]);
    // Suspended for hours: the wall clock moved, the timer (awake time only) has not fired.
    vi.setSystemTime(Date.now() + 5 * 3_600_000);
    followHold($);
    for (let i = 0; i < 20; i++) await Promise.resolve();
    expect(sent).toHaveLength(1);
    expect(sent[0]?.startsWith(BACKGROUND_WAKE_OPENING)).toBe(true);
    followHold($);
    for (const timer of timers) if (!timer.cancelled) await timer.fn();
    await advance(3_600_000);
    expect(sent).toHaveLength(1);
  });

  it("sends the prompt when max_duration passes before background_wait does, so that the loop ends on time", async () => {
    const started = at("01:58:00");
    const timed = (extra: string) => state(`background_wait: 10m\n${extra}`).replace(STARTED, started);
    const side = JSON.stringify({ loop: { started_at: started, session_id: "s1" }, background_hold: HOLD });
    await afterStop(timed("max_duration: 5m\n"), side);
    // A second past the limit, so that the prompt hook finds it passed and ends the loop with no turn.
    expect(armed().map((t) => new Date(t.at).toISOString())).toEqual([at("02:03:01")]);
    await advance(176_000);
    expect(sent).toHaveLength(1);
    expect(sent[0]?.startsWith(BACKGROUND_WAKE_OPENING)).toBe(true);
    // A limit past the bound changes nothing.
    pauseHold($);
    await afterStop(timed("max_duration: 1h\n").replace("iteration_count: 2", "iteration_count: 3"), side);
    expect(armed().map((t) => new Date(t.at).toISOString())).toEqual([at("02:10:00")]);
  });

  it("counts from the earliest task of the hold, and follows a changed background_wait", async () => {
    const hold = { ...HOLD, tasks: [task("b2", "tests", at("02:03:00")), task("b1", "build")] };
    await afterStop(state("background_wait: 2m\n"), sidecar(hold));
    expect(armed().map((t) => new Date(t.at).toISOString())).toEqual([at("02:02:00")]);
    await afterStop(state("background_wait: 1h\n"), sidecar(hold));
    expect(armed().map((t) => new Date(t.at).toISOString())).toEqual([at("03:00:00")]);
  });

  it("a loop stopped during the wait is never woken, and the person is told", async () => {
    await afterStop(state(), sidecar(HOLD));
    files.clear();
    await refreshView($, true);
    followHold($);
    expect(logs).toEqual(["the wait for background work is cancelled: the loop was stopped."]);
    await advance(3_600_000);
    expect(sent).toEqual([]);
  });

  it("a state file broken by a hand edit during the wait stops nothing: fixed, the session is woken once", async () => {
    const text = state();
    await afterStop(text, sidecar(HOLD));
    files.set(STATE, text.replace("max_iterations: 10", "max_iterations: ten"));
    await refreshView($, true);
    followHold($);
    expect(mod.invalid).toBe("default");
    // Still broken when the bound passes: nothing sent, nothing cancelled.
    await advance(600_000);
    await advance(1000);
    expect(sent).toEqual([]);
    expect(logs).toEqual([]);
    files.set(STATE, text);
    await advance(1000);
    expect(sent).toHaveLength(1);
    expect(sent[0]?.startsWith(BACKGROUND_WAKE_OPENING)).toBe(true);
    followHold($);
    await advance(3_600_000);
    expect(sent).toHaveLength(1);
  });

  it("a loop paused just before the bound is never woken, even before a tick saw it", async () => {
    await afterStop(state(), sidecar(HOLD));
    files.set(STATE, state("active: false\n"));
    await advance(600_000);
    expect(sent).toEqual([]);
    expect(logs).toEqual(["the wait for background work is cancelled: the loop was paused."]);
  });

  it("a turn that starts during the wait drops the timer: the Stop at its end decides again", async () => {
    await afterStop(state(), sidecar(HOLD));
    mod.turnId = "t1";
    pauseHold($);
    // While the turn runs, the ticks arm nothing.
    followHold($);
    expect(armed()).toEqual([]);
    // The turn's Stop went on (no hold): nothing to wake.
    await afterStop(state(), sidecar(null));
    await advance(3_600_000);
    expect(sent).toEqual([]);
    expect(logs).toEqual([]);
  });

  it("a bound that passes while a turn runs sends nothing: that turn's Stop decides", async () => {
    await afterStop(state(), sidecar(HOLD));
    mod.turnId = "t1";
    await advance(600_000);
    expect(sent).toEqual([]);
  });

  it("keeps no timer for a hold on the command path, with background_wait: 0, or while Claude's question waits", async () => {
    await afterStop(state(), sidecar({ ...HOLD, route: "command" }));
    await afterStop(state("background_wait: 0\n"), sidecar(HOLD));
    const question = JSON.stringify({
      ...JSON.parse(sidecar(HOLD)),
      pause: { reason: "question", text: "Which port?", since: SINCE },
    });
    await afterStop(state(), question);
    expect(armed()).toEqual([]);
    await advance(3_600_000);
    expect(sent).toEqual([]);
  });

  it("after Esc in the turn after the hold (no Stop came), nothing wakes the session; a later hold is woken as ever", async () => {
    await afterStop(state(), sidecar(HOLD));
    expect(armed()).toHaveLength(1);
    // index.ts notes it at the interrupted turn's end, before the timer is followed again.
    mod.interruptedHold = SINCE;
    followHold($);
    expect(armed()).toEqual([]);
    await advance(3_600_000);
    expect(sent).toEqual([]);
    expect(logs).toEqual([]);
    const later = { ...HOLD, since: at("03:00:00"), tasks: [task("b2", "tests", at("03:00:00"))] };
    await afterStop(state(), sidecar(later));
    await advance(600_000);
    expect(sent).toHaveLength(1);
  });
});
