import { accessSync, closeSync, constants, openSync, statSync } from "node:fs";
import { dirname } from "node:path";
import { type HistoryRecord, parseHistoryLine } from "../core/history.js";
import { reachCrashPoint } from "./crashPoint.js";
import { writeWholeInto } from "./diskFull.js";
import { readBounded } from "./readBounded.js";
import { readLinesFromEnd, readLinesInWindow } from "./readLines.js";

/** Only the end of a long history is read: status and tables show the latest records. */
const MAX_TAIL = 512 * 1024;

/** Whether the history ends mid-line (a writer killed mid-append): then a record must start a line of its own. */
function endsMidLine(path: string): boolean {
  const last = readBounded(path, 1, { keep: "tail" });
  return last.kind === "found" && last.bytes.length === 1 && last.bytes[0] !== 0x0a;
}

/**
 * Why this process cannot append to the history (EACCES, EROFS, EISDIR…), undefined when it can: a history owned by
 * another user, or made read-only, loses the loop's records without a word otherwise.
 */
export function readHistoryUnwritable(path: string): string | undefined {
  try {
    if (statSync(path).isDirectory()) return "EISDIR";
    accessSync(path, constants.W_OK);
    return undefined;
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? "error";
    if (code !== "ENOENT") return code;
  }
  try {
    accessSync(dirname(path), constants.W_OK);
    return undefined;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code ?? "error";
  }
}

/**
 * Appends one JSON line (O_APPEND keeps concurrent writers' lines whole), or skips when the history
 * cannot be written: it is a record, not the loop. After a torn last line the record starts a new line,
 * and the fragment is left as it is.
 */
export function tryAppendHistory(path: string, record: HistoryRecord): void {
  try {
    const line = Buffer.from(`${endsMidLine(path) ? "\n" : ""}${JSON.stringify(record)}\n`);
    // Never writable by others, whatever the umask (000 would make it so): records are read back as the loop's.
    const fd = openSync(path, "a", 0o644);
    try {
      // A full disk takes part of the line: the fragment is left, and the next record starts a line of its own.
      writeWholeInto(path, fd, line);
    } finally {
      closeSync(fd);
    }
    reachCrashPoint("history-appended");
  } catch {
    // a full disk or a read-only folder must not stop the loop
  }
}

/**
 * The history's records, oldest first, from its last 512 KiB, for a hook's or status's look at the latest;
 * torn or foreign lines are skipped. Past loops are read by readWholeHistory.
 */
export function readHistory(path: string): HistoryRecord[] {
  return readLinesInWindow(path, MAX_TAIL).flatMap((line) => parseHistoryLine(line) ?? []);
}

/** What the commands that look back over past loops read (history, restart, report): thousands of iterations of many loops. */
const LOOK_BACK = 64 * 1024 * 1024;

/**
 * The history's non-blank whole lines, oldest first, from its last 64 MiB: the lines of the commands that
 * look back over past loops. A line cut by that bound is dropped; [] when there is no readable file.
 */
export function readHistoryLines(path: string): string[] {
  return readLinesInWindow(path, LOOK_BACK).filter((line) => line.trim() !== "");
}

/** How much of other loops' records a Stop passes over looking for its loop's previous record. */
const PREVIOUS_WINDOW = 64 * 1024;
/** How far back that look may read at all: a record keeps its loop's goal, and a state file holds up to 1 MiB. */
const PREVIOUS_RECORD_BACK = 8 * 1024 * 1024;

/**
 * The last record of the loop in `stateFile` that started at `startedAt` (ISO), looked for past at most 64 KiB
 * of other loops' records; undefined when the loop has none there (its first Stop). A wait for a permission
 * answer is written mid-turn, so it starts no iteration and is passed over; the file's latest end is an earlier
 * loop's. `now`: a start later than it means the clock was set back since, and the loop's own records may be
 * older than its start (docs/REFERENCE.md "When the clock jumps").
 */
export function readPreviousRecord(
  path: string,
  stateFile: string,
  startedAt: string,
  now: number,
): HistoryRecord | undefined {
  const since = Date.parse(startedAt);
  if (!Number.isFinite(since)) return undefined;
  const setBack = since > now;
  // The path as JSON writes it: only lines that may be this file's are parsed.
  const needle = JSON.stringify(stateFile);
  let passed = 0;
  try {
    // Line by line from the end, so a record longer than the window (a goal of many KB) is still read whole.
    for (const { entry: line } of readLinesFromEnd(path, PREVIOUS_RECORD_BACK, (text) => text)) {
      if (line === undefined) continue;
      if (!line.includes(needle)) {
        passed += line.length;
        if (passed > PREVIOUS_WINDOW) return undefined;
        continue;
      }
      const record = parseHistoryLine(line);
      if (!record || record.decision === "waiting_permission") continue;
      const at = Date.parse(record.time);
      // The newest record of this file: this loop's, or an earlier loop's (then this loop has none). An end is
      // always an earlier loop's, even one in the same millisecond as this start (`/loop-start --force`).
      if (record.state_file !== stateFile || !Number.isFinite(at)) continue;
      return (at >= since || setBack) && record.decision !== "end" ? record : undefined;
    }
  } catch {
    // a history that cannot be read back: this loop's first record, as with none
  }
  return undefined;
}

/**
 * The loop that runs (or ran last) in `stateFile`, read from the end of the history back to that file's last end,
 * within the look back of the commands that read past loops: its first record that keeps the goal and fields, and
 * its last iteration. A long loop's first record lies far behind the tail a status reads.
 */
export function readLoopStart(path: string, stateFile: string): { start?: HistoryRecord; iteration?: number } {
  const needle = JSON.stringify(stateFile);
  const found: { start?: HistoryRecord; iteration?: number } = {};
  const parse = (line: string) => (line.includes(needle) ? parseHistoryLine(line) : undefined);
  try {
    for (const { entry: record } of readLinesFromEnd(path, LOOK_BACK, parse)) {
      if (record?.state_file !== stateFile) continue;
      found.iteration ??= record.iteration;
      if (record.decision === "end") break;
      if (typeof record.goal === "string") found.start = record;
    }
  } catch {
    // a history that cannot be read back (as readPreviousRecord): what was found so far
  }
  return found;
}

/** The history's size in bytes now (0 when it does not exist): where a reader of new records starts. */
export function readHistorySize(path: string): number {
  try {
    return statSync(path).size;
  } catch {
    return 0;
  }
}

/** How much one read of new records takes at most: a reader that falls behind catches up over several. */
const MAX_NEW = 4 * 1024 * 1024;

/**
 * The whole records appended since byte `offset`, and the offset after the last whole line read (a line
 * still being written waits for the next read). Torn or foreign lines are skipped.
 */
export function readHistorySince(path: string, offset: number): { records: HistoryRecord[]; offset: number } {
  const read = readBounded(path, MAX_NEW, { from: offset, keep: "head" });
  if (read.kind !== "found") return { records: [], offset };
  // Append-only: a history that shrank was replaced; its records are not this loop's news.
  if (read.stat.size <= offset) return { records: [], offset: Math.min(offset, read.stat.size) };
  const end = read.bytes.lastIndexOf(0x0a);
  if (end < 0) return { records: [], offset };
  const lines = read.bytes.toString("utf8", 0, end).split("\n");
  return { records: lines.flatMap((line) => parseHistoryLine(line) ?? []), offset: offset + end + 1 };
}
