// `--help`'s flag rows: one column for the descriptions, wrapped under themselves within the width.
import { describe, expect, it } from "vitest";
import { renderOptionRows, renderParagraph } from "../../src/core/renderHelp.js";

const ROWS = [
  ["--name NAME", "a named loop"],
  ["--max-iterations N", "most turns in the loop, the first one counted (default 10)"],
] as const;

describe("renderOptionRows", () => {
  it("starts every description in one column and keeps each line within the width", () => {
    const lines = renderOptionRows(ROWS, 50);
    expect(lines).toEqual([
      "  --name NAME         a named loop",
      "  --max-iterations N  most turns in the loop, the",
      "                      first one counted (default",
      "                      10)",
    ]);
    for (const line of lines) expect(line.length).toBeLessThan(50);
  });

  it("keeps a row on one line when the terminal is wide enough, and reads no wider than 120 columns", () => {
    expect(renderOptionRows(ROWS, 200)).toEqual([
      "  --name NAME         a named loop",
      "  --max-iterations N  most turns in the loop, the first one counted (default 10)",
    ]);
    const long = renderOptionRows([["--x", "word ".repeat(60).trim()]], 500);
    expect(Math.max(...long.map((line) => line.length))).toBeLessThan(120);
  });

  it("puts descriptions under their flags when the flags leave too little room", () => {
    expect(renderOptionRows([["restore N|best [--name NAME] [--project DIR]", "put a checkpoint back"]], 40)).toEqual([
      "  restore N|best [--name NAME] [--project DIR]",
      "      put a checkpoint back",
    ]);
  });

  it("wraps at 80 columns when the output is no terminal", () => {
    const lines = renderOptionRows([["--x", "word ".repeat(40).trim()]]);
    expect(lines.length).toBeGreaterThan(1);
    for (const line of lines) expect(line.length).toBeLessThan(80);
  });
});

describe("renderParagraph", () => {
  it("cuts a word wider than a line across lines, and keeps every line within the width", () => {
    const lines = renderParagraph("a named loop: .claude/continuation-loop.NAME.local.md (a-z)", 21);
    expect(lines).toEqual(["a named loop:", ".claude/", "continuation-loop.NA", "ME.local.md (a-z)"]);
  });

  it("starts a path wider than a line on the line before, broken after a slash", () => {
    const lines = renderParagraph("a named loop: .claude/continuation-loop.NAME.local.md (a-z)", 36);
    expect(lines).toEqual(["a named loop: .claude/", "continuation-loop.NAME.local.md", "(a-z)"]);
  });
});
