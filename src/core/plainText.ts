/**
 * Text as a terminal would show it, with no control character left: a command's coloured output before Claude
 * reads it, and a loop's data (goal, name, notes, reasons) before a person's terminal draws it, so that it can
 * neither redraw, retitle nor write the clipboard of that terminal. Pure.
 *
 * Node's util.stripVTControlCharacters is not enough before Node 24: it leaves an OSC's text (a title, a clipboard
 * write) and BEL, and eats the character after `ESC 7`.
 */

/**
 * One escape sequence (ECMA-48), from its ESC or C1 introducer: a CSI (its parameters kept for `K` and `G`),
 * a string (OSC, DCS, SOS, PM, APC) up to BEL or ST, or to the line's end when it has none, so that an
 * unterminated one cannot swallow the lines after it; else ESC, intermediates and one final character.
 */
const SEQUENCE =
  /(?:\x1b\[|\x9b)([0-?]*)[ -/]*([@-~])|(?:\x1b[\]PX^_]|[\x90\x98\x9d-\x9f])[^\x07\x1b\x9c\n]*(?:\x07|\x1b\\|\x9c)?|\x1b[ -/]*[0-~]?/y;

/**
 * The bidi embeddings, overrides and isolates, which a terminal with bidi applies to the rest of its line, past the
 * text that held one: a name could reverse the figures after it. The direction marks stay: they change no other text.
 */
const BIDI_CONTROLS = [
  [0x202a, 0x202e],
  [0x2066, 0x2069],
] as const;
const BIDI_CLASS = BIDI_CONTROLS.map(([first, last]) => `\\u${first.toString(16)}-\\u${last.toString(16)}`).join("");
const isBidiControl = (code: number) => BIDI_CONTROLS.some(([first, last]) => code >= first && code <= last);

/** Any character that is not plain text: C0 but tab and newline, DEL, C1, and the bidi controls. */
const CONTROL = new RegExp(`[\\x00-\\x08\\x0b-\\x1f\\x7f-\\x9f${BIDI_CLASS}]`);
const CONTROLS = new RegExp(CONTROL.source, "g");
const SEQUENCES = new RegExp(SEQUENCE.source, "g");
const CONTROLS_BUT_BREAKS = new RegExp(`[\\x00-\\x08\\x0b\\x0c\\x0e-\\x1f\\x7f-\\x9f${BIDI_CLASS}]`, "g");
/** What moves the cursor back or erases: a line without it (colour alone) is its text with the sequences dropped. */
const REDRAW = /[\r\b]|(?:\x1b\[|\x9b)[0-?]*[ -/]*[KG]/;

/**
 * `text` with its escape sequences and control characters dropped and, line by line, what a terminal leaves of
 * its redraws: after `\r` (or a cursor move to a column, `ESC [ n G`) the text written again over the old,
 * a backspace steps back one, `ESC [ K` erases. A progress bar redrawn a thousand times is its last state.
 * Tabs and newlines stay; text without a control character is returned as it is.
 */
export function renderPlainText(text: string): string {
  if (!CONTROL.test(text)) return text;
  return text.split("\n").map(renderPlainLine).join("\n");
}

/**
 * `text` with its escape sequences and control characters dropped, its line breaks (a lone `\r` too) kept: Claude
 * Code's own output passed on, which a CI log reads with a line at each `\r`, as Claude Code alone would print it.
 */
export function renderWithoutEscapes(text: string): string {
  if (!CONTROL.test(text)) return text;
  return text.replace(SEQUENCES, "").replace(CONTROLS_BUT_BREAKS, "");
}

/** The last `most` lines of `text` that are not blank, as renderPlainText gives them: only those are cleaned. */
export function readPlainTail(text: string, most: number): string[] {
  const lines: string[] = [];
  for (let end = text.length; end >= 0 && lines.length < most; ) {
    const start = end === 0 ? 0 : text.lastIndexOf("\n", end - 1) + 1;
    const line = renderPlainLine(text.slice(start, end));
    if (lines.length > 0) lines.unshift(line);
    else if (line.trim() !== "") lines.unshift(line.trimEnd());
    end = start - 1;
  }
  return lines;
}

function renderPlainLine(line: string): string {
  if (!CONTROL.test(line)) return line;
  if (!REDRAW.test(line)) return line.replace(SEQUENCES, "").replace(CONTROLS, "");
  let cells: string[] = [];
  let column = 0;
  const write = (char: string) => {
    while (cells.length < column) cells.push(" ");
    cells[column++] = char;
  };
  for (let at = 0; at < line.length; ) {
    const code = line.charCodeAt(at);
    if (code === 0x1b || (code >= 0x80 && code <= 0x9f)) {
      SEQUENCE.lastIndex = at;
      const match = SEQUENCE.exec(line);
      if (!match) {
        at++;
        continue;
      }
      at += match[0].length;
      const [, parameter = "", final] = match;
      if (final === "K") {
        // 0 (or none): to the line's end; 1: from its start; 2: all of it. The cursor stays.
        if (parameter === "1") cells = cells.map((cell, index) => (index <= column ? " " : cell));
        else cells = parameter === "2" ? [] : cells.slice(0, column);
      } else if (final === "G") column = Math.max(0, (Number.parseInt(parameter, 10) || 1) - 1);
      continue;
    }
    if (code === 0x0d) column = 0;
    else if (code === 0x08) column = Math.max(0, column - 1);
    else if (code === 0x09 || (code >= 0x20 && code !== 0x7f && !isBidiControl(code))) {
      const char = String.fromCodePoint(line.codePointAt(at) ?? code);
      write(char);
      at += char.length;
      continue;
    }
    at++;
  }
  return cells.join("");
}
