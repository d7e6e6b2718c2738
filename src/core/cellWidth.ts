import { renderPlainText } from "./plainText.js";

// How many terminal cells text takes: a CJK character or an emoji takes two, a combining mark none. A line cut
// by its length in characters can still be wider than the terminal, wrap, and leave a row behind when redrawn.

/**
 * `text` as one row of a terminal shows it (src/core/plainText.ts), a tab as one space: a tab moves to the next tab
 * stop, up to eight cells that depend on the column it starts at, and a row cut to fit would still wrap.
 */
const renderRow = (text: string) => renderPlainText(text).replaceAll("\t", " ");

/** Code points drawn two cells wide: East Asian Wide and Fullwidth, and emoji drawn as pictures. */
const WIDE: readonly (readonly [number, number])[] = [
  [0x1100, 0x115f],
  [0x231a, 0x231b],
  [0x2329, 0x232a],
  [0x23e9, 0x23ec],
  [0x23f0, 0x23f0],
  [0x23f3, 0x23f3],
  [0x25fd, 0x25fe],
  [0x2614, 0x2615],
  [0x2648, 0x2653],
  [0x267f, 0x267f],
  [0x2693, 0x2693],
  [0x26a1, 0x26a1],
  [0x26aa, 0x26ab],
  [0x26bd, 0x26be],
  [0x26c4, 0x26c5],
  [0x26ce, 0x26ce],
  [0x26d4, 0x26d4],
  [0x26ea, 0x26ea],
  [0x26f2, 0x26f3],
  [0x26f5, 0x26f5],
  [0x26fa, 0x26fa],
  [0x26fd, 0x26fd],
  [0x2705, 0x2705],
  [0x270a, 0x270b],
  [0x2728, 0x2728],
  [0x274c, 0x274c],
  [0x274e, 0x274e],
  [0x2753, 0x2755],
  [0x2757, 0x2757],
  [0x2795, 0x2797],
  [0x27b0, 0x27b0],
  [0x27bf, 0x27bf],
  [0x2b1b, 0x2b1c],
  [0x2b50, 0x2b50],
  [0x2b55, 0x2b55],
  [0x2e80, 0x303e],
  [0x3041, 0x33ff],
  [0x3400, 0x4dbf],
  [0x4e00, 0x9fff],
  [0xa000, 0xa4cf],
  [0xa960, 0xa97f],
  [0xac00, 0xd7a3],
  [0xf900, 0xfaff],
  [0xfe10, 0xfe19],
  [0xfe30, 0xfe6f],
  [0xff00, 0xff60],
  [0xffe0, 0xffe6],
  [0x16fe0, 0x18aff],
  [0x1b000, 0x1b2ff],
  [0x1f004, 0x1f004],
  [0x1f0cf, 0x1f0cf],
  [0x1f18e, 0x1f18e],
  [0x1f191, 0x1f19a],
  // Regional indicators: two of them draw one flag.
  [0x1f1e6, 0x1f1ff],
  [0x1f200, 0x1f2ff],
  [0x1f300, 0x1f64f],
  [0x1f680, 0x1f6ff],
  [0x1f7e0, 0x1f7ff],
  [0x1f900, 0x1f9ff],
  [0x1fa70, 0x1faff],
  [0x20000, 0x3fffd],
];

/**
 * Code points drawn in no cell of their own: combining marks (Latin, Hebrew and Arabic points among them), zero-width
 * spaces and joiners, direction marks, variation selectors, emoji tags.
 */
const ZERO: readonly (readonly [number, number])[] = [
  [0x0300, 0x036f],
  [0x0483, 0x0489],
  [0x0591, 0x05bd],
  [0x05bf, 0x05bf],
  [0x05c1, 0x05c2],
  [0x05c4, 0x05c5],
  [0x05c7, 0x05c7],
  [0x0610, 0x061a],
  [0x061c, 0x061c],
  [0x064b, 0x065f],
  [0x0670, 0x0670],
  [0x06d6, 0x06dc],
  [0x06df, 0x06e4],
  [0x06e7, 0x06e8],
  [0x06ea, 0x06ed],
  [0x1ab0, 0x1aff],
  [0x1dc0, 0x1dff],
  [0x200b, 0x200f],
  [0x202a, 0x202e],
  [0x2060, 0x2064],
  [0x2066, 0x2069],
  [0x20d0, 0x20ff],
  [0xfe00, 0xfe0f],
  [0xfe20, 0xfe2f],
  [0xfeff, 0xfeff],
  [0xe0000, 0xe007f],
  [0xe0100, 0xe01ef],
];

