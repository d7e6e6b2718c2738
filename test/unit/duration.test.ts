// Durations (`max_duration`, `verify_timeout`).
import { describe, expect, it } from "vitest";
import { parseDuration, renderDuration } from "../../src/core/duration.js";

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
    ["1h 30m", 5400],
    ["2h 15m 30s", 8130],
    ["1d\t2h", 93600],
    ["1h 30", undefined],
    ["h 30m", undefined],
    ["1 h", undefined],
    ["-5m", undefined],
    [Number.NaN, undefined],
    [null, undefined],
  ])("%j → %s", (value, seconds) => {
    expect(parseDuration(value)).toBe(seconds);
  });

  it("renders seconds back as the largest units", () => {
    expect(renderDuration(3725)).toBe("1h 2m 5s");
    expect(renderDuration(0)).toBe("0s");
  });
});
