// A clock that jumps mid-loop (docs/REFERENCE.md "When the clock jumps"): what the person is shown stays true,
// and what a Stop decides does not follow the jump where no time passed for the loop.
import { existsSync, mkdtempSync, mkdirSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { describe, expect, it, vi } from "vitest";
import { concernsLoop } from "../../src/app/concernsLoop.js";
import type { Context } from "../../src/app/context.js";
import { runStopHook } from "../../src/app/stopHook.js";
import { readHookStdin } from "../../src/core/hookStdin.js";
import { acquireLock } from "../../src/io/lock.js";
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

describe("a Stop whose machine slept while its metric ran", () => {
  it("gives verify its own time: the hours asleep are not taken off it", () => {
    const root = mkdtempSync(join(tmpdir(), "cl-clock-"));
    mkdirSync(join(root, ".claude"));
    writeFileSync(
      join(root, ".claude", "continuation-loop.local.md"),
      `---\nsession_id: S\ncompletion_promise: DONE\nmetric: "touch slept && echo 1"\nverify: "sleep 1.5"\n---\nGoal\n`,
    );
    // The wall clock moves on 8 hours while the metric runs, as across a laptop's sleep.
    const ctx: Context = {
      env: {},
      cwd: root,
      home: root,
      now: () => T + (existsSync(join(root, "slept")) ? 8 * 60 * MIN : 0),
      packageRoot: resolve(import.meta.dirname, "../.."),
      readStdin: () => "",
      out: () => {},
      err: () => {},
    };
    const stdin = readHookStdin(
      JSON.stringify({ session_id: "S", cwd: root, hook_event_name: "Stop", last_assistant_message: "DONE" }),
    );
    const found = concernsLoop(stdin, ctx, true);
    if (!found) throw new Error("no loop found");
    const answer = runStopHook(stdin, ctx, found);
    expect(answer.stderr).not.toContain("verify");
    expect(answer).toMatchObject({ exitCode: 0, json: { systemMessage: expect.stringContaining("completed") } });
  });
});

describe("a wait inside one process when the clock is set back", () => {
  it("the wait for a busy lock ends after its own time, not once the clock has caught up", () => {
    const root = mkdtempSync(join(tmpdir(), "cl-clock-"));
    const path = join(root, "state.md");
    // Held by a live hook: this process.
    writeFileSync(`${path}.lock`, `${process.pid} ${new Date().toISOString()}\n`);
    const real = Date.now.bind(Date);
    const begun = real();
    let caughtUp = false;
    // A day back from the first look on; after a few seconds the clock "catches up", so that a wait that
    // follows it ends too, and says so.
    const now = vi.spyOn(Date, "now").mockImplementation(() => {
      if (real() - begun < 3000) return begun - 86_400_000;
      caughtUp = true;
      return real();
    });
    try {
      expect(acquireLock(path, { waitMs: 200 })).toBeUndefined();
    } finally {
      now.mockRestore();
    }
    expect(caughtUp).toBe(false);
  });
});

describe("a lock left over when the clock is set back", () => {
  it("an empty lock (its hook killed before it wrote its pid) stamped in the future is taken over at once", () => {
    const root = mkdtempSync(join(tmpdir(), "cl-clock-"));
    const path = join(root, "state.md");
    writeFileSync(`${path}.lock`, "");
    const ahead = (Date.now() + 86_400_000) / 1000;
    utimesSync(`${path}.lock`, ahead, ahead);
    const held = acquireLock(path, { waitMs: 200 });
    expect(held?.tookOverStale).toBe(true);
    held?.release();
  });
});
