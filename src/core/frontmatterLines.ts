// The `---` lines around a frontmatter block, found with indexOf and character checks: the Stop
// hook looks for them on every stop, and a regular expression costs a fresh process a compile at
// its first use and another at its second (README "Performance").

/** The offset past the spaces and tabs at `at`. */
export function skipBlanks(text: string, at: number): number {
  let i = at;
  while (text[i] === " " || text[i] === "\t") i++;
  return i;
}

/**
 * The opening line `---` (spaces and tabs may follow) at the start of `text`: the offset of its
 * line break and that break, or undefined when the text does not start with such a line.
 */
export function findOpeningLine(text: string): { end: number; newline: "\n" | "\r\n" } | undefined {
  if (!text.startsWith("---")) return undefined;
  const end = skipBlanks(text, 3);
  if (text[end] === "\n") return { end, newline: "\n" };
  if (text[end] === "\r" && text[end + 1] === "\n") return { end, newline: "\r\n" };
  return undefined;
}

/**
 * The first closing line at or after `from`: a line break, `---`, spaces or tabs, then a line break
 * or the end of the text. Its `start` (at the `\r` of a CRLF break) and `end` (past the line
 * break that ends it), or undefined.
 */
export function findClosingLine(text: string, from = 0): { start: number; end: number } | undefined {
  for (let at = text.indexOf("\n---", from); at !== -1; at = text.indexOf("\n---", at + 1)) {
    const after = skipBlanks(text, at + 4);
    const start = at > from && text[at - 1] === "\r" ? at - 1 : at;
    if (after === text.length) return { start, end: after };
    if (text[after] === "\n") return { start, end: after + 1 };
    if (text[after] === "\r" && text[after + 1] === "\n") return { start, end: after + 2 };
  }
  return undefined;
}
