// Background work (src/core/background.ts, decideStop): a Stop that would continue while a background task
// runs holds the loop instead, uncounted; completion, Claude's question and the limits come first; a task
// the loop has waited background_wait for never holds it again; on the command path only `<loop-wait/>`
// asks for the hold.
import { describe, expect, it } from "vitest";
import { assessReply } from "../../src/core/assessReply.js";
import {
  type BackgroundFacts,
  decideHold,
  parseWaitTag,
  readRunningTasks,
  readWakeAt,
  renderHoldMessage,
  renderNotHeld,
  renderWaitingFor,
} from "../../src/core/background.js";
import { decideStop, type StopFacts } from "../../src/core/decideStop.js";
import { readTimeUpAt } from "../../src/core/duration.js";
import { parseState } from "../../src/core/parseState.js";
import { makeRuntime, type Runtime } from "../../src/core/sidecar.js";

const NOW = Date.parse("2026-03-01T12:00:00Z");
const iso = (ms: number) => new Date(ms).toISOString();
const BUILD = { id: "b1", type: "shell", description: "build" };
const SERVER = { id: "b2", type: "shell", description: "dev server" };
const running = (tasks = [BUILD], over: Partial<BackgroundFacts> = {}): BackgroundFacts => ({
  running: tasks,
  module: true,
  waitTag: false,
  ...over,
});
const loop = (front = "") => parseState(`---\nsession_id: s1\nmax_iterations: 10\n${front}\n---\nGoal\n`);

function decide(front: string, reply: string, facts: StopFacts, runtime: Runtime = makeRuntime(), now = NOW) {
  const state = loop(front);
  return decideStop(state, runtime, assessReply(state, runtime, reply), facts, now);
}

describe("the Stop input's background tasks", () => {
  it("keeps the tasks in flight, running or pending, described by their description or type", () => {
    expect(
      readRunningTasks([
        { id: "b1", type: "shell", status: "running", description: "build" },
        { id: "a1", type: "subagent", status: "pending", description: " " },
        { id: "b3", type: "shell", status: "completed", description: "old" },
        { id: "b4", type: "monitor", status: "paused", description: "watch" },
        { id: "", type: "shell", status: "running" },
      ]),
    ).toEqual([BUILD, { id: "a1", type: "subagent", description: "subagent" }]);
    expect(readRunningTasks(undefined)).toEqual([]);
  });

  it("reads <loop-wait/> in any of its spellings", () => {
    for (const reply of ["Waiting. <loop-wait/>", "<LOOP-WAIT />", "<loop-wait>"])
      expect(parseWaitTag(reply)).toBe(true);
    for (const reply of ["loop-wait", "<loop-waiting/>", "</loop-wait>"]) expect(parseWaitTag(reply)).toBe(false);
  });
});

