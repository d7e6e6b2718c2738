// How many terminal cells text takes: a CJK character or an emoji takes two, a combining mark none. A line cut
// by its length in characters can still be wider than the terminal, wrap, and leave a row behind when redrawn.

/** Code points drawn two cells wide (East Asian Wide and Fullwidth, emoji). */
const WIDE: readonly (readonly [number, number])[] = [
  [0x1100, 0x115f],
  [0x2e80, 0x303e],
  [0x3041, 0x33ff],
  [0x3400, 0x4dbf],
  [0x4e00, 0x9fff],
  [0xa000, 0xa4cf],
  [0xac00, 0xd7a3],
  [0xf900, 0xfaff],
  [0xfe30, 0xfe4f],
  [0xff00, 0xff60],
  [0xffe0, 0xffe6],
  [0x1f300, 0x1f64f],
  [0x1f900, 0x1f9ff],
  [0x20000, 0x3fffd],
];

/** Code points drawn in no cell of their own: combining marks, zero-width spaces and joiners, variation selectors. */
const ZERO: readonly (readonly [number, number])[] = [
  [0x0300, 0x036f],
  [0x200b, 0x200f],
  [0xfe00, 0xfe0f],
];

const within = (ranges: readonly (readonly [number, number])[], code: number): boolean =>
  ranges.some(([from, to]) => code >= from && code <= to);

/** Cells one code point takes. */
function readCells(char: string): number {
  const code = char.codePointAt(0) ?? 0;
  if (within(ZERO, code)) return 0;
  return within(WIDE, code) ? 2 : 1;
}

/** Cells `text` (one line) takes in a terminal. */
export function cellWidth(text: string): number {
  let cells = 0;
  for (const char of text) cells += readCells(char);
  return cells;
}

/** `text` cut to at most `width` cells, with "…" where it was cut. */
export function clipToCells(text: string, width: number): string {
  if (cellWidth(text) <= width) return text;
  let cells = 0;
  let kept = "";
  for (const char of text) {
    const next = readCells(char);
    if (cells + next > width - 1) break;
    cells += next;
    kept += char;
  }
  return `${kept}…`;
}

/**
 * `row` wrapped at its spaces into rows of at most `width` cells, each after the first indented past the row's own
 * indent (four at least), so that it reads as the same row; at most `most` rows, the last cut with "…" when more was
 * left.
 */
export function wrapToCells(row: string, width: number, most = 2): string[] {
  const lead = /^ */.exec(row)?.[0] ?? "";
  const hang = " ".repeat(Math.max(4, lead.length + 2));
  const rows: string[] = [];
  let line = "";
  for (const word of splitWords(row.slice(lead.length), width - hang.length)) {
    const next = line === "" ? `${lead}${word}` : `${line} ${word}`;
    if (line !== "" && cellWidth(next) > width) {
      rows.push(line);
      line = `${hang}${word}`;
    } else line = next;
  }
  rows.push(line);
  if (rows.length <= most) balanceLastRow(rows, hang, width);
  const kept = rows.slice(0, most);
  if (rows.length > most) kept[most - 1] = `${kept[most - 1]} ${rows[most]?.trimStart() ?? ""}`;
  return kept.map((kept) => clipToCells(kept, width));
}

/**
 * A last row of one word takes the word before it down too (and a " · " before that), when the row above keeps
 * two words: "… · this" over "session's" reads as "… ·" over "this session's".
 */
function balanceLastRow(rows: string[], hang: string, width: number): void {
  const last = rows.length - 1;
  const alone = rows[last]?.slice(hang.length) ?? "";
  if (last < 1 || alone.includes(" ")) return;
  const above = (rows[last - 1] ?? "").split(" ");
  let take = 1;
  if (above.at(-take - 1) === "·") take++;
  const lead = (rows[last - 1] ?? "").length - (rows[last - 1] ?? "").trimStart().length;
  if (above.length - lead - take < 2) return;
  const moved = `${hang}${[...above.slice(-take), alone].join(" ")}`;
  if (cellWidth(moved) > width) return;
  rows[last - 1] = above.slice(0, -take).join(" ");
  rows[last] = moved;
}

/**
 * The words of `text`, a code span (`` `npm test` ``) one word: Claude Code shows an answer as Markdown, where a
 * line break inside a span is a space, so a row broken there runs on at the left edge. A span wider than `room` is
 * broken at its spaces all the same.
 */
function splitWords(text: string, room: number): string[] {
  const words: string[] = [];
  for (const part of text.split(/(`[^`]*`)/)) {
    if (part.startsWith("`") && part.endsWith("`") && part.length > 1 && cellWidth(part) <= room) {
      // A span glued to what is around it ("(`npm test`") stays glued.
      const last = words.length ? words.pop() : undefined;
      words.push(`${last ?? ""}${part}`);
      continue;
    }
    const pieces = part.split(" ");
    if (words.length && pieces.length) words[words.length - 1] = `${words.at(-1)}${pieces.shift()}`;
    words.push(...pieces);
  }
  return words;
}
