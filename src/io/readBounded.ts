import { closeSync, constants, fstatSync, openSync, readSync, type Stats } from "node:fs";

/**
 * Opens a file to read, without blocking: a FIFO put in a file's place must not hang a hook (the flag
 * changes nothing for a regular file). Throws as openSync does.
 */
export function openToRead(path: string): number {
  return openSync(path, constants.O_RDONLY | (constants.O_NONBLOCK ?? 0));
}

/** What a bounded read found: `bytes` start at `start` in a regular file (`stat`: its status when read). */
export type BoundedRead =
  | { kind: "missing" }
  /** It could not be opened: no permission, say (`code`). */
  | { kind: "unopened"; code: string }
  | { kind: "not a file" }
  | { kind: "too large"; size: number }
  | { kind: "found"; bytes: Buffer; start: number; stat: Stats };

/**
 * The one bounded read of a file (docs/ARCHITECTURE.md): opened without blocking, a regular file only, and
 * at most `max` bytes of the window [from, to) (to: the file's end). A larger window is refused ("too large")
 * unless `keep` says which end of it to read. Throws as readSync does when a read fails midway.
 */
export function readBounded(
  path: string,
  max: number,
  window: { from?: number; to?: number; keep?: "head" | "tail" } = {},
): BoundedRead {
  let fd: number;
  try {
    fd = openToRead(path);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? "error";
    return code === "ENOENT" || code === "ENOTDIR" ? { kind: "missing" } : { kind: "unopened", code };
  }
  try {
    const stat = fstatSync(fd);
    if (!stat.isFile()) return { kind: "not a file" };
    const from = window.from ?? 0;
    const end = Math.min(window.to ?? stat.size, stat.size);
    if (end - from > max && !window.keep) return { kind: "too large", size: stat.size };
    const start = window.keep === "tail" ? Math.max(from, end - max) : from;
    const bytes = Buffer.alloc(Math.max(0, Math.min(max, end - start)));
    let read = 0;
    while (read < bytes.length) {
      const n = readSync(fd, bytes, read, bytes.length - read, start + read);
      if (n === 0) break;
      read += n;
    }
    return { kind: "found", bytes: bytes.subarray(0, read), start, stat };
  } finally {
    closeSync(fd);
  }
}
