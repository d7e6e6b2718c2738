import { describe, expect, it } from "vitest";
import { cellWidth, clipToCells, clipToChars, wrapToCells } from "../../src/core/cellWidth.js";

/** Half a surrogate pair alone: drawn as a replacement character. */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
/** What may never start the text left after a cut: a mark, joiner, selector or skin tone of the kept part's end. */
const CONTINUES = /^(?:[\u0300-\u036f\u0591-\u05c7\u064b-\u065f]|\u200d|\ufe0f|\u20e3|\uD83C[\uDFFB-\uDFFF])/;

const GOAL = "Ship 🚀 the 日本語 docs for the 👨‍👩‍👧‍👦 page ❤️ café (cafe\u0301) שָׁלוֹם עולם 🇯🇵 1️⃣ 👍🏽 and ☕ done";

describe("cellWidth", () => {
  it.each([
    ["🚀", 2],
    ["❤️", 2],
    ["☕", 2],
    ["1️⃣", 2],
    ["cafe\u0301", 4],
    ["日本語", 6],
    ["שָׁלוֹם", 4],
    ["abc", 3],
  ])("%s takes %i cells", (text, cells) => {
    expect(cellWidth(text)).toBe(cells);
  });

  it("counts a ZWJ sequence, a skin tone and a flag at least as wide as an emoji", () => {
    for (const emoji of ["👨‍👩‍👧‍👦", "👍🏽", "🇯🇵"]) expect(cellWidth(emoji)).toBeGreaterThanOrEqual(2);
  });
});

describe("clipToCells", () => {
  it("cuts between whole characters at every width: no half emoji, no accent or joiner left behind, never wider", () => {
    for (let width = 2; width <= cellWidth(GOAL); width++) {
      const clipped = clipToCells(GOAL, width);
      expect(cellWidth(clipped), clipped).toBeLessThanOrEqual(width);
      expect(clipped, clipped).not.toMatch(LONE_SURROGATE);
      const kept = clipped.endsWith("…") ? clipped.slice(0, -1) : clipped;
      expect(GOAL.startsWith(kept), clipped).toBe(true);
      expect(GOAL.slice(kept.length).trimStart(), clipped).not.toMatch(CONTINUES);
    }
  });

  it("keeps a ZWJ sequence whole or leaves it out", () => {
    const family = "👨‍👩‍👧‍👦";
    for (let width = 2; width < 12; width++) {
      const clipped = clipToCells(`ab ${family} cd`, width);
      expect(clipped.includes("👨") === clipped.includes("👦"), clipped).toBe(true);
    }
  });
});

describe("wrapToCells", () => {
  it("wraps a goal of wide and combining characters into rows no wider than the width", () => {
    for (const width of [30, 40, 60]) {
      const rows = wrapToCells(`  goal: ${GOAL}`, width, 4);
      for (const row of rows) {
        expect(cellWidth(row), row).toBeLessThanOrEqual(width);
        expect(row, row).not.toMatch(LONE_SURROGATE);
      }
    }
  });
});

describe("clipToChars", () => {
  it("cuts to a number of characters between whole clusters", () => {
    for (let max = 2; max < GOAL.length; max++) {
      const clipped = clipToChars(GOAL, max);
      expect(clipped.length, clipped).toBeLessThanOrEqual(max);
      expect(clipped, clipped).not.toMatch(LONE_SURROGATE);
      expect(GOAL.slice(clipped.length - 1), clipped).not.toMatch(CONTINUES);
    }
  });
});

describe("a line of megabytes (a reply with no line break)", () => {
  const line = `${"é ".repeat(10)}${"x".repeat(50 * 1024 * 1024)}`;

  it("is cut from its start alone (it was split whole first: seconds)", () => {
    // Counted, not timed: the characters read through a string's iterator while it is cut.
    const strings = String.prototype as { [Symbol.iterator](): Iterator<string> };
    const iterate = strings[Symbol.iterator];
    let read = 0;
    strings[Symbol.iterator] = function (this: string) {
      const chars = iterate.call(this);
      return {
        next: () => {
          read++;
          return chars.next();
        },
        [Symbol.iterator]() {
          return this;
        },
      };
    };
    try {
      expect(clipToChars(line, 200)).toBe(`${line.slice(0, 199)}…`);
      expect(clipToCells(line, 40)).toBe(`${line.slice(0, 39)}…`);
    } finally {
      strings[Symbol.iterator] = iterate;
    }
    expect(read).toBeGreaterThan(0);
    expect(read).toBeLessThan(1_000);
  });

  it("cuts as before: within the width, between two clusters, whole when it fits", () => {
    const family = "\u{1F468}\u200D\u{1F469}\u200D\u{1F467}";
    const parts = ["a", " ", "é", "e\u0301", "中", family, "\u{1F1EB}\u{1F1F7}", "\u2764\uFE0F", "\u0301"];
    for (let seed = 1; seed < 400; seed++) {
      const text = Array.from({ length: seed % 23 }, (_, i) => parts[(seed * 7 + i * i) % parts.length]).join("");
      for (const width of [1, 2, 3, 5, 8, 13]) {
        const clipped = clipToCells(text, width);
        if (cellWidth(text) <= width) expect(clipped).toBe(text);
        else {
          expect(clipped.endsWith("…")).toBe(true);
          expect(cellWidth(clipped)).toBeLessThanOrEqual(width);
          expect(text.startsWith(clipped.slice(0, -1).trimEnd())).toBe(true);
        }
      }
    }
  });
});
