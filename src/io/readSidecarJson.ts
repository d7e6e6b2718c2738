// Its own file: the idle scan (listLoops) reads a sidecar's owner without loading the sidecar's schema.
import { readStateFile } from "./readStateFile.js";

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
