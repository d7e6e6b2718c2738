// The owner hint read from every loop file's head by the idle Stop, and the loop file names it
// recognises: tables of cases, and properties against the full YAML parse and the name pattern.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { LOOP_NAME, parseStateFileName } from "../../src/core/loopFileNames.js";
import { mayNameCommands, parseOwnerHint } from "../../src/core/ownerHint.js";
import { parseState } from "../../src/core/parseState.js";
import { parseFrontmatter } from "../../src/core/frontmatter.js";

const RUNS = { numRuns: Number(process.env.FC_RUNS ?? 400) };
const ID = "11111111-2222-4333-8444-555555555555";
/** Unquoted, a value that starts with a digit may be a number: left to the full parse. */
const PLAIN_ID = "a1111111-2222-4333-8444-555555555555";

describe("parseOwnerHint", () => {
  it.each([
    ["double-quoted", `---\nactive: true\nsession_id: "${ID}"\n---\nGoal\n`, ID],
    ["single-quoted", `---\nsession_id: '${ID}'\n---\n`, ID],
    ["plain", `---\nsession_id: ${PLAIN_ID}\n---\n`, PLAIN_ID],
    ["plain, starting with a digit", `---\nsession_id: ${ID}\n---\n`, undefined],
    ["plain, then a comment", `---\nsession_id: ${PLAIN_ID}   # mine\n---\n`, PLAIN_ID],
    ["tabs before the value", `---\nsession_id:\t\t"${ID}"\n---\n`, ID],
    ["CRLF", `---\r\nactive: true\r\nsession_id: "${ID}"\r\n---\r\nGoal\r\n`, ID],
    ["CRLF, plain", `---\r\nsession_id: ${PLAIN_ID}\r\n---\r\n`, PLAIN_ID],
    ["closing line with trailing spaces", `---\nsession_id: a\n---  \nbody\n`, "a"],
    ["no closing line (the head was cut)", `---\nactive: true\nsession_id: "${ID}"\n`, ID],
    ["no session_id", "---\nactive: true\n---\n", undefined],
    ["empty quoted", '---\nsession_id: ""\n---\n', undefined],
    ["empty", "---\nsession_id:\n---\n", undefined],
    ["only a comment", "---\nsession_id: # none\n---\n", undefined],
    ["in the body, not the frontmatter", "---\nactive: true\n---\nsession_id: x\n", undefined],
    ["after a closing line with text after it", "---\na: 1\n--- x\nsession_id: y\n---\n", "y"],
    ["indented (a nested key)", "---\nmeta:\n  session_id: x\n---\n", undefined],
    ["a number", "---\nsession_id: 42\n---\n", undefined],
    ["a negative number", "---\nsession_id: -1\n---\n", undefined],
    ["null", "---\nsession_id: null\n---\n", undefined],
    ["Null", "---\nsession_id: Null\n---\n", undefined],
    ["~", "---\nsession_id: ~\n---\n", undefined],
    ["true", "---\nsession_id: TRUE\n---\n", undefined],
    ["a list", "---\nsession_id: [a]\n---\n", undefined],
    ["a map", "---\nsession_id: {a: 1}\n---\n", undefined],
    ["an alias", "---\nsession_id: *x\n---\n", undefined],
    ["a block scalar", "---\nsession_id: |\n  x\n---\n", undefined],
    ["a quote left open", '---\nsession_id: "abc\n---\n', undefined],
    ["a quote closed after the frontmatter", '---\nsession_id: "abc\n---\n"\n', undefined],
    ["not ASCII", "---\nsession_id: caf\u00e9\n---\n", undefined],
    ["the first line", "session_id: x\n", "x"],
    ["a similar key", "---\nsession_ids: x\n---\n", undefined],
    ["plain with a space", "---\nsession_id: a b\n---\n", undefined],
    ["plain with a #", "---\nsession_id: a#b\n---\n", undefined],
    ["text after the quotes", '---\nsession_id: "a" b\n---\n', undefined],
    ["a comment after the quotes", '---\nsession_id: "a"  # b\n---\n', "a"],
    ["an escape", '---\nsession_id: "a\\x41"\n---\n', undefined],
    ["a doubled single quote", "---\nsession_id: 'it''s'\n---\n", undefined],
    ["+1", "---\nsession_id: +1\n---\n", undefined],
    [".5", "---\nsession_id: .5\n---\n", undefined],
  ])("%s", (_, text, expected) => {
    expect(parseOwnerHint(text)).toBe(expected);
  });

  // The hint only picks which file the full parse reads: it must never name an owner that the full
  // parse of the same frontmatter would not.
  const value = fc.oneof(
    fc.uuid(),
    fc.string({ maxLength: 12 }),
    fc.constantFrom("null", "~", "42", "-7", "true", "[a]", "{}", "*a", "|", "", "# c", "'x'", '"y"', "a b"),
  );
  const quoted = fc.tuple(fc.constantFrom("", '"', "'"), value).map(([q, v]) => `${q}${v}${q}`);
  const line = fc.oneof(
    quoted.map((v) => `session_id: ${v}`),
    quoted.map((v) => `session_id:\t${v} # note`),
    fc.constantFrom("active: true", "max_iterations: 5", "# comment", "", "  nested: 1", "---", "--- x"),
  );
  it("never names an owner the full parse does not", () => {
    fc.assert(
      fc.property(fc.array(line, { maxLength: 6 }), fc.constantFrom("\n", "\r\n"), (lines, eol) => {
        const text = `---${eol}${lines.join(eol)}${eol}---${eol}Goal${eol}`;
        const hint = parseOwnerHint(text);
        if (hint === undefined) return;
        let owner: unknown;
        try {
          owner = parseFrontmatter(text, "s.md").data.session_id;
        } catch {
          owner = "(refused)";
        }
        // A file the full parse refuses names no owner; the hook then reports it, whoever owns it.
        if (owner !== "(refused)") expect(owner).toBe(hint);
      }),
      RUNS,
    );
  });
});

