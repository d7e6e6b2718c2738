import { readBounded } from "./readBounded.js";

/**
 * The whole lines of a regular file in the byte window [from, to) (to defaults to the file's
 * size), reading at most `maxBytes` from the window's end. A line cut by that cap is dropped.
 * [] when the file cannot be opened or is not a regular file.
 */
export function readLinesInWindow(path: string, maxBytes: number, from = 0, to?: number): string[] {
  const read = readBounded(path, maxBytes, { from, ...(to !== undefined && { to }), keep: "tail" });
  if (read.kind !== "found") return [];
  const lines = read.bytes.toString("utf8").split("\n");
  if (read.start > from) lines.shift();
  return lines;
}
