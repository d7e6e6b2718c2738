// Quick looks into a sidecar without its schema, for the idle hooks (the scan, an ordinary prompt): each
// yes is confirmed by the transaction's own read (src/io/sidecarFile.ts). No zod here.
import type { SidecarOwner } from "../core/sidecar.js";
import { readStateFile } from "./readStateFile.js";
import { writeFileAtomic } from "./writeFileAtomic.js";

/** A sidecar is a few hundred bytes; a bigger file is not one of ours and is not read. */
export const MAX_SIDECAR = 256 * 1024;

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
  const pause = readSidecarJson(path, MAX_SIDECAR)?.pause as { reason?: unknown } | null | undefined;
  return pause?.reason === "question";
}

/** How a loop ended when its owner was not the one who ended it (docs/REFERENCE.md "Several loops"). */
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
