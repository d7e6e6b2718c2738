// Going on after an API error (docs/REFERENCE.md "Going on after an API error"): the wait's length, its growth and cap, its
// jitter, Claude Code's reset time, the pause after max_api_failures and max_duration's end.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  backoffStepMs,
  decideApiWait,
  MAX_WAIT_MS,
  parseWaitScale,
  pickResetsAt,
} from "../../src/core/decideApiWait.js";
import { renderWaitBand } from "../../src/core/renderApiWait.js";
import { renderHistoryTable } from "../../src/core/renderHistory.js";

const NOW = Date.parse("2026-11-24T01:00:00Z");
const MIN = 60_000;
const base = { kind: "rate_limit", failures: 1, maxFailures: 5, now: NOW, random: 0.5 };

describe("decideApiWait", () => {
  it("waits 1, 2, 4, 8, 16 minutes, then 30 at most (before jitter)", () => {
    expect([1, 2, 3, 4, 5, 6, 7, 40, 5000].map(backoffStepMs)).toEqual([
      1 * MIN,
      2 * MIN,
      4 * MIN,
      8 * MIN,
      16 * MIN,
      30 * MIN,
      30 * MIN,
      30 * MIN,
      30 * MIN,
    ]);
  });

  it("the jitter keeps a backoff between 80 % and 100 % of its step", () => {
    expect(decideApiWait({ ...base, failures: 3, random: 0 })).toMatchObject({ kind: "wait", waitMs: 3.2 * MIN });
    expect(decideApiWait({ ...base, failures: 3, random: 0.999999 })).toMatchObject({ basis: "backoff" });
    const high = decideApiWait({ ...base, failures: 3, random: 0.999999 });
    expect(high.kind === "wait" && high.waitMs).toBeLessThanOrEqual(4 * MIN);
    expect(high.kind === "wait" && high.waitMs).toBeGreaterThan(3.99 * MIN);
  });

  it("waits for Claude Code's reset time plus 30–60 s when it gives one", () => {
    const resetsAt = NOW + 42 * MIN;
    const wait = decideApiWait({ ...base, failures: 2, resetsAt, random: 0 });
    expect(wait).toEqual({ kind: "wait", until: resetsAt + 30_000, waitMs: 42 * MIN + 30_000, basis: "reset" });
    const late = decideApiWait({ ...base, resetsAt, random: 0.999999 });
    expect(late.kind === "wait" && late.until - resetsAt).toBeGreaterThan(59_000);
    // A reset time already past is no reason: the backoff applies.
    expect(decideApiWait({ ...base, resetsAt: NOW - 1000, random: 0 })).toMatchObject({ basis: "backoff" });
  });

  it("overloads and server errors wait too; other errors are left to a person", () => {
    expect(decideApiWait({ ...base, kind: "overloaded" })).toMatchObject({ kind: "wait" });
    expect(decideApiWait({ ...base, kind: "server_error" })).toMatchObject({ kind: "wait" });
    for (const kind of ["invalid_request", "authentication_failed", "billing_error", "unknown", "max_output_tokens"])
      expect(decideApiWait({ ...base, kind })).toEqual({ kind: "none" });
  });

  it("pauses at max_api_failures errors in a row, with the reason", () => {
    expect(decideApiWait({ ...base, failures: 4 })).toMatchObject({ kind: "wait" });
    const pause = decideApiWait({ ...base, failures: 5, kind: "overloaded" });
    expect(pause).toMatchObject({ kind: "pause" });
    expect(pause.kind === "pause" && pause.reason).toMatch(/5 API errors in a row.*overloaded.*max_api_failures is 5/);
    expect(decideApiWait({ ...base, failures: 1, maxFailures: 1 })).toMatchObject({ kind: "pause" });
  });

  it("a wait that would end past max_duration ends the loop instead", () => {
    const started = { startedAt: NOW - 58 * MIN, maxDurationS: 60 * 60 };
    expect(decideApiWait({ ...base, ...started, failures: 1 })).toMatchObject({ kind: "wait" });
    expect(decideApiWait({ ...base, ...started, failures: 3 })).toEqual({ kind: "end", reason: "max_duration" });
    expect(decideApiWait({ ...base, ...started, resetsAt: NOW + 5 * MIN })).toEqual({
      kind: "end",
      reason: "max_duration",
    });
  });

  it("tests shorten every wait by the scale", () => {
    const wait = decideApiWait({ ...base, failures: 2, random: 0, scale: 0.001 });
    expect(wait).toMatchObject({ kind: "wait", waitMs: 96, until: NOW + 96 });
  });

  it("property: a wait is never negative, never past the cap (plus a reset's margin), and grows with the count", () => {
    fc.assert(
      fc.property(
        fc.constantFrom("rate_limit", "overloaded", "server_error"),
        fc.integer({ min: 1, max: 60 }),
        fc.double({ min: 0, max: 1, maxExcluded: true, noNaN: true }),
        fc.option(fc.integer({ min: -3_600_000, max: 7 * 86_400_000 }), { nil: undefined }),
        (kind, failures, random, resetIn) => {
          const wait = decideApiWait({
            kind,
            failures,
            maxFailures: 1000,
            now: NOW,
            random,
            resetsAt: resetIn === undefined ? undefined : NOW + resetIn,
          });
          if (wait.kind !== "wait") return false;
          expect(wait.until).toBe(NOW + wait.waitMs);
          expect(wait.waitMs).toBeGreaterThan(0);
          if (wait.basis === "backoff") {
            expect(wait.waitMs).toBeLessThanOrEqual(MAX_WAIT_MS);
            expect(wait.waitMs).toBeGreaterThanOrEqual(0.8 * backoffStepMs(failures));
            // The next error's step is never shorter than this one's.
            expect(backoffStepMs(failures + 1)).toBeGreaterThanOrEqual(backoffStepMs(failures));
          } else {
            expect(wait.waitMs - (resetIn ?? 0)).toBeGreaterThanOrEqual(30_000);
            expect(wait.waitMs - (resetIn ?? 0)).toBeLessThanOrEqual(60_000);
          }
          return true;
        },
      ),
    );
  });

  it("property: at or past max_api_failures it always pauses, whatever the wait would be", () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 100 }), fc.integer({ min: 0, max: 50 }), (max, extra) => {
        expect(decideApiWait({ ...base, maxFailures: max, failures: max + extra }).kind).toBe("pause");
      }),
    );
  });
});

