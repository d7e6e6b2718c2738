// The screen-reading helpers on rows like the ones Claude Code draws (no terminal needed).
import { describe, expect, it } from "vitest";
import { bellCount, iterationRows, oscPayloads, rowsBetween } from "./support/screen.js";

const ROWS = [
  "❯ /continuation-loop:loop-start Write it",
  "",
  "● First reply.",
  "",
  "● Ran 1 stop hook",
  "  ⎿  hook text",
  "",
  "     more hook text",
  "",
  "● Second reply (with a parenthesis).",
  "",
  "● Second reply (with a parenthesis). again",
];

describe("screen rows", () => {
  it("counts the rows between two replies, inner blank rows included, outer ones not", () => {
    expect(iterationRows(ROWS, "First reply.", "Second reply (with a parenthesis).")).toEqual([
      "● Ran 1 stop hook",
      "  ⎿  hook text",
      "",
      "     more hook text",
    ]);
  });

  it("matches a reply row exactly, not a row that merely starts with the reply", () => {
    expect(
      iterationRows(ROWS, "Second reply (with a parenthesis).", "Second reply (with a parenthesis). again"),
    ).toEqual([]);
  });

  it("is undefined when either row is missing", () => {
    expect(rowsBetween(ROWS, /nothing/, /Second/)).toBeUndefined();
    expect(rowsBetween(ROWS, /First/, /nothing/)).toBeUndefined();
  });
});

describe("raw terminal output", () => {
  it("counts bells outside OSC sequences only", () => {
    const raw = "a\x07b\x1b]0;title\x07c\x1b]9;done\x1b\\d\x07";
    expect(bellCount(raw)).toBe(2);
    expect(oscPayloads(raw)).toEqual(["0;title", "9;done"]);
  });
});
