/**
 * A fast reader for the frontmatter most state files have: one `key: value` per line, values that
 * are whole numbers, true/false, plain words, or canonical JSON (what the hooks write), comments
 * and blank lines. It reads such a block exactly as `yaml` does (test/unit/simpleFrontmatter.test.ts
 * checks this against yaml on generated files) at a fraction of the cost: the Stop hook reads and
 * rewrites the state file on every stop, and yaml's first parse in a fresh process is most of that.
 * Anything else (lists, block scalars, single quotes, anchors, tags, flow style, duplicate keys,
 * a value yaml would read as null, a float or a date-like word...) returns undefined: yaml reads it.
 */

import { skipDigits } from "./digits.js";
import { isPlainWord, isYamlNumber } from "./plainScalars.js";

/** Where a top-level field sits, as offsets into the YAML block (like yaml's node ranges). */
export interface SimpleField {
  key: string;
  keyStart: number;
  valueStart: number;
  valueEnd: number;
}

export interface SimpleFrontmatter {
  data: Record<string, unknown>;
  fields: SimpleField[];
}

// No regular expressions, on purpose: each one costs a fresh process a compile at its first use and
// another at its second (src/core/plainScalars.ts).
const isKeyStart = (c: number) => (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c === 95;
const isKeyChar = (c: number) => isKeyStart(c) || (c >= 48 && c <= 57) || c === 45;

/** The key that starts a line (`[A-Za-z_][A-Za-z0-9_-]*`), when a colon and a space or the line's end follow it. */
function readKey(line: string): string | undefined {
  if (!isKeyStart(line.charCodeAt(0))) return undefined;
  let end = 1;
  while (end < line.length && isKeyChar(line.charCodeAt(end))) end++;
  if (line[end] !== ":" || (end + 1 < line.length && line[end + 1] !== " ")) return undefined;
  return line.slice(0, end);
}
/** Words YAML 1.2 (core schema, yaml's default) reads as null or a boolean; `~` and "" cannot reach the checks. */
const NOT_A_WORD = new Set(["null", "Null", "NULL", "true", "True", "TRUE", "false", "False", "FALSE"]);
const isString = (word: string) => !NOT_A_WORD.has(word) && !isYamlNumber(word);
/** A whole number as JSON writes it, of at most 15 digits: `0` or `-?[1-9][0-9]{0,14}`. */
function isInt(token: string): boolean {
  if (token === "0") return true;
  const first = token[0] === "-" ? 1 : 0;
  const digits = token.length - first;
  return digits >= 1 && digits <= 15 && token[first] !== "0" && skipDigits(token, first) === token.length;
}
/** A line of printable BMP text without line or paragraph separators (tabs allowed: comments). */
function isSafeLine(line: string): boolean {
  for (let i = 0; i < line.length; i++) {
    const c = line.charCodeAt(i);
    if ((c >= 0x20 && c <= 0x7e) || c === 9) continue;
    if ((c >= 0xa0 && c <= 0x2027) || (c >= 0x202a && c <= 0xd7ff) || (c >= 0xe000 && c <= 0xfefe)) continue;
    if (c < 0xff00 || c > 0xfffd) return false;
  }
  return true;
}

const countSpaces = (text: string, from: number) => {
  let i = from;
  while (text[i] === " ") i++;
  return i - from;
};
/** Nothing, spaces, or spaces and a comment. */
const isTail = (text: string) => {
  const spaces = countSpaces(text, 0);
  return spaces === text.length || (spaces > 0 && text[spaces] === "#");
};

/** End of the JSON token at the start of `text` (a string, object or array), or -1. */
function jsonTokenEnd(text: string): number {
  let depth = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === '"') {
      for (i++; i < text.length && text[i] !== '"'; i++) if (text[i] === "\\") i++;
      if (i >= text.length) return -1;
      if (depth === 0) return i + 1;
    } else if (c === "{" || c === "[") {
      depth++;
    } else if (c === "}" || c === "]") {
      if (--depth === 0) return i + 1;
    }
  }
  return -1;
}

/** The value text (everything after `key:` on the line) → value and its length, or undefined. */
function readValue(rest: string): { value: unknown; length: number } | undefined {
  const first = rest[0];
  let token: string;
  let value: unknown;
  if (first === '"' || first === "{" || first === "[") {
    const end = jsonTokenEnd(rest);
    if (end === -1) return undefined;
    token = rest.slice(0, end);
    try {
      value = JSON.parse(token);
    } catch {
      return undefined;
    }
    // Only the exact text JSON.stringify writes: no duplicate keys, escapes or numbers YAML could read otherwise.
    if (JSON.stringify(value) !== token || token.includes("__proto__")) return undefined;
  } else {
    const comment = rest.indexOf(" #");
    token = comment === -1 ? rest : rest.slice(0, comment);
    let end = token.length;
    while (token[end - 1] === " ") end--;
    token = token.slice(0, end);
    if (token === "true" || token === "false") value = token === "true";
    else if (isInt(token)) value = Number(token);
    else if (isPlainWord(token) && isString(token)) value = token;
    else return undefined;
  }
  // After the value: nothing, spaces, or spaces and a comment.
  return isTail(rest.slice(token.length)) ? { value, length: token.length } : undefined;
}

/** The YAML block of a frontmatter → data and field offsets, or undefined when yaml must read it. */
export function readSimpleFrontmatter(yaml: string): SimpleFrontmatter | undefined {
  const data: Record<string, unknown> = {};
  const fields: SimpleField[] = [];
  let start = 0;
  for (const raw of yaml.split("\n")) {
    const lineStart = start;
    start += raw.length + 1;
    const line = raw.endsWith("\r") ? raw.slice(0, -1) : raw;
    if (!isSafeLine(line)) return undefined;
    const indent = countSpaces(line, 0);
    if (indent === line.length || line[indent] === "#") continue; // blank or comment
    const key = readKey(line);
    // yaml refuses implicit keys over 1024 characters; true:, null: … are not string keys.
    if (
      key === undefined ||
      key.length > 1000 ||
      NOT_A_WORD.has(key) ||
      Object.hasOwn(data, key) ||
      key === "__proto__"
    )
      return undefined;
    const spaces = countSpaces(line, key.length + 1);
    const valueStart = key.length + 1 + spaces;
    if (spaces === 0 || valueStart === line.length || line[valueStart] === "#") return undefined; // `key:` alone is null: yaml's
    const read = readValue(line.slice(valueStart));
    if (!read) return undefined;
    data[key] = read.value;
    fields.push({
      key,
      keyStart: lineStart,
      valueStart: lineStart + valueStart,
      valueEnd: lineStart + valueStart + read.length,
    });
  }
  return { data, fields };
}
