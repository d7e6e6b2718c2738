import { closeSync, fstatSync, readdirSync, readSync, statSync } from "node:fs";
import { join } from "node:path";
import { openToRead } from "./readBounded.js";
import { linesFromEnd, readLinesFromEnd, readLinesInWindow } from "./readLines.js";
import type { PendingCall } from "../core/permissionWait.js";
import { namesFinishedTask } from "../core/protocol.js";
import {
  findAnsweredCall,
  findCallAnswer,
  findNewestMessage,
  isInterruption,
  insertByTime,
  isTurnStart,
  keepOwnTurns,
  parseTranscriptLine,
  placeAbove,
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

/**
 * Reads the end of a transcript back to the start of the last `turns` turns (bounded). `firstRead` (the loop's first
 * read of this transcript): replies above the oldest turn start that are later than it are the turn's too.
 */
export function scanTranscriptEnd(
  path: string,
  turns = 1,
  { firstRead = false }: { firstRead?: boolean } = {},
): TranscriptScan | undefined {
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
    if (firstRead && turnStarts >= turns) takeInLaterReplies(fd, newestFirst, offsets);
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

/**
 * Claude Code 2.1.197 may write a session's first reply above the prompt and attachments it answers, though its
 * time is later (docs/REFERENCE.md "Leave it running"): the lines above the turn start the scan ended on are read back to the
 * first message older than it, and the later replies among them put into the turn by time (in place).
 */
function takeInLaterReplies(fd: number, newestFirst: TranscriptEntry[], offsets: number[]): void {
  const turnStart = newestFirst.at(-1);
  const from = offsets.at(-1);
  if (!turnStart || from === undefined) return;
  const later: { entry: TranscriptEntry; start: number }[] = [];
  for (const { entry, start } of linesFromEnd(fd, from, MAX_SCAN_BACK, parseTranscriptLine)) {
    const place = entry && placeAbove(entry, turnStart);
    if (place === "before") break;
    if (place === "turn") later.push({ entry: entry as TranscriptEntry, start });
  }
  if (later.length === 0) return;
  const lines = insertByTime(
    newestFirst.map((entry, i) => ({ entry, start: offsets[i] ?? 0 })).reverse(),
    later.reverse(),
  ).reverse();
  newestFirst.splice(0, newestFirst.length, ...lines.map((line) => line.entry));
  offsets.splice(0, offsets.length, ...lines.map((line) => line.start));
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
 * `reply` (this Stop's): a turn another process of the session wrote among the new lines is not the loop's.
 */
export function tallyLoopUsage(
  path: string,
  scan: TranscriptScan,
  previous: { transcript: string; offset: number } & UsageTally,
  reply?: string,
): LoopUsage {
  const sameFile = countedBefore(path, previous) && previous.offset <= scan.end;
  // Usually the scan already read back past the offset (it ends where the last stop ended):
  // its entries are reused instead of reading and parsing the same bytes again.
  const seen = (scan.starts[0] ?? Number.POSITIVE_INFINITY) <= previous.offset;
  const between = () =>
    seen
      ? scan.turn.filter((_, i) => (scan.starts[i] ?? -1) >= previous.offset && (scan.starts[i] ?? Infinity) < scan.end)
      : readEntriesBetween(path, previous.offset, scan.end);
  const entries = sameFile ? keepOwnTurns(between(), reply) : scan.turn;
  const base = sameFile ? previous : { ...previous, lastId: "", lastTokens: 0 };
  return { ...tallyUsage(entries, base), transcript: path, offset: scan.end };
}

/** How far back the newest message is looked for: a turn's lines, never the whole session. */
const LAST_MESSAGE_SCAN_BACK = 1024 * 1024;

/**
 * The last prompt, reply or tool result of the main thread in the file (bookkeeping lines skipped), or undefined;
 * `sidechain`: of a subagent's own transcript instead, whose lines are all a side chain.
 */
function readLastMessage(path: string, sidechain = false): TranscriptEntry | undefined {
  for (const { entry } of readLinesFromEnd(path, LAST_MESSAGE_SCAN_BACK, parseTranscriptLine)) {
    if (entry && entry.isSidechain === sidechain && (entry.type === "user" || entry.type === "assistant")) return entry;
  }
  return undefined;
}

/** Did the user interrupt (Esc) the turn the transcript ends with (docs/REFERENCE.md "Pausing")? */
export const readInterrupted = (path: string): boolean => isInterruption(readLastMessage(path));

/**
 * The call the transcript's newest message ends on (a permission prompt's call), else undefined. The whole window is
 * read: the newest message may lie above lines written after it.
 */
export function readPendingCall(path: string, sidechain = false): PendingCall | undefined {
  const lines = [...readLinesFromEnd(path, LAST_MESSAGE_SCAN_BACK, parseTranscriptLine)];
  const entry = findNewestMessage(
    lines.flatMap(({ entry }) => (entry ? [entry] : [])),
    sidechain,
  );
  const use = entry?.type === "assistant" ? entry.toolUses.at(-1) : undefined;
  return use ? { name: use.name, id: use.id ?? "", transcript: path } : undefined;
}

/** Subagent transcripts looked at for a pending call: the most recently written, a waiting one among them. */
const SUBAGENT_FILES_SCANNED = 8;

/**
 * The call a subagent's last reply ends on, when one does, else undefined. Claude Code writes a subagent's
 * transcript to `<session>/subagents/agent-<id>.jsonl` beside the session's (docs/REFERENCE.md "Subagents"); the
 * most recently written files are looked at, newest first.
 */
export function readSubagentPendingCall(sessionTranscript: string): PendingCall | undefined {
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
    const call = readPendingCall(path, true);
    if (call) return call;
  }
  return undefined;
}

/**
 * How far back status looks for what happened since a wait was recorded (a permission answer, a held task's
 * notification): the turn that followed, never the whole session.
 */
const SINCE_WAIT_SCAN_BACK = 1024 * 1024;

/**
 * Has the call asked about been answered: its result written (the tool ran, or was refused)? Read from the end; a
 * transcript that grew past the bound since is answered too, one that cannot be read is not. With no id (the
 * transcript did not show the call yet when the prompt opened): a call written since `offset` has its result.
 */
function readCallAnswered(call: { id: string; transcript: string; offset: number }): boolean {
  let lines = 0;
  let reachedOffset = false;
  const entries = function* () {
    for (const { entry, start } of readLinesFromEnd(call.transcript, SINCE_WAIT_SCAN_BACK, parseTranscriptLine)) {
      lines++;
      if (!call.id && start < call.offset) {
        reachedOffset = true;
        return;
      }
      if (entry) yield entry;
    }
  };
  if (!call.id) return findAnsweredCall(entries()) || (!reachedOffset && lines > 0 && call.offset > 0);
  const found = findCallAnswer(entries(), call.id);
  return found === "answered" || (found === undefined && lines > 0);
}

/** A transcript's size now, or 0 when it cannot be read: where the lines written from now on start. */
export function readTranscriptSize(path: string): number {
  try {
    return statSync(path).size;
  } catch {
    return 0;
  }
}

/**
 * Where a recorded permission wait stands, by its transcripts' ends: still open; closed by Esc or "No" (the turn
 * ended with no Stop to clear it); or answered (the call has its result: the turn goes on). A wait recorded with no
 * call (an older sidecar, a transcript that did not show it) is open until closed.
 */
export function readPermissionWaitNow(wait: {
  transcript: string;
  call?: { id: string; transcript: string; offset: number } | undefined;
}): "open" | "closed" | "answered" {
  if (wait.transcript && readInterrupted(wait.transcript)) return "closed";
  return wait.call && readCallAnswered(wait.call) ? "answered" : "open";
}

/**
 * Where a recorded hold for background work stands, by the session transcript's end since the hold's Stop (from
 * `offset`, the end of what that Stop read, at most SINCE_WAIT_SCAN_BACK back): still open; a held task's notification
 * started a turn, whose Stop decides again (`notified`); or the turn after the hold was interrupted (Esc), so no
 * Stop comes and the person's next prompt pauses the loop (`interrupted`). A transcript that cannot be read is open.
 */
export function readHoldNow(
  transcript: string,
  offset: number,
  taskIds: readonly string[],
): "open" | "notified" | "interrupted" {
  if (!transcript) return "open";
  let newest = true;
  for (const { entry, start } of readLinesFromEnd(transcript, SINCE_WAIT_SCAN_BACK, parseTranscriptLine)) {
    if (start < offset) break;
    if (!entry || entry.isSidechain || (entry.type !== "user" && entry.type !== "assistant")) continue;
    // Only the newest message tells an Esc: an interruption further back ended a turn the hold's Stop came after.
    if (newest && isInterruption(entry)) return "interrupted";
    newest = false;
    if (entry.type === "user" && entry.texts.some((text) => namesFinishedTask(text, taskIds))) return "notified";
  }
  return "open";
}
