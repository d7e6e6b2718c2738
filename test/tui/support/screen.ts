// Reading rendered terminal rows: pure helpers, so they can be checked without a terminal.

/** Index of the first row at or after `start` that matches. */
function findRow(rows: readonly string[], pattern: RegExp, start = 0): number {
  for (let i = start; i < rows.length; i++) if (pattern.test(rows[i] ?? "")) return i;
  return -1;
}

/**
 * The rows strictly between the first row matching `from` and the next row matching `to`, with the
 * blank rows at either end dropped (Claude Code puts one between messages; rows inside count).
 * Undefined when either row is missing.
 */
export function rowsBetween(rows: readonly string[], from: RegExp, to: RegExp): string[] | undefined {
  const start = findRow(rows, from);
  if (start < 0) return undefined;
  const end = findRow(rows, to, start + 1);
  if (end < 0) return undefined;
  const block = rows.slice(start + 1, end);
  while (block.length > 0 && block[0]?.trim() === "") block.shift();
  while (block.length > 0 && block.at(-1)?.trim() === "") block.pop();
  return block;
}

const escapeRegExp = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/** A row showing an assistant reply: Claude Code's bullet, then the reply's first line. */
function replyRow(text: string): RegExp {
  return new RegExp(`^\\S\\s+${escapeRegExp(text)}\\s*$`);
}

/**
 * What one iteration puts on screen between the reply that ended it and the reply that answered the
 * Stop hook: the hook's label, its text and whatever Claude Code adds. Its length is how many screen
 * lines an iteration costs the user (the contract asks for about three).
 */
export function iterationRows(rows: readonly string[], reply: string, nextReply: string): string[] | undefined {
  return rowsBetween(rows, replyRow(reply), replyRow(nextReply));
}

const OSC = /\x1b\]([^\x07\x1b]*)(?:\x07|\x1b\\)/g;

/** BEL characters outside OSC sequences (an OSC may end with BEL: that rings nothing). */
export function bellCount(raw: string): number {
  return raw.replace(OSC, "").split("\x07").length - 1;
}

/** OSC sequences' payloads (between `ESC ]` and the terminator), e.g. `0;title` or `9;done`. */
export function oscPayloads(raw: string): string[] {
  return [...raw.matchAll(OSC)].map((m) => m[1] ?? "");
}
