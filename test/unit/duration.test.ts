// Durations (`max_duration`, `verify_timeout`): a table, and random strings held to the regular
// expressions the character reader replaced.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { parseDuration, renderDuration } from "../../src/core/duration.js";

const UNITS: Record<string, number> = { s: 1, m: 60, h: 3600, d: 86400 };
/** The rule as regular expressions: a number alone is seconds; else number-unit pairs. */
function byExpressions(value: unknown): number | undefined {
  if (typeof value === "number") return Number.isFinite(value) && value > 0 ? value : undefined;
  if (typeof value !== "string") return undefined;
  const text = value.trim().toLowerCase();
  if (/^\d+(\.\d+)?$/.test(text)) return byExpressions(Number(text));
  if (!/^(\d+(\.\d+)?[smhd])+$/.test(text)) return undefined;
  let total = 0;
  for (const m of text.matchAll(/(\d+(?:\.\d+)?)([smhd])/g)) total += Number(m[1]) * (UNITS[m[2] ?? "s"] ?? 1);
  return total > 0 ? total : undefined;
}

describe("parseDuration", () => {
  it.each([
    ["90s", 90],
    ["45m", 2700],
    ["2h", 7200],
    ["1d", 86400],
    ["1h30m", 5400],
    [" 2H ", 7200],
    ["1.5h", 5400],
    ["120", 120],
    [120, 120],
    ["0", undefined],
    ["0s", undefined],
    ["", undefined],
    ["h", undefined],
    ["1.h", undefined],
    [".5h", undefined],
    ["1x", undefined],
    ["1h 30m", undefined],
    ["-5m", undefined],
    [Number.NaN, undefined],
    [null, undefined],
  ])("%j → %s", (value, seconds) => {
    expect(parseDuration(value)).toBe(seconds);
    expect(byExpressions(value)).toBe(seconds);
  });

  it("agrees with the regular expressions on random strings", () => {
    const text = fc.string({ unit: fc.constantFrom(..."0123456789.smhdSMHDx "), maxLength: 10 });
    fc.assert(
      fc.property(text, (t) => Object.is(parseDuration(t), byExpressions(t))),
      { numRuns: Number(process.env.FC_RUNS ?? 400) * 10 },
    );
  });

  it("renders seconds back as the largest units", () => {
    expect(renderDuration(3725)).toBe("1h 2m 5s");
    expect(renderDuration(0)).toBe("0s");
  });
});
