import { fstatSync, readSync } from "node:fs";
import { sleep } from "./sleep.js";

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
        sleep(2);
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

/** stdin text → its top-level JSON object, or undefined for anything else. JSON.parse only: no schema. */
export function peekJson(stdin: string): Record<string, unknown> | undefined {
  try {
    const raw: unknown = JSON.parse(stdin);
    return raw && typeof raw === "object" && !Array.isArray(raw) ? (raw as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

/** A string field of a peeked input, or undefined. */
export const stringField = (input: Record<string, unknown> | undefined, key: string): string | undefined => {
  const value = input?.[key];
  return typeof value === "string" ? value : undefined;
};
