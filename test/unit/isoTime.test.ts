import { describe, expect, it } from "vitest";
import { renderIsoTime } from "../../src/core/isoTime.js";

describe("renderIsoTime", () => {
  it.each([
    ["the epoch", 0],
    ["a time with milliseconds", Date.UTC(2026, 10, 23, 14, 39, 46, 568)],
    ["a leap day", Date.UTC(2024, 1, 29, 23, 59, 59, 999)],
    ["year 1", Date.parse("0001-01-01T00:00:00.000Z")],
    ["before the epoch", -1],
    ["year 9999", Date.UTC(9999, 11, 31, 23, 59, 59, 999)],
    ["year 10000 (toISOString's own form)", Date.UTC(10000, 0, 1)],
    ["a negative year (toISOString's own form)", Date.UTC(-5, 0, 1)],
  ])("matches toISOString for %s", (_, ms) => {
    expect(renderIsoTime(ms)).toBe(new Date(ms).toISOString());
  });

  it("matches toISOString across 10,000 random times from 1970 to 2100", () => {
    let seed = 42;
    const random = () => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed / 2 ** 31;
    };
    for (let i = 0; i < 10_000; i++) {
      const ms = Math.floor(random() * Date.UTC(2100, 0, 1));
      expect(renderIsoTime(ms)).toBe(new Date(ms).toISOString());
    }
  });

  it("throws like toISOString for an invalid time", () => {
    expect(() => renderIsoTime(Number.NaN)).toThrow(RangeError);
  });
});