describe("pickResetsAt", () => {
  it("takes the latest reset of a used-up window, ignores the others", () => {
    const at = (m: number) => new Date(NOW + m * MIN).toISOString();
    expect(pickResetsAt([], NOW)).toBeUndefined();
    expect(pickResetsAt(undefined, NOW)).toBeUndefined();
    expect(pickResetsAt([{ percentUsed: 80, resetsAt: at(10) }], NOW)).toBeUndefined();
    expect(
      pickResetsAt(
        [
          { percentUsed: 100, resetsAt: at(10) },
          { percentUsed: 100.5, resetsAt: at(90) },
          { percentUsed: 99.9, resetsAt: at(500) },
          { percentUsed: 100, resetsAt: at(-5) },
          { percentUsed: 100, resetsAt: "not a time" },
          { percentUsed: 100 },
        ],
        NOW,
      ),
    ).toBe(NOW + 90 * MIN);
  });
});

describe("parseWaitScale", () => {
  it("a factor in (0, 1]; anything else is 1", () => {
    expect(parseWaitScale("0.001")).toBe(0.001);
    expect(parseWaitScale("1")).toBe(1);
    for (const bad of [undefined, "", "0", "-1", "2", "fast", "NaN"]) expect(parseWaitScale(bad)).toBe(1);
  });
});

describe("what the history and the band say about a wait", () => {
  it("the history table shows until when, how long and why; the resume after how many errors", () => {
    const rows = renderHistoryTable(
      [
        { time: "2026-11-24T01:00:00.000Z", session: "s1", iteration: 2, decision: "api_error", reason: "rate_limit" },
        {
          time: "2026-11-24T01:00:00.000Z",
          session: "s1",
          iteration: 2,
          decision: "wait",
          reason: "rate_limit",
          until: "2026-11-24T01:01:52.000Z",
          wait_s: 112,
          basis: "backoff",
          failures: 2,
        },
        {
          time: "2026-11-24T01:01:52.100Z",
          session: "s1",
          iteration: 2,
          decision: "resume",
          reason: "api_wait",
          failures: 2,
        },
        {
          time: "2026-11-24T02:00:00.000Z",
          session: "s1",
          iteration: 3,
          decision: "wait",
          reason: "rate_limit",
          until: "2026-11-24T04:00:45.000Z",
          wait_s: 7245,
          basis: "reset",
          failures: 1,
        },
      ],
      true,
    ).split("\n");
    expect(rows[2]).toMatch(/wait: rate_limit\s+2 .*until 2026-11-24 01:01:52 \(1m 52s, error 2 in a row\)$/);
    expect(rows[3]).toMatch(/resume: api_wait\s+2 .*after 2 API errors in a row$/);
    expect(rows[4]).toMatch(/until 2026-11-24 04:00:45 \(2h 45s, Claude Code's reset time\)$/);
  });

  it("the band names what the loop waits for, until when and how long is left", () => {
    expect(renderWaitBand("rate_limit", NOW + 252_000, NOW)).toBe(
      "waits for the rate or usage limit until 01:04:12 UTC (4m 12s)",
    );
    expect(renderWaitBand("server_error", NOW + 1000, NOW)).toMatch(/^waits for the API to recover until/);
  });
});
