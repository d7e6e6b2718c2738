import { closeSync, fstatSync } from "node:fs";
import { LoopError } from "../core/errors.js";
import { type HistoryRecord, parseHistoryLine } from "../core/history.js";
import { readHistoryLines } from "./history.js";
import { openToRead } from "./readBounded.js";

/** Opens the history once to say, in one line naming it, why it cannot be read. */
function checkReadable(path: string, shown: string): void {
  let fd: number;
  try {
    fd = openToRead(path);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "ENOENT" || code === "ENOTDIR")
      throw new LoopError("HISTORY_MISSING", "no history yet: no loop has run in this project", {
        file: shown,
        expected: "a loop that has run (/loop-start), or --project DIR for another project",
      });
    throw new LoopError("HISTORY_UNREADABLE", `cannot be read (${code ?? String(error)})`, { file: shown });
  }
  try {
    if (!fstatSync(fd).isFile())
      throw new LoopError("HISTORY_UNREADABLE", "is not a regular file", {
        file: shown,
        expected: "the JSON-lines history the loop writes",
      });
  } finally {
    closeSync(fd);
  }
}

/**
 * The history's records, oldest first, for a report (README "The morning after"): those `history` and
 * `restart` read (readHistoryLines). Torn or foreign lines are skipped, as every reader of the history
 * does; a history that is missing, cannot be read or holds no record at all is a LoopError naming the file.
 */
export function readReportHistory(path: string, shown: string): HistoryRecord[] {
  checkReadable(path, shown);
  const read = readHistoryLines(path);
  const lines = read.length;
  const records = read.flatMap((line) => parseHistoryLine(line) ?? []);
  if (records.length === 0)
    throw new LoopError(
      lines ? "HISTORY_UNREADABLE" : "HISTORY_MISSING",
      lines ? "holds no readable record" : "is empty: no loop has run in this project yet",
      {
        file: shown,
        ...(lines > 0 && { expected: 'one JSON object per line, e.g. {"time":"…","decision":"continue"}' }),
      },
    );
  return records;
}

/**
 * The records `history` and `restart` look back over: none for a history that is missing or empty (no loop
 * has run yet), the same LoopError as `report` for one that cannot be read or holds no record.
 */
export function readPastRecords(path: string, shown: string): HistoryRecord[] {
  try {
    return readReportHistory(path, shown);
  } catch (error) {
    if (error instanceof LoopError && error.code === "HISTORY_MISSING") return [];
    throw error;
  }
}
