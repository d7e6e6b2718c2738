import { describe, expect, it } from "vitest";
import { LoopError } from "../../src/core/errors.js";
import { flagOf, USER_FIELDS } from "../../src/core/fields.js";
import { parseStartArgs, parseStartArgv } from "../../src/core/parseStartArgs.js";
import { renderStartCard, renderStartUsage } from "../../src/core/renderStart.js";

function refusal(run: () => unknown): LoopError {
  try {
    run();
  } catch (error) {
    if (error instanceof LoopError) return error;
    throw error;
  }
  throw new Error("expected a LoopError");
}

describe("parseStartArgs: the goal is the rest of the line, verbatim", () => {
  it.each([
    ["plain words", "Fix the failing tests", "Fix the failing tests"],
    ["double quotes", 'Fix "the" parser', 'Fix "the" parser'],
    ["apostrophes", "don't break what's working", "don't break what's working"],
    ["an unbalanced quote", 'say "hello', 'say "hello'],
    ["command substitution", "run $(touch /tmp/pwned) now", "run $(touch /tmp/pwned) now"],
    ["backticks", "see `rm -rf /` here", "see `rm -rf /` here"],
    ["a bang-backtick pattern", "!`touch /tmp/x` and more", "!`touch /tmp/x` and more"],
    ["semicolons and pipes", "a; b && c | d > e", "a; b && c | d > e"],
    ["variables", "use $HOME and ${PATH} and %TEMP%", "use $HOME and ${PATH} and %TEMP%"],
    ["newlines", "line one\nline two\n\n  indented", "line one\nline two\n\n  indented"],
    ["CRLF and tabs", "a\r\nb\tc", "a\r\nb\tc"],
    ["unicode", "héllo wörld — 日本語 🚀", "héllo wörld — 日本語 🚀"],
    ["backslashes", "C:\\path\\to\\file \\n", "C:\\path\\to\\file \\n"],
    ["double dashes inside the goal", "Fix it -- then --force the push", "Fix it -- then --force the push"],
    ["a single-dash word first", "-v is broken", "-v is broken"],
    ["a number after two dashes", "--5 retries fail", "--5 retries fail"],
    ["a YAML-looking goal", "---\nactive: false\n---", "---\nactive: false\n---"],
    ["leading whitespace dropped, trailing kept", "  \n goal  ", "goal  "],
  ])("%s", (_name, line, goal) => {
    const request = parseStartArgs(line);
    expect(request.goal).toBe(goal);
    expect(request.fields).toEqual({});
  });
});

