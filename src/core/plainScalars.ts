/**
 * Character checks for the plain (unquoted) values the simple frontmatter reader accepts. Regular
 * expressions would say the same in one line each, but a fresh process compiles a regular expression
 * at its first use and again at its second: about 0.1 ms of every active Stop for these two
 * (README "Performance"). test/unit/plainScalars.test.ts holds them to the expressions.
 */

import { isDigit, skipDigits } from "./digits.js";

const isOctal = (c: number) => c >= 48 && c <= 55;
const isHex = (c: number) => isDigit(c) || (c >= 65 && c <= 70) || (c >= 97 && c <= 102);
const isAllOf = (text: string, from: number, test: (c: number) => boolean) => {
  for (let i = from; i < text.length; i++) if (!test(text.charCodeAt(i))) return false;
  return text.length > from;
};
const SPECIAL_FLOATS = new Set([".inf", ".Inf", ".INF", ".nan", ".NaN", ".NAN"]);

/**
 * Does YAML 1.2 (core schema) read `word` as a number? `0o17`, `0x1F`, `.inf`, `.nan`, `12`, `1.`,
 * `.5`, `1.5e-3`: /^(?:0o[0-7]+|0x[0-9a-fA-F]+|\.(?:inf|Inf|INF|nan|NaN|NAN)|(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)(?:[eE][-+]?[0-9]+)?)$/
 */
export function isYamlNumber(word: string): boolean {
  if (word[0] === "0" && word[1] === "o") return isAllOf(word, 2, isOctal);
  if (word[0] === "0" && word[1] === "x") return isAllOf(word, 2, isHex);
  if (SPECIAL_FLOATS.has(word)) return true;
  const whole = skipDigits(word, 0);
  let i = whole;
  if (word[i] === ".") {
    i = skipDigits(word, whole + 1);
    if (whole === 0 && i === 1) return false; // "." alone, or ".e5"
  } else if (whole === 0) {
    return false;
  }
  if (word[i] === "e" || word[i] === "E") {
    const from = word[i + 1] === "+" || word[i + 1] === "-" ? i + 2 : i + 1;
    i = skipDigits(word, from);
    if (i === from) return false;
  }
  return i === word.length;
}

/** May a plain word start with this character? `[A-Za-z0-9_./\\(]` */
const isPlainStart = (c: number) =>
  (c >= 65 && c <= 90) ||
  (c >= 97 && c <= 122) ||
  isDigit(c) ||
  c === 95 ||
  c === 46 ||
  c === 47 ||
  c === 92 ||
  c === 40;
/** Anything but `:`, `#`, a tab and control characters: `[^:#\t\u0000-\u001f\u007f-\u009f]` */
const isPlainChar = (c: number) => c !== 58 && c !== 35 && c >= 0x20 && (c < 0x7f || c > 0x9f);

/**
 * A plain word or phrase the simple reader takes as it stands: no indicator first, no `:` or `#`
 * anywhere, printable, no tabs: /^[A-Za-z0-9_./\\(][^:#\t\u0000-\u001f\u007f-\u009f]*$/
 */
export function isPlainWord(text: string): boolean {
  return text.length > 0 && isPlainStart(text.charCodeAt(0)) && (text.length === 1 || isAllOf(text, 1, isPlainChar));
}
