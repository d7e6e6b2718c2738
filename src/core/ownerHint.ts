// What a state file's text says without a YAML parse: the `session_id` its head names (the idle Stop reads it from
// every loop file in `.claude/`, and a session with no loop should pay for nothing more), and whether it may name a
// command (an ordinary Stop should not parse its loop twice).

/** The frontmatter's closing line (the opening one has no line break before it). */
const CLOSING_LINE = /\n---[ \t]*(\r?\n|$)/;
/** The first `session_id:` line and the rest of it. */
const OWNER_LINE = /(?:^|\n)session_id:[ \t]*([^\r\n]*)/;
/** A quoted value with nothing YAML would unescape or fold, then the rest of the line. */
const QUOTED = /^(["'])([^"'\\]*)\1(.*)$/;
/** A plain value, then the rest of the line. */
const PLAIN = /^([^\s#]+)(.*)$/;
/** An unquoted value YAML might read as something other than this string (a number, null, a bool, a list…) or a broken quote. */
const PLAIN_NON_STRING = /^(?:[-?:,[\]{}#&*!|>%@`~+.0-9"']|(?:null|true|false)$)/i;
/** Nothing after the value but blanks, and a comment after a blank. */
const LINE_END = /^(?:[ \t]+#.*|[ \t]*)$/;
const PRINTABLE_ASCII = /^[\x20-\x7e]+$/;

/** Does `text` (a file's head) hold the frontmatter's closing line? */
export const endsFrontmatter = (text: string): boolean => CLOSING_LINE.test(text);

/**
 * The owner named by the first `session_id:` line of the frontmatter in `text` (whole lines of
 * the file's head), when it is a string of ASCII characters written plainly; otherwise undefined,
 * and the full parse decides. It never names an owner other than the one the full parse reads.
 */
export function parseOwnerHint(text: string): string | undefined {
  const line = OWNER_LINE.exec(text);
  const end = CLOSING_LINE.exec(text)?.index ?? text.length;
  if (!line || line.index >= end) return undefined;
  const value = line[1] ?? "";
  const quoted = QUOTED.exec(value);
  const plain = quoted ? undefined : PLAIN.exec(value);
  const owner = quoted ? quoted[2] : plain?.[1];
  const rest = quoted ? quoted[3] : plain?.[2];
  if (!owner || !LINE_END.test(rest ?? "") || !PRINTABLE_ASCII.test(owner)) return undefined;
  return plain && PLAIN_NON_STRING.test(owner) ? undefined : owner;
}

/** A word that may be a command's field: `until`, `metric`, `verify`. */
const COMMAND_WORD = /\b(?:until|metric|verify)\b/;

/** Might the frontmatter in `text` name a command to run at a Stop? False only when it surely does not. */
export function mayNameCommands(text: string): boolean {
  const end = CLOSING_LINE.exec(text)?.index ?? text.length;
  return COMMAND_WORD.test(text.slice(0, end));
}
