import { fstatSync, readSync } from "node:fs";

export const pause = (ms: number) => Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
/** A writer that sends nothing for this long is not coming back: what arrived is the input. */
const MAX_IDLE_MS = 10_000;

function isCharacterDevice(fd: number): boolean {
  try {
    return fstatSync(fd).isCharacterDevice();
  } catch {
    return false;
  }
}

/**
 * All of stdin as text; "" when there is none (closed, a TTY, or an error).
 * Not `process.stdin.isTTY` nor `readFileSync(0)`: touching `process.stdin` makes a pipe
 * non-blocking, and readFileSync then fails with EAGAIN whenever the writer (Claude Code) is
 * slower than this process, so a large input was read as "" and the hook did nothing.
 */
export function readStdin(): string {
  // A terminal (or /dev/null, /dev/zero): no input. Not tty.isatty: node:tty costs ~2 ms to load.
  if (isCharacterDevice(0)) return "";
  const chunks: Buffer[] = [];
  const buffer = Buffer.alloc(64 * 1024);
  for (let idle = 0; ; ) {
    let n: number;
    try {
      n = readSync(0, buffer, 0, buffer.length, null);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === "EAGAIN" && idle < MAX_IDLE_MS) {
        pause(2);
        idle += 2;
        continue;
      }
      if (code === "EOF") break; // Windows pipes end with an error
      return code === "EAGAIN" ? Buffer.concat(chunks).toString("utf8") : "";
    }
    if (n === 0) break;
    idle = 0;
    chunks.push(Buffer.from(buffer.subarray(0, n)));
  }
  return Buffer.concat(chunks).toString("utf8");
}
