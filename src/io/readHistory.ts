import type { HistoryLine } from "../core/renderStatus.js";
import { readLinesInWindow } from "./readLines.js";

/** Only the end of a long history is read: status and tables show the latest records. */
const MAX_TAIL = 512 * 1024;

/** The history's records, oldest first, from its last 512 KiB; torn or foreign lines are skipped. */
export function readHistory(path: string): HistoryLine[] {
  const out: HistoryLine[] = [];
  for (const line of readLinesInWindow(path, MAX_TAIL)) {
    if (!line.trim()) continue;
    try {
      const value: unknown = JSON.parse(line);
      if (value && typeof value === "object" && !Array.isArray(value)) out.push(value as HistoryLine);
    } catch {
      // a torn last line or a hand edit: skip it
    }
  }
  return out;
}