describe("a Stop while background tasks run", () => {
  it("holds instead of continuing: not counted, the hold kept with the time each task was first waited for", () => {
    const d = decide("", "Build started.", { background: running() });
    expect(d).toMatchObject({ kind: "hold", iteration: 1, started: true });
    if (d.kind !== "hold") return;
    expect(d.hold).toEqual({ since: iso(NOW), tasks: [{ ...BUILD, since: iso(NOW) }], route: "module" });
    expect(d.runtime.background_hold).toEqual(d.hold);
  });

  it("a second Stop of the same hold keeps its start, and a task that joins it counts from then", () => {
    const first = decide("", "Build started.", { background: running() });
    if (first.kind !== "hold") throw new Error("no hold");
    const later = NOW + 60_000;
    const d = decide("", "Tests started too.", { background: running([BUILD, SERVER]) }, first.runtime, later);
    expect(d).toMatchObject({ kind: "hold", started: false });
    if (d.kind !== "hold") return;
    expect(d.hold.since).toBe(iso(NOW));
    expect(d.hold.tasks).toEqual([
      { ...BUILD, since: iso(NOW) },
      { ...SERVER, since: iso(later) },
    ]);
    expect(readWakeAt(d.hold, 600)).toBe(NOW + 600_000);
  });

  it("does not count the waiting turn as a stall or as no improvement", () => {
    const previous = { ...makeRuntime(), stall_count: 2, last_turn: "t", no_improvement_count: 1 };
    const d = decide("stall_limit: 3", "Build started.", { background: running() }, previous);
    expect(d.kind).toBe("hold");
    expect(d.runtime).toMatchObject({ stall_count: 2, last_turn: "t", no_improvement_count: 1 });
  });

  it("completion, Claude's question and the limits come first", () => {
    const facts = { background: running() };
    expect(decide("completion_promise: DONE", "DONE", facts)).toMatchObject({ kind: "end", reason: "completed" });
    expect(decide("", "<loop-pause>Which port?</loop-pause>", facts)).toMatchObject({ kind: "pause" });
    expect(decide("iteration_count: 10", "Build started.", facts)).toMatchObject({
      kind: "end",
      reason: "max_iterations",
    });
    const started = `started_at: "${iso(NOW - 7200_000)}"\nmax_duration: 1h`;
    expect(decide(started, "Build started.", facts)).toMatchObject({ kind: "end", reason: "max_duration" });
  });

  it("background_wait: 0 never holds: the loop continues as it always did, naming what runs", () => {
    const d = decide("background_wait: 0", "Build started.", { background: running() });
    expect(d).toMatchObject({ kind: "continue", next: 2, notHeld: [{ ...BUILD, waitedOut: false }] });
  });

  it("on the command path only a reply with <loop-wait/> holds", () => {
    const command = (waitTag: boolean) => ({ background: running([BUILD], { module: false, waitTag }) });
    expect(decide("", "Build started.", command(false))).toMatchObject({
      kind: "continue",
      notHeld: [{ ...BUILD, waitedOut: false }],
    });
    const d = decide("", "Build started. <loop-wait/>", command(true));
    expect(d).toMatchObject({ kind: "hold", hold: { route: "command" } });
  });

  it("a task held for background_wait is waited out: it never holds the loop again", () => {
    const first = decide("background_wait: 2m", "Server started.", { background: running([SERVER]) });
    if (first.kind !== "hold") throw new Error("no hold");
    // Before the bound the same hold goes on; once it has passed, the loop goes on without the server.
    const before = decide(
      "background_wait: 2m",
      "Still up.",
      { background: running([SERVER]) },
      first.runtime,
      NOW + 119_000,
    );
    expect(before.kind).toBe("hold");
    const after = decide(
      "background_wait: 2m",
      "Still up.",
      { background: running([SERVER]) },
      first.runtime,
      NOW + 120_000,
    );
    expect(after).toMatchObject({ kind: "continue", notHeld: [{ ...SERVER, waitedOut: true }] });
    expect(after.runtime).toMatchObject({ background_hold: null, background_waited: ["b2"] });
    // Much later, with a build beside it: the build holds, the server does not.
    const again = decide(
      "background_wait: 2m",
      "Build started.",
      { background: running([SERVER, BUILD]) },
      after.runtime,
      NOW + 3600_000,
    );
    expect(again).toMatchObject({ kind: "hold", hold: { tasks: [{ ...BUILD, since: iso(NOW + 3600_000) }] } });
  });

  it("a Stop with nothing running clears the hold; a version that lists no tasks continues as before", () => {
    const first = decide("", "Build started.", { background: running() });
    const d = decide("", "The build passed.", {}, first.runtime);
    expect(d).toMatchObject({ kind: "continue", next: 2 });
    expect(d.runtime.background_hold).toBeNull();
    expect(d).not.toHaveProperty("notHeld");
  });

  it("a clock set back past the hold's start ends the wait at the next Stop, never holds until it catches up", () => {
    const first = decide("background_wait: 2m", "Server started.", { background: running([SERVER]) });
    if (first.kind !== "hold") throw new Error("no hold");
    // The module's timer counts in the machine's own time and wakes the session after 2m; the wall clock
    // went back 1h meanwhile, so the task's `since` lies in the future at that Stop.
    for (const back of [3600_000, 86400_000]) {
      const woken = decide(
        "background_wait: 2m",
        "Still up.",
        { background: running([SERVER]) },
        first.runtime,
        NOW + 120_000 - back,
      );
      expect(woken).toMatchObject({ kind: "continue", notHeld: [{ ...SERVER, waitedOut: true }] });
      expect(woken.runtime).toMatchObject({ background_hold: null, background_waited: ["b2"] });
    }
  });

  it("keeps at most 50 waited-out ids", () => {
    const previous = { background_hold: null, background_waited: Array.from({ length: 60 }, (_, i) => `t${i}`) };
    expect(decideHold(600, previous, running(), NOW).waited).toHaveLength(50);
  });
});

describe("what the person and Claude are told", () => {
  const hold = { since: iso(NOW), tasks: [{ ...BUILD, since: iso(NOW) }], route: "module" as const };

  it("one line: what the loop waits for, and what ends the wait on each route", () => {
    expect(renderWaitingFor([BUILD, SERVER])).toBe("waiting for 2 background tasks (build, dev server)");
    expect(renderHoldMessage(hold, 600, { n: 2, max: 10 })).toBe(
      "continuation-loop: waiting for 1 background task (build); iteration 2/10 is not counted. The loop goes on when Claude Code reports it finished, or by itself at 12:10:00 UTC (background_wait 10m).",
    );
    expect(renderHoldMessage({ ...hold, route: "command" }, 600, { n: 2, max: 10 })).toContain(
      "The loop goes on when Claude Code reports it finished, or when you type.",
    );
  });

  it("says the loop ends at its time limit when max_duration passes before background_wait", () => {
    const timeUp = readTimeUpAt({ started_at: iso(NOW - 60_000), max_duration: 300 });
    expect(renderHoldMessage(hold, 600, { n: 2, max: 10 }, timeUp)).toContain(
      "The loop goes on when Claude Code reports it finished, or it ends at 12:04:00 UTC (max_duration).",
    );
    expect(renderHoldMessage(hold, 600, { n: 2, max: 10 }, timeUp + 3_600_000)).toContain(
      "or by itself at 12:10:00 UTC",
    );
    expect(readTimeUpAt({ started_at: undefined, max_duration: 300 })).toBe(Number.POSITIVE_INFINITY);
  });

  it("cuts the tasks' names, never the words around them, to fit a width", () => {
    const long = { id: "b9", type: "shell", description: "npm run build -- --watch=false for the web app" };
    const cut = renderWaitingFor([long, SERVER], 52);
    expect(cut.length).toBeLessThanOrEqual(52);
    expect(cut).toBe("waiting for 2 background tasks (npm run build -- -…)");
    expect(renderWaitingFor([BUILD], 50)).toBe("waiting for 1 background task (build)");
  });

  it("a continuation names the tasks it does not wait for, and on the command path teaches <loop-wait/>", () => {
    const open = [{ ...BUILD, waitedOut: false }];
    expect(renderNotHeld(open, 600, true)).toContain("end your reply with <loop-wait/>");
    expect(renderNotHeld(open, 600, false)).toBe("Still running in the background: build.");
    expect(renderNotHeld(open, 0, true)).toBe("Still running in the background: build.");
    expect(renderNotHeld([{ ...SERVER, waitedOut: true }], 600, true)).toMatch(
      /^Still running, no longer waited for after background_wait \(10m\): dev server\./,
    );
  });
});
