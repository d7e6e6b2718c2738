// A clock that jumps between two Stops (docs/REFERENCE.md "When the clock jumps"): a state file whose
// `started_at` lies in the future is the same fact as a clock set back after the loop began; a lock taken just
// before the machine slept is, to the hook that finds it on waking, hours old by the wall clock and a second old by
// the machine's own clock (which stands still in a sleep), its holder alive.
import { readFileSync, unlinkSync, utimesSync, writeFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { parseState } from "../../src/core/parseState.js";
import { spawnBundle } from "../support/processes.js";
import { makeProject, readHistory, runHook } from "../support/runHook.js";

const stop = (root: string, reply: string) =>
  runHook(
    "stop",
    { session_id: "S", cwd: root, hook_event_name: "Stop", stop_hook_active: false, last_assistant_message: reply },
    { cwd: root },
  );

describe("a clock set back past the loop's start", () => {
  it("each Stop still finds the loop's previous record: the goal is kept once, no turn is a first", () => {
    const ahead = new Date(Date.now() + 86_400_000).toISOString();
    const { root, historyPath } = makeProject(
      `---\nsession_id: S\nstarted_at: "${ahead}"\nmax_iterations: 10\n---\nA goal of some length\n`,
    );
    for (const n of [1, 2, 3]) expect(stop(root, `turn ${n}`).code).toBe(2);
    const records = readHistory(historyPath);
    expect(records.map((r) => r.iteration)).toEqual([1, 2, 3]);
    expect(records.filter((r) => "goal" in r)).toHaveLength(1);
  });
});

describe("a machine that slept while a hook held the loop's lock", () => {
  const monotonicMs = () => Number(process.hrtime.bigint() / 1_000_000n);
  const iterationOf = (path: string) => parseState(readFileSync(path, "utf8"), "state").iteration_count;

  it("the lock is not taken from its live holder: the Stop waits for it, then counts", async () => {
    const { root, statePath } = makeProject("---\nsession_id: S\nmax_iterations: 10\n---\nGoal\n");
    const slept = Date.now() - 8 * 3_600_000;
    // This process holds it: taken eight hours ago by the wall clock, one second ago by the machine's own.
    writeFileSync(`${statePath}.lock`, `${process.pid} ${new Date(slept).toISOString()} m${monotonicMs() - 1_000}\n`);
    utimesSync(`${statePath}.lock`, slept / 1000, slept / 1000);
    let released = false;
    const whilePaused = () => {
      expect(iterationOf(statePath)).toBe(1);
      unlinkSync(`${statePath}.lock`); // its holder, awake, finishes and lets go
      released = true;
    };
    const stdin = JSON.stringify({ session_id: "S", cwd: root, hook_event_name: "Stop", last_assistant_message: "a" });
    const env = { CONTINUATION_LOOP_TEST_CRASH_AT: "lock-wait:pause" };
    const run = await spawnBundle("stop", { cwd: root, env, whilePaused, stdin });
    expect(released, run.stderr).toBe(true);
    expect(run.code).toBe(2);
    expect(iterationOf(statePath)).toBe(2);
  });

  it("a lock held eleven seconds by the machine's own clock is left over, as by the wall clock", async () => {
    const { root, statePath } = makeProject("---\nsession_id: S\nmax_iterations: 10\n---\nGoal\n");
    const then = Date.now() - 11_000;
    writeFileSync(`${statePath}.lock`, `${process.pid} ${new Date(then).toISOString()} m${monotonicMs() - 11_000}\n`);
    utimesSync(`${statePath}.lock`, then / 1000, then / 1000);
    const stdin = JSON.stringify({ session_id: "S", cwd: root, hook_event_name: "Stop", last_assistant_message: "a" });
    // The hook would die where it starts to wait: it takes the lock over instead.
    const run = await spawnBundle("stop", { cwd: root, env: { CONTINUATION_LOOP_TEST_CRASH_AT: "lock-wait" }, stdin });
    expect(run.code, run.stderr).toBe(2);
    expect(iterationOf(statePath)).toBe(2);
  });
});
