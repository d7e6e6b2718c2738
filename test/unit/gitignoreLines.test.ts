import { describe, expect, it } from "vitest";
import { addGitignoreLines, GITIGNORE_ENTRIES, removeGitignoreLines } from "../../src/core/gitignoreLines.js";

describe("gitignore lines", () => {
  it.each([
    ["no file", undefined],
    ["an empty file", ""],
    ["a file with a final line break", "node_modules/\n"],
    ["a file without one", "node_modules/\ndist"],
    ["a CRLF file", "node_modules/\r\ndist\r\n"],
    ["a file with one entry already", "dist\n.claude/continuation-loop.local.md\n"],
  ])("adds the missing entries to %s and removes exactly them", (_name, text) => {
    const { text: added, record } = addGitignoreLines(text);
    for (const entry of GITIGNORE_ENTRIES) expect(added.split(/\r?\n/)).toContain(entry);
    expect(record).toBeDefined();
    expect(removeGitignoreLines(added, record!)).toBe(text ?? "");
    expect(addGitignoreLines(added).record).toBeUndefined();
  });

  it("removes its lines even after the user appended more", () => {
    const { text, record } = addGitignoreLines("dist\n");
    expect(removeGitignoreLines(`${text}build/\n`, record!)).toBe("dist\nbuild/\n");
  });

  it("changes nothing when every entry is there", () => {
    const full = `${GITIGNORE_ENTRIES.join("\n")}\n`;
    expect(addGitignoreLines(full)).toEqual({ text: full, record: undefined });
  });
});
