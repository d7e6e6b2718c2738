// A clock that jumps mid-loop (docs/REFERENCE.md "When the clock jumps"): what the person is shown stays true.
import { describe, expect, it } from "vitest";
import type { HistoryRecord } from "../../src/core/history.js";
import { renderReportMarkdown } from "../../src/core/renderReport.js";
import { buildReport, selectLoopRecords } from "../../src/core/reportModel.js";
import { renderElapsed } from "../../src/core/reportFormat.js";

const T = Date.parse("2026-10-24T23:00:00Z");
const MIN = 60_000;
const DAY = 86_400_000;
const turn = (iteration: number, at: number): HistoryRecord => ({
  time: new Date(at).toISOString(),
  state_file: ".claude/continuation-loop.local.md",
  session: "S",
  iteration,
  decision: "continue",
  reason: "continue",
  duration_s: 600,
  reply_line: `turn ${iteration}`,
});

describe("the report of a loop whose clock jumped", () => {
  it("set back a day after two turns: the elapsed time is the turns', not the day the clock went back", () => {
    const records = [
      turn(1, T + 10 * MIN),
      turn(2, T + 20 * MIN),
      turn(3, T + 30 * MIN - DAY),
      turn(4, T + 40 * MIN - DAY),
    ];
    const model = buildReport(selectLoopRecords(records));
    expect(model.rows.map((row) => row.iteration)).toEqual([1, 2, 3, 4]);
    // Four turns of 10 minutes; the 10 minutes across the jump cannot be known, and are not made up.
    expect(renderElapsed(model)).toBe("30m");
    expect(renderReportMarkdown(model)).toContain("**Elapsed:** 30m");
  });

  it("moved on 8 hours (a laptop asleep): the hours asleep are wall-clock time, counted as such", () => {
    const records = [turn(1, T + 10 * MIN), turn(2, T + 20 * MIN + 8 * 60 * MIN)];
    expect(renderElapsed(buildReport(selectLoopRecords(records)))).toBe("8h 20m");
  });
});
