// Property-based tests (fast-check): parseState → editFrontmatter → parseState round trips keep
// every byte the user wrote.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { editFrontmatter, parseFrontmatter } from "../../src/core/frontmatter.js";
import { parseState } from "../../src/core/parseState.js";
import { isoTime, RUNS, runtime, stateFile, userText } from "../support/stateFileArbitraries.js";

/** What the Stop hook writes: any subset of its own keys, with any values they can take. */
const hookUpdates = fc.record(
  {
    iteration_count: fc.integer({ min: 1, max: 1_000_000 }),
    session_id: userText(20).filter((s) => s.trim() !== ""),
    started_at: isoTime,
    runtime,
  },
  { requiredKeys: [] },
);

/** The frontmatter lines that are not the given top-level keys (and their continuation lines). */
function linesWithout(text: string, keys: string[]): string[] {
  const out: string[] = [];
  let skipping = false;
  for (const line of text.split("\n")) {
    const key = /^([A-Za-z_][\w]*):/.exec(line)?.[1];
    if (key !== undefined || /^\S/.test(line)) skipping = key !== undefined && keys.includes(key);
    if (!skipping) out.push(line.replace(/\r$/, ""));
  }
  return out;
}

describe("parseState → editFrontmatter → parseState round trips", () => {
  it("keep the body byte for byte, untouched keys and lines identical, updated keys equal", () => {
    fc.assert(
      fc.property(stateFile, hookUpdates, (file, updates) => {
        const before = parseState(file.text, "s.md");
        expect(before.body).toBe(file.body);
        const out = editFrontmatter(file.text, updates, "s.md");
        const after = parseState(out, "s.md");
        expect(after.body).toBe(file.body);
        expect(out.endsWith(`---${file.newline}${file.body}`)).toBe(true);
        expect(out.startsWith(file.text.slice(0, 3 + (file.text.startsWith("\uFEFF") ? 1 : 0)))).toBe(true);
        const data = parseFrontmatter(out, "s.md").data;
        const original = parseFrontmatter(file.text, "s.md").data;
        for (const [key, value] of Object.entries(updates)) expect(data[key]).toEqual(value);
        for (const key of Object.keys(original)) if (!(key in updates)) expect(data[key]).toEqual(original[key]);
        // Every other line, comment and blank line is where it was, as it was.
        const changed = Object.keys(updates);
        const split = (text: string) => linesWithout(text.slice(0, text.length - file.body.length), changed);
        expect(split(out)).toEqual(split(file.text));
        // A second save of the saved file works the same way.
        expect(parseState(editFrontmatter(out, { iteration_count: 7 }, "s.md"), "s.md")).toMatchObject({
          iteration_count: 7,
          body: file.body,
        });
      }),
      RUNS,
    );
  });
});
