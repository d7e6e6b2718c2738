// Quick looks at a sidecar, in their own file: the idle paths (the scan of `.claude/`, an ordinary
// prompt) read them without loading the sidecar's schema.
import { readStateFile } from "./readStateFile.js";

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
  const question = readSidecarJson(path, MAX_SIDECAR)?.pause_question;
  return typeof question === "string" && question !== "";
}
