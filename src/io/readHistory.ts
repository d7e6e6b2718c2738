import { closeSync, fstatSync, openSync, readSync } from "node:fs";
import type { HistoryLine } from "../core/renderStatus.js";

/** Only the end of a long history is read: status and tables show the latest records. */
const MAX_TAIL = 512 * 1024;

/** The history's records, oldest first, from its last 512 KiB; torn or foreign lines are skipped. */
export function readHistory(path: string): HistoryLine[] {
  let fd: number;
  try {
    fd = openSync(path, "r");
  } catch {
    return [];
  }
  try {
    const size = fstatSync(fd).size;
    const start = Math.max(0, size - MAX_TAIL);
    const buf = Buffer.alloc(size - start);
    let read = 0;
    while (read < buf.length) {
      const n = readSync(fd, buf, read, buf.length - read, start + read);
      if (n === 0) break;
      read += n;
    }
    const lines = buf.toString("utf8", 0, read).split("\n");
    if (start > 0) lines.shift(); // the first line may be cut
    const out: HistoryLine[] = [];
    for (const line of lines) {
      if (!line.trim()) continue;
      try {
        const value: unknown = JSON.parse(line);
        if (value && typeof value === "object" && !Array.isArray(value)) out.push(value as HistoryLine);
      } catch {
        // a torn last line or a hand edit: skip it
      }
    }
    return out;
  } finally {
    closeSync(fd);
  }
}
