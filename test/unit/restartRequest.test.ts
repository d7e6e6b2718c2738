import type { LoopError } from "../../src/core/errors.js";
import { describe, expect, it } from "vitest";
import type { HistoryRecord } from "../../src/core/history.js";
import { parseState } from "../../src/core/parseState.js";
import { decideRestart, renderRecordFields } from "../../src/core/restartRequest.js";

describe("decideRestart", () => {
  const end = (goal: string | undefined, fields?: Record<string, unknown>): HistoryRecord => ({
    time: "t",
    decision: "end",
    reason: "completed",
    ...(goal !== undefined && { goal }),
    ...(fields && { fields }),
  });
  const records: HistoryRecord[] = [
    end("First goal\n", { max_iterations: 5 }),
    { time: "t", decision: "continue" },
    end(undefined), // vanished: no goal to restart
    end("Second goal\n", { max_iterations: 7, completion_promise: ["DONE"] }),
  ];

  it("the last finished loop by default, the N-th most recent with N", () => {
    expect(decideRestart(records, 1, false, "h")).toMatchObject({
      goal: "Second goal",
      fields: { max_iterations: 7, completion_promise: ["DONE"] },
      force: false,
    });
    expect(decideRestart(records, 2, true, "h")).toMatchObject({ goal: "First goal", force: true });
  });

  it("gives a named loop back its name, and takes only the loops of one file when asked", () => {
    const of = (file: string, goal: string): HistoryRecord => ({ ...end(goal), state_file: file });
    const named = [
      of(".claude/continuation-loop.docs.local.md", "Docs"),
      of(".claude/continuation-loop.local.md", "Tests"),
      of("elsewhere/my-loop.md", "Pinned"),
    ];
    expect(decideRestart(named, 3, false, "h")).toMatchObject({ goal: "Docs", name: "docs" });
    expect(decideRestart(named, 2, false, "h").name).toBeUndefined();
    expect(decideRestart(named, 1, false, "h").name).toBeUndefined();
    expect(decideRestart(named, 1, false, "h", ".claude/continuation-loop.docs.local.md")).toMatchObject({
      goal: "Docs",
      name: "docs",
    });
    expect(() => decideRestart(named, 2, false, "h", ".claude/continuation-loop.docs.local.md")).toThrow(
      /1 finished loop\(s\) of \.claude\/continuation-loop\.docs\.local\.md with a goal, not 2/,
    );
  });

  it("says how many there are when N goes too far", () => {
    expect(() => decideRestart(records, 3, false, "h")).toThrow(/2 finished loop\(s\).*not 3/);
    expect(() => decideRestart([], 1, false, "h")).toThrow(/0 finished loop/);
  });

  it("names the command to run again as it was typed, once a loop has ended", () => {
    const expectedOf = (retry?: string) => {
      try {
        decideRestart([], 1, false, "h", undefined, retry);
      } catch (error) {
        return (error as LoopError).details.expected;
      }
    };
    expect(expectedOf()).toBe("a loop that has ended, then /loop-start --again");
    expect(expectedOf("continuation-loop restart")).toBe("a loop that has ended, then continuation-loop restart");
  });

  it("keeps the user fields the file sets, as written, and nothing a restart starts afresh", () => {
    const state = parseState(
      "---\nactive: false\nmax_iterations: 12\ncompletion_promise: [A, B]\nmax_duration: 2h\nmax_cost: 12.5\nverify_timeout: 2m\nscope: ./src/\nsession_id: s1\n---\nGoal\n",
    );
    expect(renderRecordFields(state)).toEqual({
      max_iterations: 12,
      completion_promise: ["A", "B"],
      max_duration: "2h",
      max_cost: 12.5,
      verify_timeout: "2m",
      scope: "./src/",
    });
  });
});
