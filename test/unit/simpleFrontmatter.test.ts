// readSimpleFrontmatter must read every block it accepts exactly as yaml does (data, key order,
// value offsets); everything else it must leave to yaml. Checked against yaml on generated blocks.
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import fc from "fast-check";
import { isMap, isScalar, parseDocument } from "yaml";
import { describe, expect, it } from "vitest";
import { readSimpleFrontmatter } from "../../src/core/simpleFrontmatter.js";
import { splitFrontmatter } from "../../src/core/splitFrontmatter.js";
import { REPO } from "../support/runHook.js";

/** What yaml makes of the block, with the offsets editFrontmatter would splice at. */
function readWithYaml(block: string) {
  const doc = parseDocument(block, { uniqueKeys: false, prettyErrors: false, logLevel: "error" });
  if (doc.errors.length > 0 || (doc.contents !== null && !isMap(doc.contents))) return undefined;
  const fields = isMap(doc.contents)
    ? doc.contents.items.map((pair) => {
        const value = pair.value as { range?: [number, number, number] } | null;
        let end = value?.range?.[1] ?? -1;
        while (end > 0 && /\s/.test(block[end - 1] ?? "")) end--;
        return {
          key: isScalar(pair.key) ? pair.key.value : pair.key,
          keyStart: isScalar(pair.key) ? pair.key.range?.[0] : -1,
          valueStart: value?.range?.[0] ?? -1,
          valueEnd: end,
        };
      })
    : [];
  return { data: (doc.toJS() as Record<string, unknown> | null) ?? {}, fields };
}

function expectSameAsYaml(block: string): boolean {
  const simple = readSimpleFrontmatter(block);
  if (simple === undefined) return false;
  const yaml = readWithYaml(block);
  expect(yaml, `yaml refuses a block the simple reader accepted: ${JSON.stringify(block)}`).toBeDefined();
  // (toStrictEqual compares `.constructor`, which a field named constructor changes.)
  expect(simple.data, JSON.stringify(block)).toEqual(yaml!.data);
  expect(JSON.stringify(simple.data)).toBe(JSON.stringify(yaml!.data));
  expect(simple.fields, JSON.stringify(block)).toEqual(yaml!.fields);
  return true;
}

const keys = fc.oneof(
  fc.constantFrom(
    "active",
    "iteration_count",
    "max_iterations",
    "completion_promise",
    "runtime",
    "notes_file",
    "a-b",
    "_x",
    "true",
    "Null",
    "NULL",
    "null",
    "on",
    "y",
    "__proto__",
    "constructor",
  ),
  fc.stringMatching(/^[A-Za-z_][A-Za-z0-9_-]{0,12}$/),
);
const words = fc.stringMatching(/^[A-Za-z0-9 _.\/\\()'",\[\]{}&*!|>%@`?=+~^$<;-]{1,24}$/);
const jsonish = fc.oneof(
  fc.string(),
  fc.integer(),
  fc.double(),
  fc.boolean(),
  fc.constant(null),
  fc.array(fc.oneof(fc.string(), fc.integer())),
  fc.dictionary(fc.string({ maxLength: 8 }), fc.oneof(fc.string(), fc.integer(), fc.boolean())),
);
const values = fc.oneof(
  fc.constantFrom(
    "",
    "~",
    "null",
    "Null",
    "true",
    "True",
    "TRUE",
    "false",
    "0",
    "-0",
    "007",
    "+5",
    "-12",
    "0o17",
    "0x1F",
    "1e3",
    "1.5",
    ".5",
    ".inf",
    "-.Inf",
    ".nan",
    "8h",
    "10m",
    "2026-01-15",
    "2026-01-15T09:00:00Z",
    "yes",
    "no",
    "SHARED_TASK_NOTES.md",
    "npm test",
    "it's done",
    "'single'",
    '"a"b"',
    "- item",
    "[a, b]",
    "{a: 1}",
    "&anchor x",
    "*alias",
    "!!str 5",
    "|",
    ">",
    "a: b",
    "a #b",
    "a# b",
    "\ttab",
    "é",
    "日本",
    "😀",
  ),
  words,
  fc.integer({ min: -1e16, max: 1e16 }).map(String),
  jsonish.map((v) => JSON.stringify(v)),
  jsonish.map((v) => JSON.stringify(v, null, 1)),
);
const comments = fc.constantFrom("", " # note", "   #note", "#no-space", " #", "\t# tab", " # é 😀");
const gaps = fc.constantFrom(" ", "  ", "", "\t", "   ");
const fieldLine = fc
  .tuple(keys, gaps, values, fc.constantFrom("", " ", "  "), comments)
  .map(([k, gap, v, trail, c]) => `${k}:${gap}${v}${trail}${c}`);
const otherLine = fc.constantFrom(
  "",
  "   ",
  "# comment",
  "  # indented comment",
  "  nested: 1",
  "- x",
  "...",
  "%YAML 1.2",
  "key:",
  "key: # only comment",
  "\t",
);
const blocks = fc
  .tuple(
    fc.array(fc.oneof({ weight: 4, arbitrary: fieldLine }, { weight: 1, arbitrary: otherLine }), { maxLength: 8 }),
    fc.constantFrom("\n", "\r\n"),
  )
  .map(([lines, nl]) => (lines.length ? `${nl}${lines.join(nl)}` : ""));

describe("readSimpleFrontmatter reads what yaml reads", () => {
  it("on generated blocks: the same data, key order and value offsets, or undefined", () => {
    let accepted = 0;
    fc.assert(
      fc.property(blocks, (block) => {
        if (expectSameAsYaml(block)) accepted++;
      }),
      { numRuns: 3000 },
    );
    // The generator must exercise the fast path, not only the fallback.
    expect(accepted).toBeGreaterThan(300);
  });

  it("on lines the hooks write and the templates hold", () => {
    const runtime = {
      promise_streak: 0,
      output_tokens: 48213,
      tokens_by_model: { "claude-opus-4-5": 48213 },
      transcript: "/home/u/.claude/projects/p/s.jsonl",
      transcript_offset: 208_000_123,
      stall_count: 0,
      last_turn: "5a1e0c3b",
      last_message_id: "msg_01",
      last_message_tokens: 120,
    };
    const written = `\nactive: true\niteration_count: 4\nsession_id: "3f1c9b2e"\nstarted_at: "2026-01-15T09:00:00.000Z"\ncompletion_promise: ["ALL DONE","it's \\"done\\""]\nruntime: ${JSON.stringify(runtime)}`;
    expect(expectSameAsYaml(written)).toBe(true);
    for (const name of readdirSync(join(REPO, "templates")).filter((n) => n.endsWith(".md"))) {
      const { yaml } = splitFrontmatter(readFileSync(join(REPO, "templates", name), "utf8"));
      expect(expectSameAsYaml(yaml), `templates/${name}`).toBe(true);
    }
  });

  it.each([
    ["a list", "\ncompletion_promise:\n  - a\n  - b"],
    ["a null", "\nsession_id:"],
    ["a float", "\nmax_duration: 1.5"],
    ["single quotes", "\nverify: 'npm test'"],
    ["a duplicate key", "\na: 1\na: 2"],
    ["an alias", "\na: &x 1\nb: *x"],
    ["flow style", "\n{a: 1}"],
    ["JSON with spaces", '\nruntime: { "a": 1 }'],
    ["a word yaml reads as null", "\nnotes_file: Null"],
  ])("leaves %s to yaml", (_name, block) => {
    expect(readSimpleFrontmatter(block)).toBeUndefined();
  });
});
