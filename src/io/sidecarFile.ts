import { rmSync } from "node:fs";
import { EMPTY_RUNTIME, parseSidecar, renderSidecar, type Runtime, type SidecarOwner } from "../core/sidecar.js";
import { readStateFile } from "./readStateFile.js";
import { writeFileAtomic } from "./writeFileAtomic.js";

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
 * Saves the bookkeeping atomically; a sidecar that cannot be written costs counters, not the loop.
 * Not synced to disk: a power cut can only take the last counts with it, never the user's file.
 */
export function writeSidecar(path: string, runtime: Runtime, owner: SidecarOwner): void {
  try {
    writeFileAtomic(path, renderSidecar(runtime, owner), { durable: false });
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
