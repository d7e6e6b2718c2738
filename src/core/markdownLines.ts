/** Line-level pieces of CommonMark block syntax, for the checklist reader (core/checklist.ts). */

export const LIST_MARKER = /^([-*+]|\d{1,9}[.)])(?=[ \t]|$)/;
const FENCE = /^(`{3,}|~{3,})(.*)$/;
const CLOSING_FENCE = /^(`{3,}|~{3,})[ \t]*$/;
const THEMATIC_BREAK = /^([-*_])[ \t]*(?:\1[ \t]*){2,}$/;
const ATX_HEADING = /^#{1,6}(?:[ \t]|$)/;

export interface Fence {
  char: string;
  length: number;
}

/** Columns of leading spaces and tabs (tab stops of 4) from `column`, and the rest of the text. */
export function measureIndent(text: string, column = 0): { width: number; rest: string } {
  let width = column;
  let i = 0;
  for (; i < text.length; i++) {
    if (text[i] === " ") width += 1;
    else if (text[i] === "\t") width += 4 - (width % 4);
    else break;
  }
  return { width: width - column, rest: text.slice(i) };
}

/** The fence a line opens; an info string after backticks may not hold a backtick. */
export function parseOpeningFence(content: string): Fence | undefined {
  const m = FENCE.exec(content);
  const run = m?.[1];
  if (!run || (run[0] === "`" && m[2]?.includes("`"))) return undefined;
  return { char: run[0] ?? "`", length: run.length };
}

/** A closing fence is the same character, at least as long, with nothing after it but spaces. */
export function isClosingFence(content: string, fence: Fence): boolean {
  const run = CLOSING_FENCE.exec(content)?.[1];
  return run !== undefined && run[0] === fence.char && run.length >= fence.length;
}

/** Blocks that end a paragraph and hold no list item: a thematic break or an ATX heading. */
export function isLeafBlock(content: string): boolean {
  return THEMATIC_BREAK.test(content) || ATX_HEADING.test(content);
}

/**
 * Whether a list marker may start an item here. Interrupting a paragraph of the same container, an
 * item must have text and an ordered one must start at 1 ("Costs\n2. x" is one paragraph).
 */
export function mayStartItem(content: string, interruptsParagraph: boolean): boolean {
  const marker = LIST_MARKER.exec(content)?.[1];
  if (marker === undefined) return false;
  if (!interruptsParagraph) return true;
  const hasText = content.slice(marker.length).trim() !== "";
  return hasText && (!/^\d/.test(marker) || Number.parseInt(marker, 10) === 1);
}

/**
 * The list marker at the start of `content` (which starts at `column`): the item's content column
 * and the text after the marker; none for an empty item, "code" when five or more spaces follow.
 */
export function readListMarker(content: string, column: number): { column: number; text?: string; code?: true } {
  const marker = LIST_MARKER.exec(content)?.[1] ?? "";
  const markerEnd = column + marker.length;
  const after = measureIndent(content.slice(marker.length), markerEnd);
  if (after.rest === "") return { column: markerEnd + 1 };
  if (after.width > 4) return { column: markerEnd + 1, code: true };
  return { column: markerEnd + after.width, text: after.rest };
}

/** A blockquote, or a list item with its content's indentation inside the container around it. */
export type Container = { quote: true } | { quote: false; offset: number };

/** Where a line stands after the containers it continues: the rest of it, its column, their content column. */
export interface LinePosition {
  matched: number;
  rest: string;
  col: number;
  base: number;
}

/** How many open containers a line continues: a quote needs its `>`, an item enough indentation. */
export function matchContainers(line: string, containers: Container[]): LinePosition {
  const at: LinePosition = { matched: 0, rest: line, col: 0, base: 0 };
  // Measured once per quote level: rescanning per item made deep nesting quadratic in the indentation.
  let ws = measureIndent(at.rest, at.col);
  for (const container of containers) {
    if (!container.quote) {
      if (ws.rest !== "" && at.col + ws.width - at.base < container.offset) break;
      at.base += container.offset;
    } else {
      if (!ws.rest.startsWith(">") || at.col + ws.width - at.base > 3) break;
      enterQuote(at, ws);
      ws = measureIndent(at.rest, at.col);
    }
    at.matched += 1;
  }
  return at;
}

/** Steps past `>` and the one space after it; a tab after it gives up one column of its width. */
export function enterQuote(at: LinePosition, ws: { width: number; rest: string }): void {
  const spaced = ws.rest[1] === " ";
  at.rest = ws.rest.slice(spaced ? 2 : 1);
  at.col += ws.width + (spaced ? 2 : 1);
  at.base = at.col + (ws.rest[1] === "\t" ? 1 : 0);
}