describe("parseStartArgs: options first, values may be quoted", () => {
  it.each([
    ["--max-iterations 5 Go", { max_iterations: 5 }, "Go"],
    ["--max-iterations=5 Go", { max_iterations: 5 }, "Go"],
    ["--max_iterations 5 Go", { max_iterations: 5 }, "Go"],
    [`--completion-promise "it's done" Go`, { completion_promise: "it's done" }, "Go"],
    [`--completion-promise 'say "yes"' Go`, { completion_promise: 'say "yes"' }, "Go"],
    [`--completion-promise "a \\"quoted\\" word" Go`, { completion_promise: 'a "quoted" word' }, "Go"],
    [`--completion-promise="it's done" Go`, { completion_promise: "it's done" }, "Go"],
    ["--completion-promise it's Go", { completion_promise: "it's" }, "Go"],
    [`--completion-promise "$(touch /tmp/p)" Go`, { completion_promise: "$(touch /tmp/p)" }, "Go"],
    ["--completion-promise A --completion-promise B Go", { completion_promise: ["A", "B"] }, "Go"],
    ["--scope src/parser Go", { scope: "src/parser" }, "Go"],
    ["--scope src/parser --scope test/parser Go", { scope: ["src/parser", "test/parser"] }, "Go"],
    ["--completion-promise '日本 語' Go", { completion_promise: "日本 語" }, "Go"],
    ["--require-todos-done Go", { require_todos_done: true }, "Go"],
    ["--require-todos-done=false Go", { require_todos_done: false }, "Go"],
    ["--active=false Go", { active: false }, "Go"],
    ["--max-duration 2h --max-tokens 5000 Go", { max_duration: "2h", max_tokens: 5000 }, "Go"],
    ["--max-duration 90 Go", { max_duration: 90 }, "Go"],
    ['--verify "npm test -- --run" Go', { verify: "npm test -- --run" }, "Go"],
    ["--notes-file 2024.md Go", { notes_file: "2024.md" }, "Go"],
    [
      "--promise-format tag --completion-threshold 2 --stall-limit 0 Go",
      { promise_format: "tag", completion_threshold: 2, stall_limit: 0 },
      "Go",
    ],
    ["--max-iterations 3 -- --force is the goal", { max_iterations: 3 }, "--force is the goal"],
    ["--max-iterations\n3\nGo\non", { max_iterations: 3 }, "Go\non"],
  ])("%s", (line, fields, goal) => {
    const request = parseStartArgs(line);
    expect(request.fields).toEqual(fields);
    expect(request.goal).toBe(goal);
  });

  it("reads --template and --force", () => {
    expect(parseStartArgs("--template tdd --force Go")).toMatchObject({ template: "tdd", force: true, goal: "Go" });
  });

  it('reads --bg and --worktree NAME (docs/REFERENCE.md "Leave it running")', () => {
    expect(parseStartArgs("--bg --max-iterations 3 Go")).toMatchObject({ background: true, goal: "Go" });
    expect(parseStartArgv(["--bg", "--worktree", "auth-fix", "Fix", "it"])).toMatchObject({
      background: true,
      worktree: "auth-fix",
      goal: "Fix it",
    });
    expect(parseStartArgs("Go --bg")).not.toHaveProperty("background");
    expect(() => parseStartArgs("--bg=yes Go")).toThrow(/takes no value/);
    expect(() => parseStartArgs("--worktree ../x Go")).toThrow(/invalid worktree name/);
  });

  it("lists a flag for every user field, none for the loop's own, aligned, under the command as typed", () => {
    const help = renderStartUsage("/continuation-loop:loop-start");
    expect(help.startsWith("Usage: /continuation-loop:loop-start [options] GOAL")).toBe(true);
    for (const field of USER_FIELDS) expect(help).toContain(`--${flagOf(field)}`);
    for (const field of ["iteration_count", "session_id", "started_at"] as const) {
      expect(help).not.toContain(`--${flagOf(field)}`);
      expect(() => parseStartArgs(`--${flagOf(field)} 3 Go`)).toThrow(/unknown option/);
    }
    // Every description starts in the same column, after at least two spaces.
    const rows = help.split("\n").filter((line) => line.startsWith("  --"));
    const columns = new Set(
      rows.map((line) => line.search(/\S {2,}\S/) + line.slice(line.search(/\S {2,}\S/)).search(/ \S/) + 1),
    );
    expect(columns.size).toBe(1);
  });

  it("--help needs no goal", () => {
    expect(parseStartArgs("--help").help).toBe(true);
    expect(parseStartArgs("--help").card).toBeUndefined();
  });

  it.each([
    ["nothing", ""],
    ["only whitespace", "   \n "],
    ["options and no goal", "--max-iterations 3"],
  ])("asks for the usage card when given %s", (_name, line) => {
    expect(parseStartArgs(line)).toMatchObject({ card: true, help: false });
  });

  it("reads --until as a field, quoted, with the goal after it", () => {
    expect(parseStartArgs('--until "npm test -- --run" Fix the failing tests')).toMatchObject({
      fields: { until: "npm test -- --run" },
      goal: "Fix the failing tests",
    });
    expect(parseStartArgv(["--until", "make check", "Fix", "it"])).toMatchObject({
      fields: { until: "make check" },
      goal: "Fix it",
    });
    expect(refusal(() => parseStartArgs('--until "" Go')).details.field).toBe("--until");
  });

  it("the card: three examples, --until first, under the command as typed", () => {
    for (const command of ["/loop-start", "/continuation-loop:loop-start"]) {
      const card = renderStartCard(command);
      const examples = card.split("\n").filter((line) => line.startsWith(`  ${command} --`));
      expect(examples).toHaveLength(3);
      expect(examples[0]).toBe(`  ${command} --until "npm test" Fix the failing tests`);
      expect(card).toContain("<promise>DONE</promise>");
      // The card heads --help, which lists every user field after it.
      expect(renderStartUsage(command).startsWith(card)).toBe(true);
      expect(renderStartUsage(command, 64).startsWith(renderStartCard(command, 64))).toBe(true);
    }
    expect(renderStartCard("/continuation-loop:loop-start")).toContain("/continuation-loop:loop-status");
    // From a terminal the card names the helper's own commands, which work there.
    expect(renderStartCard("continuation-loop start", 160)).toContain(
      "continuation-loop status shows the loop, continuation-loop stop ends it.",
    );
  });

  const EXPLAINED = /^ {6}— ends (when|on) /;

  it("at 140 cells each example is one row, its explanation after the command: 5 lines", () => {
    for (const command of ["/loop-start", "continuation-loop start"]) {
      const lines = renderStartCard(command, 140).split("\n");
      expect(lines).toHaveLength(5);
      for (const line of lines) expect(line.length, line).toBeLessThan(140);
      expect(lines[1]).toMatch(/Fix the failing tests {2}— ends when `npm test` exits 0$/);
      expect(lines.filter((line) => EXPLAINED.test(line))).toEqual([]);
    }
  });

  it.each([80, 64])("at %i cells each explanation goes on a row of its own under its command, kept whole", (cols) => {
    const command = "continuation-loop start";
    const lines = renderStartCard(command, cols).split("\n");
    const examples = lines.filter((line) => line.startsWith(`  ${command} --`));
    expect(examples).toHaveLength(3);
    for (const example of examples) {
      expect(example).not.toContain("—");
      expect(lines[lines.indexOf(example) + 1]).toMatch(EXPLAINED);
    }
    // At 80 every row fits; at 64 the head and last rows wrap under themselves, the commands are not cut.
    const wide = lines.filter((line) => line.length > cols - 1);
    expect(wide).toEqual(cols === 80 ? [] : examples.filter((line) => line.length > cols - 1));
    expect(lines.filter((line) => line.includes("…") && !line.includes("GOAL…"))).toEqual([]);
    expect(lines.at(-1)).toMatch(/^ {4}\S.*ends it\.$/);
  });

  it("a namespaced command in a session's answer (70 cells) takes the shorter examples, each whole on its row", () => {
    const lines = renderStartCard("/continuation-loop:loop-start", 71).split("\n");
    for (const line of lines) expect(line.length, line).toBeLessThanOrEqual(70);
    const examples = lines.filter((line) => line.startsWith("  /continuation-loop:loop-start --"));
    expect(examples).toEqual([
      '  /continuation-loop:loop-start --until "npm test" Fix the tests',
      "  /continuation-loop:loop-start --checklist PLAN.md Do the plan",
      '  /continuation-loop:loop-start --verify "npm run build" Add dark mode',
    ]);
    for (const example of examples) expect(lines[lines.indexOf(example) + 1]).toMatch(EXPLAINED);
    // The short command keeps the longer examples, limits and all.
    expect(renderStartCard("/loop-start", 71)).toContain(
      "/loop-start --checklist PLAN.md --max-iterations 30 Do the plan",
    );
  });

  it("with no width known (a pipe) the card is fitted to 80 columns", () => {
    for (const command of ["/loop-start", "/continuation-loop:loop-start"]) {
      const lines = renderStartCard(command).split("\n");
      expect(lines.filter((line) => EXPLAINED.test(line))).toHaveLength(3);
      expect(lines).toHaveLength(8);
    }
  });

  it("the card's examples carry no padding, which a terminal narrower than them wraps into a gap", () => {
    for (const command of ["/loop-start", "/continuation-loop:loop-start"]) {
      const examples = renderStartCard(command, 160)
        .split("\n")
        .filter((line) => line.startsWith(`  ${command} --`));
      // Each explanation follows its command at once: no run of spaces inside a row but the quoted words'.
      for (const line of examples) expect(line.trim(), line).not.toMatch(/ {3,}/);
      expect(examples[0]).toMatch(/Fix the failing tests +— ends when `npm test` exits 0$/);
    }
  });
});

