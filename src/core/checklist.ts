/**
 * The task boxes of a `checklist` file (docs/REFERENCE.md's field table). CommonMark's block structure read
 * line by line (blockquotes, list items, fences, lazy lines), so that the boxes counted are the ones
 * GitHub renders: list items (`-`, `*`, `+`, `1.`, `1)`) at any nesting whose first text is `[ ]`,
 * `[x]` or `[X]` followed by whitespace and text; never in fenced or indented code or HTML comments.
 */
import {
  type Container,
  enterQuote,
  type Fence,
  isClosingFence,
  isLeafBlock,
  LIST_MARKER,
  matchContainers,
  mayStartItem,
  measureIndent,
  parseOpeningFence,
  readListMarker,
} from "./markdownLines.js";

interface ChecklistItem {
  checked: boolean;
  text: string;
  /** 1-based line in the file. */
  line: number;
}

export interface Checklist {
  items: ChecklistItem[];
  done: number;
  total: number;
  firstOpen?: { text: string; line: number };
}

/** A fenced code block or an HTML comment: its lines hold no boxes. */
interface RawBlock {
  fence?: Fence;
  level: number;
}

const SETEXT_UNDERLINE = /^(?:=+|-+)[ \t]*$/;
const TASK_BOX = /^\[([ \txX])\][ \t]+(\S.*)$/;
/** A box alone on its line is a box only if the paragraph goes on ("- [ ]\n  text"). */
const BARE_BOX = /^\[([ \txX])\][ \t]*$/;
const MAX_NEXT_TEXT = 100;
/** Deeper markers are read as text: each level rescans the line, and no real checklist nests this deep. */
const MAX_DEPTH = 100;

const isChecked = (mark: string) => mark === "x" || mark === "X";

export function parseChecklist(text: string): Checklist {
  const items: ChecklistItem[] = [];
  const containers: Container[] = [];
  let raw: RawBlock | undefined;
  // An open paragraph sits in the innermost container; lines that match fewer may continue it lazily.
  let inParagraph = false;
  let bareBox: { checked: boolean; line: number } | undefined;
  // The open paragraph starts with a box: a setext underline turns it into a heading, and no box.
  let paragraphBox = false;
  // Level of an item opened empty on the line before: a blank line ends it ("-\n\n    x" is code).
  let emptyItemLevel = 0;

  const lines = text.replace(/^\uFEFF/, "").split(/\r\n|\r|\n/);
  lines.forEach((line, index) => {
    if (raw) {
      const at = matchContainers(line, containers);
      if (at.matched === raw.level) {
        const ws = measureIndent(at.rest, at.col);
        const closes = raw.fence
          ? at.col + ws.width - at.base <= 3 && isClosingFence(ws.rest, raw.fence)
          : line.includes("-->");
        if (closes) raw = undefined;
        return;
      }
      raw = undefined; // its container ended, and the block with it
    }
    const at = matchContainers(line, containers);
    const pending = bareBox;
    bareBox = undefined;
    const emptyBefore = emptyItemLevel;
    emptyItemLevel = 0;
    let opened = false;
    let inNewItem = false;
    const openContainer = (container: Container) => {
      if (!opened) containers.length = at.matched;
      opened = true;
      containers.push(container);
      at.matched += 1;
      inNewItem = !container.quote;
    };

    // New containers: quotes and list items, several on one line ("> - 1. [ ] x").
    for (;;) {
      const ws = measureIndent(at.rest, at.col);
      if (ws.rest === "" || at.col + ws.width - at.base >= 4 || containers.length >= MAX_DEPTH) break;
      if (ws.rest.startsWith(">")) {
        openContainer({ quote: true });
        enterQuote(at, ws);
        continue;
      }
      if (!LIST_MARKER.test(ws.rest) || isLeafBlock(ws.rest)) break;
      const interrupts = inParagraph && !opened && at.matched === containers.length;
      if (!mayStartItem(ws.rest, interrupts)) break;
      const item = readListMarker(ws.rest, at.col + ws.width);
      openContainer({ quote: false, offset: item.column - at.base });
      at.base = item.column;
      at.rest = item.text ?? "";
      at.col = item.column;
      if (item.code) {
        inParagraph = false;
        return;
      }
    }

    const ws = measureIndent(at.rest, at.col);
    const content = ws.rest;
    const indented = at.col + ws.width - at.base >= 4;
    const continuesParagraph = inParagraph && !opened;
    const underline = continuesParagraph && at.matched === containers.length && !indented;
    if (underline && SETEXT_UNDERLINE.test(content)) {
      inParagraph = false; // "Title\n---" is a heading; "- [ ] a\n  ---" holds no box
      if (paragraphBox) items.pop();
      return;
    }
    if (content !== "" && continuesParagraph && (indented || isText(content))) {
      // Paragraph continuation, lazy or not: a bare box on the line before becomes a box.
      if (pending) items.push({ checked: pending.checked, text: content.trimEnd(), line: pending.line });
      paragraphBox ||= pending !== undefined;
      return;
    }
    if (!opened) containers.length = at.matched;
    if (content === "") {
      if (inNewItem) emptyItemLevel = containers.length;
      else if (emptyBefore > 0 && !opened) containers.length = Math.min(containers.length, emptyBefore - 1);
    }
    const fence = indented ? undefined : parseOpeningFence(content);
    if (fence) raw = { fence, level: containers.length };
    else if (!indented && content.startsWith("<!--") && !content.slice(4).includes("-->")) {
      raw = { level: containers.length };
    }
    inParagraph = content !== "" && !indented && isText(content);
    paragraphBox = inParagraph && inNewItem && readBox(content, index + 1);
  });

  /** Records the box a new item's text starts with; whether it was one. */
  function readBox(content: string, line: number): boolean {
    const bare = BARE_BOX.exec(content)?.[1];
    if (bare !== undefined) bareBox = { checked: isChecked(bare), line };
    const box = TASK_BOX.exec(content);
    if (box?.[1] === undefined || box[2] === undefined) return false;
    items.push({ checked: isChecked(box[1]), text: box[2].trimEnd(), line });
    return true;
  }

  const done = items.filter((item) => item.checked).length;
  const firstOpen = items.find((item) => !item.checked);
  return {
    items,
    done,
    total: items.length,
    ...(firstOpen ? { firstOpen: { text: firstOpen.text, line: firstOpen.line } } : {}),
  };
}

/** Text that starts or continues a paragraph: not a fence, a comment, a heading or a break. */
function isText(content: string): boolean {
  return !parseOpeningFence(content) && !content.startsWith("<!--") && !isLeafBlock(content);
}

/** "3/5 done · next: Write the migration", "5/5 done", or "no task boxes". */
export function renderChecklistProgress(list: Checklist): string {
  if (list.total === 0) return "no task boxes";
  const progress = `${list.done}/${list.total} done`;
  if (!list.firstOpen) return progress;
  const next = list.firstOpen.text;
  const shown = next.length > MAX_NEXT_TEXT ? `${next.slice(0, MAX_NEXT_TEXT - 1)}…` : next;
  return `${progress} · next: ${shown}`;
}