const ZWJ = 0x200d;
const EMOJI_STYLE = 0xfe0f;

const within = (ranges: readonly (readonly [number, number])[], code: number): boolean =>
  ranges.some(([from, to]) => code >= from && code <= to);

/** Cells one code point takes. */
function readCells(code: number): number {
  if (code < 0x0300) return 1;
  if (within(ZERO, code)) return 0;
  return within(WIDE, code) ? 2 : 1;
}

const isModifier = (code: number): boolean => code >= 0x1f3fb && code <= 0x1f3ff;
const isRegional = (code: number): boolean => code >= 0x1f1e6 && code <= 0x1f1ff;

/**
 * `text` in the units a terminal draws as one (grapheme clusters, near enough): a character with its combining
 * marks and variation selector, an emoji with its skin tone, a ZWJ sequence, a flag. A cut between two of them
 * never leaves half an emoji or an accent without its letter.
 */
function* splitClusters(text: string): Generator<string> {
  // One at a time, so a cut near the start of a long text (a reply of megabytes) reads only that start.
  let cluster = "";
  let joined = false;
  let flagHalf = false;
  for (const char of text) {
    const code = char.codePointAt(0) ?? 0;
    const attach: boolean =
      cluster !== "" && (joined || readCells(code) === 0 || isModifier(code) || (flagHalf && isRegional(code)));
    if (attach) cluster += char;
    else {
      if (cluster !== "") yield cluster;
      cluster = char;
    }
    flagHalf = isRegional(code) && !(attach && flagHalf);
    joined = code === ZWJ;
  }
  if (cluster !== "") yield cluster;
}

/**
 * Cells one cluster takes: its code points' cells, which count each part of a ZWJ sequence (a terminal that does
 * not join them draws each), and two at least for a character asked to look like an emoji (U+FE0F).
 */
function readClusterCells(cluster: string): number {
  let cells = 0;
  let emoji = false;
  for (const char of cluster) {
    const code = char.codePointAt(0) ?? 0;
    cells += readCells(code);
    if (code === EMOJI_STYLE) emoji = true;
  }
  return emoji ? Math.max(cells, 2) : cells;
}

/** Cells `text` (one line) takes in a terminal: what it shows (renderRow), its escape sequences and controls dropped. */
export function cellWidth(text: string): number {
  return readRowCells(renderRow(text));
}

/** Cells a row renderRow already gave takes. */
function readRowCells(row: string): number {
  let cells = 0;
  for (const cluster of splitClusters(row)) cells += readClusterCells(cluster);
  return cells;
}

/** `text` as one row shows it (renderRow) cut to at most `width` cells between two clusters, with "…" where it was cut. */
export function clipToCells(given: string, width: number): string {
  const text = renderRow(given);
  let cells = 0;
  let kept = "";
  let full = false;
  for (const cluster of splitClusters(text)) {
    const next = readClusterCells(cluster);
    if (cells + next > width - 1) full = true;
    cells += next;
    if (cells > width) return `${kept.trimEnd()}…`;
    if (!full) kept += cluster;
  }
  return text;
}

/**
 * `text` as one row shows it (renderRow) cut to at most `max` characters (UTF-16 units) between two clusters, with "…"
 * where it was cut.
 */
export function clipToChars(given: string, max: number): string {
  const text = renderRow(given);
  if (text.length <= max) return text;
  let kept = "";
  for (const cluster of splitClusters(text)) {
    if (kept.length + cluster.length > max - 1) break;
    kept += cluster;
  }
  return `${kept}…`;
}

/**
 * `row` wrapped at its spaces into rows of at most `width` cells, each after the first indented past the row's own
 * indent (four at least), so that it reads as the same row; at most `most` rows, the last cut with "…" when more was
 * left.
 */
export function wrapToCells(given: string, width: number, most = 2): string[] {
  const row = renderRow(given);
  const lead = /^ */.exec(row)?.[0] ?? "";
  const hang = " ".repeat(Math.max(4, lead.length + 2));
  const rows: string[] = [];
  let line = "";
  for (const word of splitWords(row.slice(lead.length), width - hang.length)) {
    const next = line === "" ? `${lead}${word}` : `${line} ${word}`;
    if (line !== "" && readRowCells(next) > width) {
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
  if (readRowCells(moved) > width) return;
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
    if (part.startsWith("`") && part.endsWith("`") && part.length > 1 && readRowCells(part) <= room) {
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