describe("mayNameCommands", () => {
  it("is false only for a frontmatter that names no command, whatever the goal below says", () => {
    expect(mayNameCommands("---\nmax_iterations: 5\n---\nverify the until loop\n")).toBe(false);
    expect(mayNameCommands('---\nverify: "npm test"\n---\nGo\n')).toBe(true);
    expect(mayNameCommands('---\n"until": "make"\n---\nGo\n')).toBe(true);
    expect(mayNameCommands("---\n{metric: wc -l, max_iterations: 3}\n---\nGo\n")).toBe(true);
  });

  it("never says no to a state file whose parse names a command", () => {
    const field = fc.constantFrom("until", "metric", "verify");
    const key = fc.tuple(field, fc.constantFrom("", '"', "'")).map(([name, q]) => `${q}${name}${q}`);
    fc.assert(
      fc.property(key, fc.constantFrom("", "max_iterations: 4\n", "notify: true\n"), (k, before) => {
        const text = `---\n${before}${k}: "true"\n---\nGo\n`;
        const state = parseState(text, "s.md");
        const named = state.until !== undefined || state.metric !== undefined || state.verify !== undefined;
        return !named || mayNameCommands(text);
      }),
    );
  });
});

describe("parseStateFileName", () => {
  it.each([
    ["continuation-loop.local.md", "default"],
    ["continuation-loop.docs.local.md", "docs"],
    ["continuation-loop.a.local.md", "a"],
    ["continuation-loop.9-lives.local.md", "9-lives"],
    [`continuation-loop.${"a".repeat(40)}.local.md`, "a".repeat(40)],
    [`continuation-loop.${"a".repeat(41)}.local.md`, undefined],
    ["continuation-loop.-x.local.md", undefined],
    ["continuation-loop.Docs.local.md", undefined],
    ["continuation-loop..local.md", undefined],
    ["continuation-loop.a.b.local.md", undefined],
    ["continuation-loopx.local.md", undefined],
    ["continuation-loop.runtime.json", undefined],
    ["continuation-loop.docs.runtime.json", undefined],
    ["continuation-loop.history.jsonl", undefined],
    ["continuation-loop.local.md.bak", undefined],
    ["settings.json", undefined],
  ])("%s", (name, expected) => {
    expect(parseStateFileName(name)).toBe(expected);
  });

  it("agrees with the loop name pattern", () => {
    const pattern = /^continuation-loop(?:\.([a-z0-9][a-z0-9-]{0,39}))?\.local\.md$/;
    const name = fc.oneof(fc.stringMatching(LOOP_NAME), fc.string({ maxLength: 45 }));
    fc.assert(
      fc.property(name, fc.constantFrom("", "."), (n, dot) => {
        const file = `continuation-loop${dot}${n}.local.md`;
        const match = pattern.exec(file);
        expect(parseStateFileName(file)).toBe(match ? (match[1] ?? "default") : undefined);
      }),
      RUNS,
    );
  });
});
