// What `--help` prints beside its usage card: paragraphs and flag rows, fitted to the terminal's width.
/** Where `--help` wraps when the output is no terminal (a pipe, a slash command's answer): any terminal's width. */
const HELP_WIDTH = 80;
/**
 * The columns a slash command's blocked answer gets in an 80-column terminal, where Claude Code indents it and
 * wraps it short of the edge: the prompt hook cannot measure the terminal, so the usage card and `--help` it
 * answers fit this rather than 80, which Claude Code would wrap again at word breaks (test/tui/TERMINAL.md).
 */
export const SESSION_ANSWER_COLUMNS = 71;
/** Past this a terminal's width is not used: longer lines read worse. */
const MAX_HELP_WIDTH = 120;
/** Fewer columns than this left for the descriptions: each goes on a line of its own under its flag. */
const MIN_TEXT = 24;

/** Words of `text` on lines of at most `width` characters. */
function wrapWords(text: string, width: number): string[] {
  const lines: string[] = [];
  let line = "";
  for (const word of text.split(" ")) {
    let rest = word;
    if (line && line.length + 1 + word.length > width) {
      // A word wider than a whole line (a path) starts on this one, broken after a slash, when a part fits.
      const cut = word.length > width ? word.lastIndexOf("/", width - line.length - 2) + 1 : 0;
      lines.push(cut > 0 ? `${line} ${word.slice(0, cut)}` : line);
      rest = word.slice(cut);
      line = "";
    }
    line = line ? `${line} ${rest}` : rest;
    // What is still wider than a line is cut across lines, after a slash where one fits.
    while (line.length > width) {
      const cut = line.lastIndexOf("/", width - 1) + 1 || width;
      lines.push(line.slice(0, cut));
      line = line.slice(cut);
    }
  }
  return [...lines, line];
}

/** A paragraph of `--help` on lines that fit the terminal (or 80 columns when the output is no terminal). */
export function renderParagraph(text: string, columns = HELP_WIDTH): string[] {
  return wrapWords(text, Math.min(columns, MAX_HELP_WIDTH) - 1);
}

/**
 * `--help`'s flag rows: every description starts in one column, and a long one wraps under itself, not under
 * the flags. `columns`: the terminal's width when the output is one.
 */
export function renderOptionRows(rows: readonly (readonly [string, string])[], columns = HELP_WIDTH): string[] {
  const width = Math.min(columns, MAX_HELP_WIDTH) - 1;
  const at = 2 + Math.max(...rows.map(([flag]) => flag.length)) + 2;
  const hanging = width - at >= MIN_TEXT;
  const indent = " ".repeat(hanging ? at : 6);
  return rows.flatMap(([flag, text]) => {
    const lines = wrapWords(text, width - indent.length).map((line) => indent + line);
    const head = `  ${flag}`;
    if (!hanging) return [head, ...lines];
    return [head.padEnd(at) + (lines[0] ?? "").trimStart(), ...lines.slice(1)];
  });
}
