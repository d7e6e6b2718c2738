import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { editFrontmatter, parseFrontmatter } from "../../src/core/frontmatter.js";
import { parseState } from "../../src/core/parseState.js";

describe("editFrontmatter keeps what the user wrote", () => {
  it.each([
    [
      "an existing field, comments and odd spacing kept",
      "---\n# my loop\nmax_iterations:   5   # cap\niteration_count: 1 # turn\ncustom: keep me\n---\nGoal\n  indented\n",
      { iteration_count: 2 },
      "---\n# my loop\nmax_iterations:   5   # cap\niteration_count: 2 # turn\ncustom: keep me\n---\nGoal\n  indented\n",
    ],
    [
      "a new field appended as the last line",
      "---\nmax_iterations: 5\n---\nGoal",
      { session_id: "abc" },
      '---\nmax_iterations: 5\nsession_id: "abc"\n---\nGoal',
    ],
    [
      "CRLF and BOM",
      "\uFEFF---\r\nmax_iterations: 5\r\niteration_count: 1\r\n---\r\nGoal\r\n",
      { iteration_count: 3, started_at: "2026-01-01T00:00:00.000Z" },
      '\uFEFF---\r\nmax_iterations: 5\r\niteration_count: 3\r\nstarted_at: "2026-01-01T00:00:00.000Z"\r\n---\r\nGoal\r\n',
    ],
    [
      "a key with no value",
      "---\niteration_count:\n---\nGoal",
      { iteration_count: 2 },
      "---\niteration_count: 2\n---\nGoal",
    ],
    ["an empty frontmatter", "---\n---\nGoal", { iteration_count: 2 }, "---\niteration_count: 2\n---\nGoal"],
    [
      "a quoted value replaced",
      "---\nsession_id: 'old'   # owner\n---\n",
      { session_id: "new" },
      '---\nsession_id: "new"   # owner\n---\n',
    ],
    [
      "a multi-line value replaced by one line",
      "---\nruntime:\n  a: 1\n  b: 2\nafter: x\n---\n",
      { runtime: { a: 3 } },
      '---\nruntime: {"a":3}\nafter: x\n---\n',
    ],
  ])("%s", (_name, before, updates, after) => {
    expect(editFrontmatter(before, updates)).toBe(after);
  });

  it("never touches the body, even when it looks like frontmatter", () => {
    const body = "\n---\niteration_count: 99\n---\n`$(rm -rf /)` 'quotes' \"double\"\r\n\u00e9\u{1F600}\n";
    const out = editFrontmatter(`---\niteration_count: 1\n---${body}`, { iteration_count: 2 });
    expect(out.endsWith(body)).toBe(true);
    expect(parseState(out).iteration_count).toBe(2);
  });

  it("re-renders a flow-style frontmatter through the yaml Document", () => {
    const out = editFrontmatter("---\n{max_iterations: 4, iteration_count: 1}\n---\nGoal", { iteration_count: 2 });
    expect(parseState(out)).toMatchObject({ max_iterations: 4, iteration_count: 2, body: "Goal" });
  });

  it("round-trips strings that need quoting", () => {
    const value = 'it\'s "done": #1 \n next';
    const out = editFrontmatter("---\na: 1\n---\nGoal\n", { session_id: value });
    expect(parseState(out).session_id).toBe(value);
  });
});

describe("a number or true/false spliced in place reads back as itself", () => {
  // editFrontmatter parses its result again only for edits beyond this one; the full parse must agree.
  const forms = [
    "4",
    "+4",
    "0x4",
    "4.0",
    "4   # a comment",
    "&turn 4",
    "!!int 4",
    "!!str 4",
    "'4'",
    '"4"',
    "true",
    "null",
    "~",
    "four",
    "4\n  continued",
    "[4]",
    "{a: 4}",
  ];
  it("for every way a user writes the old value, and any new whole number or boolean", () => {
    const value = fc.oneof(
      fc.integer({ min: -1e12, max: 1e12 }),
      fc.boolean(),
      fc.double({ noNaN: true, noDefaultInfinity: true }),
    );
    fc.assert(
      fc.property(fc.constantFrom(...forms), value, fc.constantFrom("\n", "\r\n"), (form, update, nl) => {
        const text = `---${nl}max_iterations: 9${nl}iteration_count: ${form.replace(/\n/g, nl)}${nl}custom: x${nl}---${nl}Goal${nl}`;
        let out: string;
        try {
          out = editFrontmatter(text, { iteration_count: update });
        } catch {
          return; // refused: the file is left as it is
        }
        // As JSON, as the read-back compares (-0 is written 0).
        expect(JSON.stringify(parseFrontmatter(out).data)).toBe(
          JSON.stringify({ max_iterations: 9, iteration_count: update, custom: "x" }),
        );
        expect(out.endsWith(`---${nl}Goal${nl}`)).toBe(true);
      }),
      { numRuns: Number(process.env.FC_RUNS ?? 400) * 5 },
    );
  });
});
