import { rmSync } from "node:fs";
import { EMPTY_RUNTIME, parseSidecar, renderSidecar, type Runtime, type SidecarOwner } from "../core/sidecar.js";
import { reachCrashPoint } from "./crashPoint.js";
import { readStateFile } from "./readStateFile.js";
import { writeFileAtomic } from "./writeFileAtomic.js";
import { overwriteFile } from "./writeInPlace.js";

/** A sidecar is a few hundred bytes; a bigger file is not one of ours and is not read. */
const MAX_SIDECAR = 256 * 1024;

/** The loop's bookkeeping, or fresh counters when the sidecar is missing, torn, too big or another loop's. */
export function readSidecar(path: string, owner: SidecarOwner): Runtime {
  try {
    // Bounded and non-blocking, like the state file: a FIFO or a huge file in its place is no sidecar.
    const read = readStateFile(path);
    if (read.kind === "found" && read.text.length <= MAX_SIDECAR) {
      const runtime = parseSidecar(read.text, owner);
      if (runtime) return runtime;
    }
    return { ...EMPTY_RUNTIME, tokens_by_model: {} };
  } catch {
    return { ...EMPTY_RUNTIME, tokens_by_model: {} };
  }
}

/**
 * Saves the bookkeeping over the old sidecar (a new one through a temp file); a sidecar that cannot
 * be written, or is left torn by a killed hook, costs counters, not the loop. Not synced to disk: a
 * power cut can only take the last counts with it, never the user's file.
 */
export function writeSidecar(path: string, runtime: Runtime, owner: SidecarOwner): void {
  try {
    const bytes = Buffer.from(renderSidecar(runtime, owner), "utf8");
    if (!overwriteFile(path, bytes)) writeFileAtomic(path, bytes, { durable: false });
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

/**
 * The sidecar's JSON as it stands, unchecked: undefined when it is missing, unreadable, longer than
 * `maxChars` or not JSON. For quick looks that the transaction's own read then confirms.
 */
export function readSidecarJson(
  path: string,
  maxChars = Number.POSITIVE_INFINITY,
): Record<string, unknown> | undefined {
  try {
    const read = readStateFile(path);
    if (read.kind !== "found" || read.text.length > maxChars) return undefined;
    const value: unknown = JSON.parse(read.text);
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
  const question = readSidecarJson(path, MAX_SIDECAR)?.pause_question;
  return typeof question === "string" && question !== "";
}

/** How a loop ended when its owner was not the one who ended it (README "Several loops"). */
export interface Tombstone {
  reason: "stopped";
  by: string;
  at: string;
}

/** Marks the sidecar of a loop ended from elsewhere, so its owner's next Stop can say so once. */
export function writeTombstone(path: string, owner: SidecarOwner, ended: Tombstone): void {
  try {
    const loop = { started_at: owner.started_at ?? null, session_id: owner.session_id ?? null };
    writeFileAtomic(path, `${JSON.stringify({ loop, ended }, null, 2)}\n`, { durable: false });
  } catch {
    // the owner is then told the file vanished, which is still true
  }
}

/** A sidecar left without its state file: how the loop ended, if someone said (else it vanished). */
export function readTombstone(path: string): Tombstone | undefined {
  const ended = readSidecarJson(path)?.ended as Tombstone | undefined;
  return ended && typeof ended.by === "string" ? ended : undefined;
}
