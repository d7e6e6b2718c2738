// The sidecar on disk (src/core/sidecar.ts is its record): read, peeked at, written, removed. The peeks need no
// schema, for the idle hooks.
import { rmSync } from "node:fs";
import {
  makeRuntime,
  parseSidecar,
  parseTombstone,
  type Runtime,
  renderSidecar,
  renderTombstone,
  type SidecarOwner,
  type Tombstone,
} from "../core/sidecar.js";
import { reachCrashPoint } from "./crashPoint.js";
import { readBounded } from "./readBounded.js";
import { writeFileAtomic } from "./writeFileAtomic.js";
import { overwriteFile } from "./writeInPlace.js";

/** A sidecar is a few hundred bytes; a bigger file is not one of ours and is not read. */
const MAX_SIDECAR = 256 * 1024;

/** The sidecar's text, or undefined when it is missing, unreadable, not a file or too big. */
export function readSidecarText(path: string): string | undefined {
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

/**
 * Saves the bookkeeping over the old sidecar (a new one through a temp file); a sidecar that cannot
 * be written, or is left torn by a killed hook, costs counters, not the loop. Not synced to disk: a
 * power cut can only take the last counts with it, never the user's file. Returns the text saved, or
 * undefined when it could not be.
 */
export function writeSidecar(path: string, runtime: Runtime, owner: SidecarOwner): string | undefined {
  try {
    const text = renderSidecar(runtime, owner);
    saveText(path, text);
    reachCrashPoint("sidecar-written");
    return text;
  } catch {
    return undefined; // the next Stop starts the counters again
  }
}

/** Over the old file as it stands (a new one through a temp file); a symlink in its place is replaced. */
function saveText(path: string, text: string): void {
  const bytes = Buffer.from(text, "utf8");
  if (!overwriteFile(path, bytes)) writeFileAtomic(path, bytes, { durable: false });
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
