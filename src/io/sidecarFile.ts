import { rmSync } from "node:fs";
import { makeRuntime, parseSidecar, renderSidecar, type Runtime, type SidecarOwner } from "../core/sidecar.js";
import { reachCrashPoint } from "./crashPoint.js";
import { readStateFile } from "./readStateFile.js";
import { MAX_SIDECAR } from "./peekSidecar.js";
import { writeFileAtomic } from "./writeFileAtomic.js";
import { overwriteFile } from "./writeInPlace.js";

/** The sidecar's text, or undefined when it is missing, unreadable or too big. */
export function readSidecarText(path: string): string | undefined {
  try {
    // Bounded and non-blocking, like the state file: a FIFO or a huge file in its place is no sidecar.
    const read = readStateFile(path);
    return read.kind === "found" && read.text.length <= MAX_SIDECAR ? read.text : undefined;
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
 * Saves the bookkeeping over the old sidecar (a new one through a temp file); a sidecar that cannot
 * be written, or is left torn by a killed hook, costs counters, not the loop. Not synced to disk: a
 * power cut can only take the last counts with it, never the user's file. Returns the text saved, or
 * undefined when it could not be.
 */
export function writeSidecar(path: string, runtime: Runtime, owner: SidecarOwner): string | undefined {
  try {
    const text = renderSidecar(runtime, owner);
    const bytes = Buffer.from(text, "utf8");
    if (!overwriteFile(path, bytes)) writeFileAtomic(path, bytes, { durable: false });
    reachCrashPoint("sidecar-written");
    return text;
  } catch {
    return undefined; // the next Stop starts the counters again
  }
}

export function removeSidecar(path: string): void {
  try {
    rmSync(path, { force: true });
  } catch {
    // a sidecar left behind is discarded by the next loop (another started_at)
  }
}
