import { fstatSync, readSync } from "node:fs";
import { sleep } from "./sleep.js";

/** A writer that sends nothing for this long is not coming back: what arrived is the input. */
const MAX_IDLE_MS = 10_000;

/** A terminal or a device such as /dev/null or /dev/zero: no input. */
function isCharacterDevice(fd: number): boolean {
  try {
    return fstatSync(fd).isCharacterDevice();
  } catch {
    return false;
  }
}

/**
 * All of stdin as text; "" when there is none (closed, a terminal or another device, an error): a
 * hook run by hand in a terminal answers at once instead of waiting for input.
 * Not `process.stdin` nor `readFileSync(0)`: touching `process.stdin` makes a pipe non-blocking, and
 * readFileSync then fails with EAGAIN whenever the writer (Claude Code) is slower than this process,
 * so a large input was read as "" and the hook did nothing.
 */
export function readStdin(): string {
  if (isCharacterDevice(0)) return "";
  let buffer = Buffer.alloc(64 * 1024);
  let size = 0;
  for (let idle = 0; ; ) {
    if (size === buffer.length) {
      const grown = Buffer.alloc(buffer.length * 2);
      grown.set(buffer);
      buffer = grown;
    }
    let n: number;
    try {
      // The positional form: Node 12 reads an options object's default length as the whole buffer's.
      n = readSync(0, buffer, size, buffer.length - size, null);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === "EAGAIN" && idle < MAX_IDLE_MS) {
        sleep(2);
        idle += 2;
        continue;
      }
      if (code === "EOF") break; // Windows pipes end with an error
      return code === "EAGAIN" ? buffer.toString("utf8", 0, size) : "";
    }
    if (n === 0) break;
    idle = 0;
    size += n;
  }
  return buffer.toString("utf8", 0, size);
}
