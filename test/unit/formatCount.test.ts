// Counts with thousands separators: the same text as toLocaleString("en-US") for whole numbers.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { formatCount } from "../../src/core/formatCount.js";

describe("formatCount", () => {
  it.each([
    [0, "0"],
    [7, "7"],
    [999, "999"],
    [1000, "1,000"],
    [14725556, "14,725,556"],
    [-1234, "-1,234"],
    [-0, "0"],
    [Number.MAX_SAFE_INTEGER, "9,007,199,254,740,991"],
    [1.5, "1.5"],
  ])("%d → %s", (n, text) => {
    expect(formatCount(n)).toBe(text);
  });

  it("agrees with toLocaleString on whole numbers", () => {
    fc.assert(
      fc.property(fc.maxSafeInteger(), (n) => formatCount(n) === n.toLocaleString("en-US")),
      { numRuns: 2000 },
    );
  });
});
