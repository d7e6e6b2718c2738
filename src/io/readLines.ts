import { closeSync, fstatSync, readSync } from "node:fs";
import { openToRead, readBounded } from "./readBounded.js";

const CHUNK = 64 * 1024;

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

/**
 * Complete lines from the end of the file towards its start, newest first, within `maxBytes`, each with
 * where it starts. `parse` may skip lines cheaply (return undefined) before any JSON.parse.
 */
export function* linesFromEnd<T>(
  fd: number,
  size: number,
  maxBytes: number,
  parse: (line: string) => T | undefined,
): Generator<{ entry: T | undefined; start: number }> {
  const floor = Math.max(0, size - maxBytes);
  let pos = size;
  // The line the chunks read so far end inside, in file order: kept as pieces and searched only once,
  // so a long stretch without a line break (a file of NUL bytes) is read in linear time.
  let carry: Buffer[] = [];
  while (pos > floor) {
    const start = Math.max(floor, pos - CHUNK);
    const chunk = Buffer.alloc(pos - start);
    readSync(fd, chunk, { position: start });
    pos = start;
    let i = chunk.lastIndexOf(0x0a);
    if (i === -1) {
      carry.unshift(chunk);
      continue;
    }
    const buf = carry.length ? Buffer.concat([chunk, ...carry]) : chunk;
    let end = buf.length;
    // Buffer#lastIndexOf treats a negative offset as "from the end", so stop at 0 explicitly.
    for (; i !== -1; i = i > 0 ? buf.lastIndexOf(0x0a, i - 1) : -1) {
      if (end - i > 1) yield { entry: parse(buf.toString("utf8", i + 1, end)), start: start + i + 1 };
      end = i;
    }
    carry = [buf.subarray(0, end)];
  }
  const first = Buffer.concat(carry);
  if (floor === 0 && first.length) yield { entry: parse(first.toString("utf8")), start: 0 };
}

/**
 * The lines of the file at `path` from its end, as linesFromEnd gives them; none when it cannot be opened or is
 * no regular file (a folder, a device). The file is closed when the caller stops early too.
 */
export function* readLinesFromEnd<T>(
  path: string,
  maxBytes: number,
  parse: (line: string) => T | undefined,
): Generator<{ entry: T | undefined; start: number }> {
  let fd: number;
  try {
    fd = openToRead(path);
  } catch {
    return;
  }
  try {
    const stat = fstatSync(fd);
    if (stat.isFile()) yield* linesFromEnd(fd, stat.size, maxBytes, parse);
  } finally {
    closeSync(fd);
  }
}
