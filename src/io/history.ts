import { appendFileSync } from "node:fs";
import type { HistoryRecord } from "../core/history.js";
import { reachCrashPoint } from "./crashPoint.js";
import { readLinesInWindow } from "./readLines.js";

/** Only the end of a long history is read: status and tables show the latest records. */
const MAX_TAIL = 512 * 1024;

/**
 * Appends one JSON line (O_APPEND keeps concurrent writers' lines whole), or skips when the history
 * cannot be written: it is a record, not the loop.
 */
export function tryAppendHistory(path: string, record: HistoryRecord): void {
  try {
    appendFileSync(path, `${JSON.stringify(record)}\n`);
    reachCrashPoint("history-appended");
  } catch {
    // a full disk or a read-only folder must not stop the loop
  }
}

/** The history's records, oldest first, from its last 512 KiB; torn or foreign lines are skipped. */
export function readHistory(path: string): HistoryRecord[] {
  const out: HistoryRecord[] = [];
  for (const line of readLinesInWindow(path, MAX_TAIL)) {
    if (!line.trim()) continue;
    try {
      const value: unknown = JSON.parse(line);
      if (value && typeof value === "object" && !Array.isArray(value)) out.push(value as HistoryRecord);
    } catch {
      // a torn last line or a hand edit: skip it
    }
  }
  return out;
}
