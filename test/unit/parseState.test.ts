import { describe, expect, it } from "vitest";
import { LoopError } from "../../src/core/errors.js";
import { parseState } from "../../src/core/parseState.js";

const file = (front: string, body = "Goal\n") => `---\n${front}---\n${body}`;

function refusal(text: string): LoopError {
  try {
    parseState(text, "state.md");
  } catch (error) {
    if (error instanceof LoopError) return error;
    throw error;
  }
  throw new Error("expected parseState to refuse the file");
}

describe("parseState defaults and values", () => {
  it("applies every default", () => {
    const state = parseState(file(""), "s.md");
    expect(state).toMatchObject({
      active: true,
      iteration_count: 1,
      max_iterations: 10,
      completion_promise: [],
      promise_format: "substring",
      completion_threshold: 1,
      max_duration: undefined,
      max_tokens: undefined,
      verify: undefined,
      verify_timeout: 300,
      notes_file: undefined,
      stall_limit: 3,
      require_todos_done: false,
      session_id: undefined,
      started_at: undefined,
      body: "Goal\n",
    });
  });

  it.each([
    ["active: false\n", { active: false }],
    ["iteration_count: 7\n", { iteration_count: 7 }],
    ["max_iterations: 10000\n", { max_iterations: 10000 }],
    ['completion_promise: "All tests passing"\n', { completion_promise: ["All tests passing"] }],
    ["completion_promise: [a, b]\n", { completion_promise: ["a", "b"] }],
    ["completion_promise:\n  - one\n  - two\n", { completion_promise: ["one", "two"] }],
    ["promise_format: tag\n", { promise_format: "tag" }],
    ["completion_threshold: 3\n", { completion_threshold: 3 }],
    ["max_duration: 90s\n", { max_duration: 90 }],
    ["max_duration: 45m\n", { max_duration: 2700 }],
    ["max_duration: 2h\n", { max_duration: 7200 }],
    ["max_duration: 1d\n", { max_duration: 86400 }],
    ["max_duration: 120\n", { max_duration: 120 }],
    ["max_tokens: 5000\n", { max_tokens: 5000 }],
    ['verify: "npm test"\n', { verify: "npm test" }],
    ["verify_timeout: 10m\n", { verify_timeout: 600 }],
    ["notes_file: NOTES.md\n", { notes_file: "NOTES.md" }],
    ["stall_limit: 0\n", { stall_limit: 0 }],
    ["require_todos_done: true\n", { require_todos_done: true }],
    ["session_id: abc-123\n", { session_id: "abc-123" }],
    ["started_at: 2026-01-31T09:00:00Z\n", { started_at: "2026-01-31T09:00:00Z" }],
    ["max_tokens:\n", { max_tokens: undefined }],
    ["unknown_key: {nested: [1, 2]}\n", { max_iterations: 10 }],
  ])("reads %j", (front, expected) => {
    expect(parseState(file(front), "s.md")).toMatchObject(expected);
  });

  it.each([
    ["CRLF", "---\r\nmax_iterations: 4\r\n---\r\nGoal\r\n", { max_iterations: 4, body: "Goal\r\n" }],
    ["BOM", "\uFEFF---\nmax_iterations: 4\n---\nGoal\n", { max_iterations: 4, body: "Goal\n" }],
    ["BOM and CRLF", "\uFEFF---\r\nactive: false\r\n---\r\nGo\r\n", { active: false, body: "Go\r\n" }],
    ["empty frontmatter", "---\n---\nGoal", { body: "Goal" }],
    ["comments only", "---\n# note\n---\nGoal", { max_iterations: 10 }],
    ["trailing blanks on delimiters", "---  \nmax_iterations: 2\n--- \nGoal", { max_iterations: 2, body: "Goal" }],
    ["body with --- inside", "---\na: 1\n---\nx\n---\ny\n", { body: "x\n---\ny\n" }],
  ])("accepts %s", (_name, text, expected) => {
    expect(parseState(text, "s.md")).toMatchObject(expected);
  });
});

