import { closeSync, fstatSync, readSync } from "node:fs";
import { openToRead } from "./openToRead.js";

/**
 * The whole lines of a regular file in the byte window [from, to) (to defaults to the file's
 * size), reading at most `maxBytes` from the window's end. A line cut by that cap is dropped.
 * [] when the file cannot be opened or is not a regular file.
 */
export function readLinesInWindow(path: string, maxBytes: number, from = 0, to?: number): string[] {
  let fd: number;
  try {
    fd = openToRead(path);
  } catch {
    return [];
  }
  try {
    const stat = fstatSync(fd);
    if (!stat.isFile()) return [];
    const end = Math.min(to ?? stat.size, stat.size);
    const start = Math.max(from, end - maxBytes);
    const buf = Buffer.alloc(Math.max(0, end - start));
    let read = 0;
    while (read < buf.length) {
      const n = readSync(fd, buf.subarray(read), { position: start + read });
      if (n === 0) break;
      read += n;
    }
    const lines = buf.toString("utf8", 0, read).split("\n");
    if (start > from) lines.shift();
    return lines;
  } finally {
    closeSync(fd);
  }
}
