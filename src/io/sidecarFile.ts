// The sidecar on disk (src/core/sidecar.ts is its record): read, peeked at, written, removed. Only the state-file
// transaction writes it or removes it (src/io/updateStateFile.ts). The peeks need no schema, for the idle hooks.
import { renameSync, rmSync } from "node:fs";
import { parseChecklist } from "../core/checklist.js";
import { type LoopFile, renderKeptSidecarPath } from "../core/loopFiles.js";
import type { LoopState } from "../core/parseState.js";
import {
  digestOf,
  makeRuntime,
  parseSidecar,
  parseSidecarReading,
  parseTombstone,
  type Runtime,
  renderSidecar,
  renderTombstone,
  type SidecarOwner,
  type SidecarReading,
  type Tombstone,
} from "../core/sidecar.js";
import { KEEP_TORN_POINT, reachCrashPoint } from "./crashPoint.js";
import { readBounded } from "./readBounded.js";
import { readChecklistText } from "./readProjectFiles.js";
import { writeFileAtomic } from "./writeFileAtomic.js";
import { overwriteFile } from "./writeInPlace.js";

/** It holds the state file's fields, goal included (a state file is at most 1 MiB): a bigger file is not ours. */
const MAX_SIDECAR = 8 * 1024 * 1024;

/** The sidecar's text, or undefined when it is missing, unreadable, not a file or too big. */
function readSidecarText(path: string): string | undefined {
  try {
    const read = readBounded(path, MAX_SIDECAR);
    return read.kind === "found" ? read.bytes.toString("utf8") : undefined;
  } catch {
    return undefined;
  }
}

/** The loop's bookkeeping, or fresh counters when the sidecar is missing, torn, too big or another loop's. */
export function readSidecar(path: string, owner: SidecarOwner): Runtime {
  const text = readSidecarText(path);
  return (text !== undefined && parseSidecar(text, owner)) || makeRuntime();
}

/**
 * The sidecar as the state-file transaction reads it (SidecarReading), or undefined when it is missing,
 * unreadable or too big (fresh counters, as for another loop's); a torn one says why, to be kept aside and told.
 */
export function readSidecarReading(path: string, owner: SidecarOwner): SidecarReading | undefined {
  const text = readSidecarText(path);
  return text === undefined ? undefined : parseSidecarReading(text, owner);
}

/**
 * Moves a torn sidecar aside, to the one kept copy of its loop (a later torn one replaces it), before a fresh
 * one is written: renamed, so its bytes stay as they were. False when it could not be moved: it is then left.
 */
export function keepTornSidecar(path: string): boolean {
  try {
    renameSync(path, renderKeptSidecarPath(path));
  } catch {
    return false;
  }
  reachCrashPoint(KEEP_TORN_POINT);
  return true;
}

/** The sidecar's JSON as it stands, unchecked: for the idle hooks' quick looks, each confirmed by a full read. */
export function peekSidecar(path: string): Record<string, unknown> | undefined {
  try {
    const text = readSidecarText(path);
    const value: unknown = text === undefined ? undefined : JSON.parse(text);
    return value && typeof value === "object" ? (value as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Is a question of Claude's waiting for the user? Read without the lock or the sidecar's checks, to
 * spare every ordinary prompt both; a yes is checked again under the lock before anything changes.
 */
export function readPendingQuestion(path: string): boolean {
  const pause = peekSidecar(path)?.pause as { reason?: unknown } | null | undefined;
  return pause?.reason === "question";
}

/** The session a sidecar names as its owner, if it is a sidecar of ours. */
export function readSidecarOwner(path: string): string | undefined {
  const loop = peekSidecar(path)?.loop as { session_id?: unknown } | undefined;
  return typeof loop?.session_id === "string" ? loop.session_id : undefined;
}

/** The checklist's `k/n` as the file reads now, or undefined without one or when it does not read. */
function countChecklist(file: LoopFile, state: LoopState): string | undefined {
  if (state.checklist === undefined) return undefined;
  try {
    const list = parseChecklist(readChecklistText(file.root, state.checklist, file.shown));
    return `${list.done}/${list.total}`;
  } catch {
    return undefined;
  }
}

/**
 * The sidecar's text for a loop whose state file reads `stateText` (parsed: `state`): its owner, the
 * bookkeeping, and the view the companion module draws, the checklist counted now.
 */
export function renderLoopSidecar(file: LoopFile, stateText: string, state: LoopState, runtime: Runtime): string {
  const checklist = countChecklist(file, state);
  return renderSidecar(runtime, state, { state_digest: digestOf(stateText), state, ...(checklist && { checklist }) });
}

/** Over the old file as it stands (a new one through a temp file); a symlink in its place is replaced. */
function saveText(path: string, text: string): void {
  const bytes = Buffer.from(text, "utf8");
  if (!overwriteFile(path, bytes)) writeFileAtomic(path, bytes, { durable: false });
}

/**
 * Saves the sidecar, for the state-file transaction only. A sidecar that cannot be written, or is left torn
 * by a killed hook, costs counters, not the loop. Not synced to disk: a power cut can only take the last
 * counts with it, never the user's file.
 */
export function writeSidecar(file: LoopFile, stateText: string, state: LoopState, runtime: Runtime): void {
  try {
    saveText(file.sidecarPath, renderLoopSidecar(file, stateText, state, runtime));
    reachCrashPoint("sidecar-written");
  } catch {
    // the next Stop starts the counters again
  }
}

export function removeSidecar(path: string): void {
  try {
    rmSync(path, { force: true });
  } catch {
    // a sidecar left behind is discarded by the next loop (another started_at)
  }
}

/** Leaves a tombstone in the sidecar of a loop ended from elsewhere, so its owner's next Stop can say so once. */
export function writeTombstone(path: string, owner: SidecarOwner, ended: Tombstone): void {
  try {
    saveText(path, renderTombstone(owner, ended));
  } catch {
    // the owner is then told the file vanished, which is still true
  }
}

/** A sidecar left without its state file: how the loop ended, if someone said (else it vanished). */
export function readTombstone(path: string): Tombstone | undefined {
  const text = readSidecarText(path);
  return text === undefined ? undefined : parseTombstone(text);
}