describe("parseState refusals name the file, field, line and expected value", () => {
  it.each([
    ["active", "active: yes\n", "true or false"],
    ["active", "active: 1\n", "true or false"],
    ["iteration_count", "iteration_count: 0\n", "at least 1"],
    ["iteration_count", "iteration_count: 1.5\n", "whole number"],
    ["max_iterations", "max_iterations: 0\n", "1 to 10000"],
    ["max_iterations", "max_iterations: 10001\n", "1 to 10000"],
    ["max_iterations", "max_iterations: -3\n", "1 to 10000"],
    ["max_iterations", "max_iterations: ten\n", "1 to 10000"],
    ["max_iterations", 'max_iterations: "10"\n', "1 to 10000"],
    ["completion_promise", "completion_promise: 42\n", "non-empty string"],
    ["completion_promise", 'completion_promise: ""\n', "non-empty string"],
    ["completion_promise", "completion_promise: []\n", "non-empty string"],
    ["completion_promise", "completion_promise: [ok, 3]\n", "non-empty string"],
    ["completion_promise", "completion_promise: {a: 1}\n", "non-empty string"],
    ["promise_format", "promise_format: regex\n", "substring or tag"],
    ["completion_threshold", "completion_threshold: 0\n", "1 to 1000"],
    ["max_duration", "max_duration: soon\n", "duration"],
    ["max_duration", "max_duration: -5\n", "duration"],
    ["max_duration", "max_duration: 0\n", "duration"],
    ["max_tokens", "max_tokens: 0\n", "output tokens"],
    ["max_tokens", "max_tokens: lots\n", "output tokens"],
    ["verify", "verify: [npm, test]\n", "shell command"],
    ["verify", 'verify: ""\n', "shell command"],
    ["verify_timeout", "verify_timeout: forever\n", "duration"],
    ["notes_file", "notes_file: 3\n", "inside the project"],
    ["stall_limit", "stall_limit: -1\n", "0 (off)"],
    ["require_todos_done", "require_todos_done: sometimes\n", "true or false"],
    ["session_id", "session_id: [a]\n", "session"],
    ["started_at", "started_at: yesterday\n", "ISO-8601"],
    // A time without its zone is read in the machine's time zone: the loop's start would move with TZ or DST.
    ["started_at", "started_at: 2026-10-25T02:30:00\n", "with its zone"],
    ["started_at", "started_at: 2026-10-25 02:30\n", "with its zone"],
    ["started_at", 'started_at: "Sun Oct 25 2026 02:30"\n', "with its zone"],
  ])("%s: refuses %j", (field, front, expected) => {
    const error = refusal(file(`# comment\n${front}`));
    expect(error.code).toBe("STATE_BAD_FIELD");
    expect(error.details).toMatchObject({ file: "state.md", field, line: 3 });
    expect(error.details.expected).toContain(expected);
    expect(error.describe()).toMatch(/^state\.md line 3: /);
  });

  it("reports the first bad field in file order", () => {
    const error = refusal(file("max_tokens: x\nactive: 3\n"));
    expect(error.details.field).toBe("max_tokens");
    expect(error.details.line).toBe(2);
  });

  it.each([
    ["[ 10,000 deep", `---\nmax_iterations: 5\nx: ${"[".repeat(10_000)}${"]".repeat(10_000)}\n---\nGoal\n`],
    ["{a: 10,000 deep", `---\nmax_iterations: 5\nx: ${"{a: ".repeat(10_000)}1${"}".repeat(10_000)}\n---\nGoal\n`],
    [
      "a: indented 1,400 deep",
      `---\nmax_iterations: 5\nx:\n${Array.from({ length: 1400 }, (_, i) => `${" ".repeat(i + 1)}a:\n`).join("")}---\nGoal\n`,
    ],
    // Past the limit, short of any stack: refused by the limit, cold or warm.
    ["[ 101 deep", `---\nmax_iterations: 5\nx: ${"[".repeat(101)}${"]".repeat(101)}\n---\nGoal\n`],
  ])("refuses values nested %s, saying so in a person's words", (_name, text) => {
    const error = refusal(text);
    expect(error.code).toBe("STATE_BAD_YAML");
    expect(error.details.line).toBeGreaterThanOrEqual(3);
    expect(error.details.received).toMatch(/^values nested too deep to be read/);
    expect(error.details.expected).toBe("at most 100 levels of [, { or indentation inside one another");
  });

  it("reads values nested 100 deep, and refuses 1,400 levels of indentation once yaml's parser is warm", () => {
    const nested = (n: number) => `---\nmax_iterations: 5\nx: ${"[".repeat(n)}${"]".repeat(n)}\n---\nGoal\n`;
    expect(parseState(nested(100), "state.md").max_iterations).toBe(5);
    // A warm parser's frames are smaller: 1,400 levels then fit yaml's stack, and only the limit refuses them.
    for (let i = 0; i < 300; i++) parseState(nested(90), "state.md");
    const indented = `---\nmax_iterations: 5\nx:\n${Array.from({ length: 1400 }, (_, i) => `${" ".repeat(i + 1)}a:\n`).join("")}---\nGoal\n`;
    expect(refusal(indented).details.received).toMatch(/^values nested too deep to be read/);
  });

  it.each([
    [
      "UTF-16 LE with its BOM (Notepad's Unicode)",
      "\uFEFF---\r\nmax_iterations: 3\r\n---\r\nGoal\r\n",
      "utf16le",
      "UTF-16 LE",
    ],
    ["UTF-16 LE without a BOM", "---\nmax_iterations: 3\n---\nGoal\n", "utf16le", "UTF-16 LE"],
    ["UTF-16 BE with its BOM", "\uFEFF---\nmax_iterations: 3\n---\nGoal\n", "utf16be", "UTF-16 BE"],
    ["UTF-32 LE: not named UTF-16", "\uFEFF---\nmax_iterations: 3\n---\nGoal\n", "utf32le", undefined],
    ["Latin-1: not named UTF-16", "---\nmax_iterations: 3\n---\nCaf\u00e9 na\u00efve\n", "latin1", undefined],
  ] as const)("names the encoding of %s and how to save it as UTF-8", (_name, text, encoding, named) => {
    const bytes =
      encoding === "utf16be"
        ? Buffer.from(text, "utf16le").swap16()
        : encoding === "utf32le"
          ? Buffer.from([...text].flatMap((c) => [c.codePointAt(0)! & 0xff, c.codePointAt(0)! >> 8, 0, 0]))
          : Buffer.from(text, encoding);
    const error = refusal(bytes.toString("utf8"));
    expect(error.code).toBe("STATE_NOT_TEXT");
    if (named === undefined) {
      expect(error.message).toBe("the file is not UTF-8 text");
      expect(error.details.received).not.toContain("UTF-16");
      return;
    }
    expect(error.message).toBe(`the file is ${named} text, not UTF-8`);
    expect(error.details).toMatchObject({ file: "state.md", line: 1 });
    expect(error.details.received).toContain(named);
    expect(error.details.expected).toContain("save it again as UTF-8");
  });

  it.each([
    ["no frontmatter", "Just a goal\n", "STATE_NO_FRONTMATTER", 1],
    ["language after ---", "---yaml\na: 1\n---\n", "STATE_NO_FRONTMATTER", 1],
    ["unclosed", "---\nmax_iterations: 3\nGoal\n", "STATE_UNCLOSED_FRONTMATTER", undefined],
    ["bad YAML", "---\nmax_iterations: [1,\n---\nGoal\n", "STATE_BAD_YAML", undefined],
    ["tab indentation", "---\na:\n\t- b\n---\n", "STATE_BAD_YAML", undefined],
    ["duplicate key", "---\nmax_iterations: 3\nmax_iterations: 4\n---\n", "STATE_BAD_YAML", 3],
    ["a list, not fields", "---\n- a\n- b\n---\n", "STATE_NOT_MAPPING", 2],
    ["a scalar", "---\njust text\n---\n", "STATE_NOT_MAPPING", 2],
    ["binary", "---\na: \u0000\u0001\n---\n", "STATE_NOT_TEXT", undefined],
    ["ambiguous closing line", "---\na: 1\n---x\n---\nGoal", "STATE_BAD_YAML", 3],
    ["empty file", "", "STATE_NO_FRONTMATTER", 1],
    ["no goal", "---\nmax_iterations: 3\n---\n", "STATE_NO_GOAL", 3],
    ["no goal, no line break after ---", "---\na: 1\n---", "STATE_NO_GOAL", 3],
    ["a goal of blank lines, CRLF", "---\r\na: 1\r\n---\r\n\r\n  \t\r\n", "STATE_NO_GOAL", 3],
  ])("refuses %s", (_name, text, code, line) => {
    const error = refusal(text);
    expect(error.code).toBe(code);
    expect(error.details.file).toBe("state.md");
    if (line !== undefined) expect(error.details.line).toBe(line);
    expect(error.details.expected).toBeTruthy();
  });

  it.each([
    ["a [ list", "max_iterations: [6   # keep\nsession_id: s1\niteration_count: 3\n", "max_iterations", "end with a ]"],
    ["a { map", "max_iterations: 6\ncompletion_promise: {DONE\nsession_id: s1\n", "completion_promise", "end with a }"],
    ["a quote", 'max_iterations: 6\ncompletion_promise: "DONE\nsession_id: s1\n', "completion_promise", "quote"],
  ])(
    "names the field and the line where %s was opened and never closed, with yaml's whole reason",
    (_what, fields, field, why) => {
      const error = refusal(file(fields));
      expect(error.code).toBe("STATE_BAD_YAML");
      expect(error.details.field).toBe(field);
      expect(error.details.line).toBe(fields.split("\n").findIndex((line) => line.startsWith(`${field}:`)) + 2);
      expect(error.describe()).toContain(why);
    },
  );

  it("names the goal and what it should say when it is empty, after the fields' own problems", () => {
    const error = refusal(file("max_iterations: 3\n", "\n\n"));
    expect(error.describe()).toBe(
      'state.md line 3: goal: nothing is written below the closing ---. Expected what the loop should do, e.g. "Fix the failing tests in test/auth.test.ts"',
    );
    expect(refusal(file("max_iterations: ten\n", "")).code).toBe("STATE_BAD_FIELD");
  });

  it("refuses a YAML alias bomb instead of expanding it", () => {
    const rows = ["a: &a [x, x, x, x, x, x, x, x, x, x]"];
    for (let i = 1; i < 9; i++)
      rows.push(
        `${"abcdefghij"[i]}: &${"abcdefghij"[i]} [${Array(10)
          .fill(`*${"abcdefghij"[i - 1]}`)
          .join(", ")}]`,
      );
    const error = refusal(file(`${rows.join("\n")}\n`));
    expect(error.code).toBe("STATE_BAD_YAML");
    expect(error.message).toContain("aliases");
  });
});
