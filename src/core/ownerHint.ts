// The `session_id` a state file's head names, read without a YAML parse: the idle Stop reads it from
// every loop file in `.claude/`. Found with indexOf and a few character checks, not regular
// expressions: in a fresh process each regular expression is compiled at its first use and again,
// to machine code, at its second (about 0.1 ms each; README "Performance").
import { findClosingLine, skipBlanks } from "./frontmatterLines.js";

const KEY = "session_id:";

/** An unquoted value YAML might read as something other than this string: a number, null, a bool, a list… */
function isPlainNonString(value: string): boolean {
  const first = value[0] ?? "";
  const lower = value.toLowerCase();
  return (
    "-?:,[]{}#&*!|>%@`~+.".includes(first) ||
    (first >= "0" && first <= "9") ||
    value.includes("#") ||
    lower === "null" ||
    lower === "true" ||
    lower === "false"
  );
}

/** Only spaces, tabs and a comment from `at` to the end of its line. */
function endsLine(text: string, at: number): boolean {
  const i = skipBlanks(text, at);
  const next = text[i];
  return next === undefined || next === "\n" || next === "\r" || (next === "#" && i > at);
}

/** Where the first line that starts with `prefix` begins, or -1. */
function findLine(text: string, prefix: string): number {
  if (text.startsWith(prefix)) return 0;
  const at = text.indexOf(`\n${prefix}`);
  return at === -1 ? -1 : at + 1;
}

/**
 * The owner named by the first `session_id:` line of the frontmatter in `text` (whole lines of
 * the file's head), when it is a string of ASCII characters written plainly; otherwise undefined,
 * and the full parse decides. It never names an owner other than the one the full parse reads.
 */
export function parseOwnerHint(text: string): string | undefined {
  const end = findClosingLine(text)?.start ?? text.length;
  const line = findLine(text, KEY);
  if (line === -1 || line >= end) return undefined;
  const start = skipBlanks(text, line + KEY.length);
  const quote = text[start];
  let owner: string;
  let after: number;
  if (quote === '"' || quote === "'") {
    const closing = text.indexOf(quote, start + 1);
    if (closing === -1 || closing >= end) return undefined;
    owner = text.slice(start + 1, closing);
    // An escape (double quotes) or a line break would make the parsed value differ from these characters.
    if (owner.includes("\\") || owner.includes("\n") || owner.includes("\r")) return undefined;
    after = closing + 1;
  } else {
    after = start;
    while (after < end && text.charCodeAt(after) > 32) after++;
    owner = text.slice(start, after);
    if (isPlainNonString(owner)) return undefined;
  }
  if (owner === "" || !endsLine(text, after)) return undefined;
  for (let i = 0; i < owner.length; i++) if (owner.charCodeAt(i) > 126) return undefined;
  return owner;
}
