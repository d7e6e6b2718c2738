// A clock that jumps between two Stops (docs/REFERENCE.md "When the clock jumps"): a state file whose
// `started_at` lies in the future is the same fact as a clock set back after the loop began.
import { describe, expect, it } from "vitest";
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
