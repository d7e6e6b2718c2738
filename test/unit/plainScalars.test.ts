// The simple frontmatter reader's plain-value checks, held to the regular expressions they replace:
// tables of cases, and random words over the characters that matter.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { isPlainWord, isYamlNumber } from "../../src/core/plainScalars.js";

const RUNS = { numRuns: Number(process.env.FC_RUNS ?? 400) * 10 };
const NUMBER =
  /^(?:0o[0-7]+|0x[0-9a-fA-F]+|\.(?:inf|Inf|INF|nan|NaN|NAN)|(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)(?:[eE][-+]?[0-9]+)?)$/;
const PLAIN = /^[A-Za-z0-9_./\\(][^:#\t\u0000-\u001f\u007f-\u009f]*$/;

describe("isYamlNumber", () => {
  it.each([
    ["0", true],
    ["12", true],
    ["1.", true],
    [".5", true],
    ["1.5e-3", true],
    ["1e5", true],
    ["1.e+5", true],
    ["0o17", true],
    ["0x1F", true],
    ["0xe5", true],
    [".inf", true],
    [".NaN", true],
    ["", false],
    [".", false],
    [".e5", false],
    ["1e", false],
    ["1e+", false],
    ["0o", false],
    ["0o8", false],
    ["0x", false],
    ["0xg", false],
    ["+1", false],
    ["-1", false],
    ["8h", false],
    ["90s", false],
    ["1.2.3", false],
    [".infinity", false],
    ["2026-01-31", false],
  ])("%j: %s", (word, expected) => {
    expect(isYamlNumber(word)).toBe(expected);
    expect(NUMBER.test(word)).toBe(expected);
  });

  it("agrees with the regular expression on random words", () => {
    const word = fc.string({ unit: fc.constantFrom(..."0123456789.eE+-oxXabcfFinNaIA "), maxLength: 8 });
    fc.assert(
      fc.property(word, (w) => isYamlNumber(w) === NUMBER.test(w)),
      RUNS,
    );
  });
});

describe("isPlainWord", () => {
  it.each([
    ["a", true],
    ["SHARED_TASK_NOTES.md", true],
    ["8h", true],
    ["./notes.md", true],
    ["\\x", true],
    ["(x)", true],
    ["a b c", true],
    ["héllo wörld", true],
    ["emoji 🎉", true],
    ["", false],
    ["-a", false],
    ["'a'", false],
    ['"a"', false],
    ["[a]", false],
    ["{a}", false],
    ["*a", false],
    ["&a", false],
    ["a:b", false],
    ["a#b", false],
    ["a\tb", false],
    ["a\u0085b", false],
    ["a\u007fb", false],
    ["a\u00a0b", true],
  ])("%j: %s", (word, expected) => {
    expect(isPlainWord(word)).toBe(expected);
    expect(PLAIN.test(word)).toBe(expected);
  });

  it("agrees with the regular expression on random words", () => {
    const unit = fc.oneof(
      fc.constantFrom(..."aZ09_./\\(-:#\t '\"[{*&!|>%@`?,"),
      fc.integer({ min: 0, max: 0xffff }).map((c) => String.fromCharCode(c)),
    );
    fc.assert(
      fc.property(fc.string({ unit, maxLength: 6 }), (w) => isPlainWord(w) === PLAIN.test(w)),
      RUNS,
    );
  });
});
