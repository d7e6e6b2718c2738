import { closeSync, fstatSync, readdirSync, readSync, statSync } from "node:fs";
import { join } from "node:path";
import { openToRead } from "./readBounded.js";
import { linesFromEnd, readLinesFromEnd, readLinesInWindow } from "./readLines.js";
import {
  isInterruption,
  isTurnStart,
  parseTranscriptLine,
  scanReply,
  tallyUsage,
  type ReplyScan,
  type TranscriptEntry,
  type UsageTally,
} from "../core/transcript.js";

/** How far back a scan may go: a turn's worth of tool output, never the whole session. */
export const MAX_SCAN_BACK = 8 * 1024 * 1024;
/** Most new bytes counted for tokens in one Stop; more is read from its end only. */
const MAX_SCAN_FORWARD = 16 * 1024 * 1024;

export interface TranscriptScan {
  reply: ReplyScan;
  /** Entries of the turns scanned, oldest first. */
  turn: TranscriptEntry[];
  /** Byte offset of each entry in `turn`. */
  starts: number[];
  /** Byte offset just after the last complete line. */
  end: number;
  size: number;
}

/** Reads the end of a transcript back to the start of the last `turns` turns (bounded). */
export function scanTranscriptEnd(path: string, turns = 1): TranscriptScan | undefined {
  let fd: number;
  try {
    fd = openToRead(path);
  } catch {
    return undefined;
  }
  try {
    const stat = fstatSync(fd);
    if (!stat.isFile()) return undefined; // a folder or device is no transcript
    const size = stat.size;
    const newestFirst: TranscriptEntry[] = [];
    const offsets: number[] = [];
    let end: number | undefined;
    let turnStarts = 0;
    for (const { entry, start } of linesFromEnd(fd, size, MAX_SCAN_BACK, parseTranscriptLine)) {
      end ??= start; // refined below: the end of the last complete line
      if (!entry) continue;
      newestFirst.push(entry);
      offsets.push(start);
      if (isTurnStart(entry) && ++turnStarts >= turns) break;
    }
    const tail = Buffer.alloc(Math.min(size, 1));
    if (size > 0) readSync(fd, tail, { position: size - 1 });
    const complete = size === 0 || tail[0] === 0x0a ? size : (end ?? 0);
    return {
      reply: scanReply(newestFirst),
      turn: newestFirst.reverse(),
      starts: offsets.reverse(),
      end: complete,
      size,
    };
  } finally {
    closeSync(fd);
  }
}

/** Entries in [from, to) of a file, oldest first; only whole lines. */
function readEntriesBetween(path: string, from: number, to: number): TranscriptEntry[] {
  return readLinesInWindow(path, MAX_SCAN_FORWARD, from, to)
    .map(parseTranscriptLine)
    .filter((e): e is TranscriptEntry => !!e);
}

export interface LoopUsage extends UsageTally {
  transcript: string;
  offset: number;
}

/** Was this transcript read at an earlier stop of the loop (so counting goes on from its offset)? */
export function countedBefore(path: string, previous: { transcript: string; offset: number }): boolean {
  return previous.transcript === path && previous.offset > 0;
}

/**
 * Loop-wide output tokens after this turn: from the remembered offset when the transcript is the
 * same one, else over the turns the scan covered (the caller scans back over the loop's turns:
 * an earlier stop may have run before the transcript existed). Never re-reads what was counted.
 */
export function tallyLoopUsage(
  path: string,
  scan: TranscriptScan,
  previous: { transcript: string; offset: number } & UsageTally,
): LoopUsage {
  const sameFile = countedBefore(path, previous) && previous.offset <= scan.end;
  // Usually the scan already read back past the offset (it ends where the last stop ended):
  // its entries are reused instead of reading and parsing the same bytes again.
  const seen = (scan.starts[0] ?? Number.POSITIVE_INFINITY) <= previous.offset;
  const between = () =>
    seen
      ? scan.turn.filter((_, i) => (scan.starts[i] ?? -1) >= previous.offset && (scan.starts[i] ?? Infinity) < scan.end)
      : readEntriesBetween(path, previous.offset, scan.end);
  const entries = sameFile ? between() : scan.turn;
  const base = sameFile ? previous : { ...previous, lastId: "", lastTokens: 0 };
  return { ...tallyUsage(entries, base), transcript: path, offset: scan.end };
}

/**
 * The newest prompt, reply or tool result of the main thread (bookkeeping lines skipped), or undefined;
 * `sidechain`: of a subagent's own transcript instead, whose lines are all a side chain.
 */
function readLastMessage(path: string, sidechain = false): TranscriptEntry | undefined {
  for (const { entry } of readLinesFromEnd(path, 1024 * 1024, parseTranscriptLine)) {
    if (entry && entry.isSidechain === sidechain && (entry.type === "user" || entry.type === "assistant")) return entry;
  }
  return undefined;
}

/** Did the user interrupt (Esc) the turn the transcript ends with (docs/REFERENCE.md "Pausing")? */
export const readInterrupted = (path: string): boolean => isInterruption(readLastMessage(path));

/** The tool the transcript's last reply calls, when it ends on a call (a permission prompt's tool), else undefined. */
export function readPendingTool(path: string): string | undefined {
  const entry = readLastMessage(path);
  return entry?.type === "assistant" ? entry.toolUses.at(-1)?.name : undefined;
}

/** Subagent transcripts looked at for a pending call: the most recently written, a waiting one among them. */
const SUBAGENT_FILES_SCANNED = 8;

/**
 * The tool a subagent's last reply calls, when one ends on a call, else undefined. Claude Code writes a subagent's
 * transcript to `<session>/subagents/agent-<id>.jsonl` beside the session's (docs/REFERENCE.md "Subagents"); the
 * most recently written files are looked at, newest first.
 */
export function readSubagentPendingTool(sessionTranscript: string): string | undefined {
  const dir = join(sessionTranscript.replace(/\.jsonl$/, ""), "subagents");
  let names: string[];
  try {
    names = readdirSync(dir).filter((name) => /^agent-.+\.jsonl$/.test(name));
  } catch {
    return undefined; // no subagent has run in this session
  }
  const newestFirst = names
    .flatMap((name) => {
      try {
        return [{ path: join(dir, name), written: statSync(join(dir, name)).mtimeMs }];
      } catch {
        return []; // removed meanwhile
      }
    })
    .sort((a, b) => b.written - a.written)
    .slice(0, SUBAGENT_FILES_SCANNED);
  for (const { path } of newestFirst) {
    const entry = readLastMessage(path, true);
    const tool = entry?.type === "assistant" ? entry.toolUses.at(-1)?.name : undefined;
    if (tool) return tool;
  }
  return undefined;
}
