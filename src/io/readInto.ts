import { closeSync, openSync, readvSync } from "node:fs";

/**
 * Reads from `fd` into `bytes`; `position` null reads from the current position (a pipe). The count
 * read. Through readvSync: in a fresh process its first call costs about 0.1 ms less than
 * readSync's, whose argument checks run in V8's interpreter (README "Performance").
 */
// biome-ignore format: the parentheses make V8 compile it with the script, not at first call (docs/ARCHITECTURE.md)
export const readInto = (function readInto(fd: number, bytes: Uint8Array, position: number | null): number {
  return readvSync(fd, [bytes], position ?? undefined);
});

/**
 * A whole file's bytes, through readInto and without a stat: `readFileSync` would pay readSync's
 * and the first Buffer's first-use costs on the active Stop (README "Performance"). Throws as
 * openSync does.
 */
export function readFileBytes(path: string, sizeHint = 256 * 1024): Uint8Array {
  const fd = openSync(path, "r");
  try {
    let bytes = new Uint8Array(sizeHint);
    let size = 0;
    for (;;) {
      if (size === bytes.length) {
        const grown = new Uint8Array(bytes.length * 2);
        grown.set(bytes);
        bytes = grown;
      }
      const n = readInto(fd, bytes.subarray(size), size);
      if (n === 0) return bytes.subarray(0, size);
      size += n;
    }
  } finally {
    closeSync(fd);
  }
}