describe("parseStartArgs refuses bad input with the flag and what was expected", () => {
  it.each([
    ["an unknown option", "--nope 5 Go", "unknown option --nope.", undefined],
    [
      "an option one letter off",
      "--max-iteration 5 Go",
      "unknown option --max-iteration (did you mean --max-iterations?)",
      undefined,
    ],
    ["a command option mistyped", "--nmae auth Go", "unknown option --nmae (did you mean --name?)", undefined],
    ["a field in another spelling", "--maxCost 5 Go", "unknown option --maxCost (did you mean --max-cost?)", undefined],
    ["a bad number", "--max-iterations abc Go", "invalid value", "--max-iterations"],
    ["a number out of range", "--max-iterations 0 Go", "invalid value", "--max-iterations"],
    ["a fraction", "--max-iterations 2.5 Go", "invalid value", "--max-iterations"],
    ["a bad duration", "--max-duration soon Go", "invalid value", "--max-duration"],
    ["a bad format", "--promise-format regex Go", "invalid value", "--promise-format"],
    ["a bad boolean", "--require-todos-done=maybe Go", "invalid value", "--require-todos-done"],
    ["an empty promise", '--completion-promise "" Go', "invalid value", "--completion-promise"],
    ["an unclosed quote", '--completion-promise "it is done Go', "never closed", "--completion-promise"],
    ["text glued to a closing quote", '--completion-promise "done"x Go', "followed by a space", "--completion-promise"],
    ["a missing value", "--max-iterations", "needs a value", "--max-iterations"],
    ["a repeated option", "--max-iterations 2 --max-iterations 3 Go", "given twice", "--max-iterations"],
    [
      "a scope written as a YAML list",
      '--scope "[src/parser, test/parser]" Go',
      "--scope src/parser --scope",
      "--scope",
    ],
    ["a value on --force", "--force=yes Go", "takes no value", "--force"],
    ["a bad template name", "--template ../../etc/passwd Go", "invalid template name", "--template"],
  ])("%s", (_name, line, message, field) => {
    const error = refusal(() => parseStartArgs(line));
    expect(error.code).toBe("USAGE");
    expect(error.describe()).toContain(message);
    if (field) expect(error.details.field).toBe(field);
    expect(error.describe()).toMatch(/Expected /);
  });
});

describe("parseStartArgv: the same options from a shell", () => {
  it.each([
    [["--max-iterations", "4", "Fix", "it"], { max_iterations: 4 }, "Fix it"],
    [["--completion-promise", "it's done", "Go"], { completion_promise: "it's done" }, "Go"],
    [["--completion-promise=a b", "Go"], { completion_promise: "a b" }, "Go"],
    [["--", "--not-an-option"], {}, "--not-an-option"],
    [["$(touch /tmp/p)", "`x`"], {}, "$(touch /tmp/p) `x`"],
  ])("%j", (argv, fields, goal) => {
    expect(parseStartArgv(argv)).toMatchObject({ fields, goal });
  });

  it("refuses an unknown option", () => {
    expect(refusal(() => parseStartArgv(["--nope", "Go"])).code).toBe("USAGE");
  });
});
