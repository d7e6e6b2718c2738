import { fstatSync } from "node:fs";
import { decodeUtf8 } from "./decode.js";
import { readInto } from "./readInto.js";
import { sleep } from "./sleep.js";

/** A writer that sends nothing for this long is not coming back: what arrived is the input. */
const MAX_IDLE_MS = 10_000;

/** One read's room: a hook's input fits in it as a rule. */
const FIRST_BUFFER_BYTES = 64 * 1024;

/** A terminal (or /dev/null, /dev/zero): no input. */
function isCharacterDevice(fd: number): boolean {
  try {
    return fstatSync(fd).isCharacterDevice();
  } catch {
    return false;
  }
}

/**
 * All of stdin as text; "" when there is none (closed, a device, or an error). `mayBeTerminal`: the
 * helper, which a person may run by hand, checks for a terminal first (then no input, not a wait).
 * Hooks check only once the input outgrows the first buffer: Claude Code always pipes their input,
 * and that fstat is the costliest step here in a fresh process (README "Performance").
 * Not `process.stdin.isTTY` nor `readFileSync(0)`: touching `process.stdin` makes a pipe
 * non-blocking, and readFileSync then fails with EAGAIN whenever the writer (Claude Code) is
 * slower than this process, so a large input was read as "" and the hook did nothing.
 */
// biome-ignore format: the parentheses make V8 compile it with the script, not at first call (docs/ARCHITECTURE.md)
export const readStdin = (function readStdin(mayBeTerminal = false): string {
  // Not tty.isatty: node:tty costs ~2 ms to load.
  if (mayBeTerminal && isCharacterDevice(0)) return "";
  // Read into one array that grows, decoded once: no copy per read. A plain Uint8Array: a hook's
  // first Buffer costs it ~0.1 ms.
  let buffer = new Uint8Array(FIRST_BUFFER_BYTES);
  let size = 0;
  for (let idle = 0; ; ) {
    if (size === buffer.length) {
      // Input beyond the first buffer: make sure it is not a device that never ends (/dev/zero).
      if (!mayBeTerminal && buffer.length === FIRST_BUFFER_BYTES && isCharacterDevice(0)) return "";
      const grown = new Uint8Array(buffer.length * 2);
      grown.set(buffer);
      buffer = grown;
    }
    let n: number;
    try {
      n = readInto(0, buffer.subarray(size), null);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === "EAGAIN" && idle < MAX_IDLE_MS) {
        sleep(2);
        idle += 2;
        continue;
      }
      if (code === "EOF") break; // Windows pipes end with an error
      return code === "EAGAIN" ? decodeUtf8(buffer, 0, size) : "";
    }
    if (n === 0) break;
    idle = 0;
    size += n;
  }
  return decodeUtf8(buffer, 0, size);
});

/** stdin text → its top-level JSON object, or undefined for anything else. JSON.parse only: no schema. */
// biome-ignore format: the parentheses make V8 compile it with the script, not at first call (docs/ARCHITECTURE.md)
export const peekJson = (function peekJson(stdin: string): Record<string, unknown> | undefined {
  try {
    const raw: unknown = JSON.parse(stdin);
    return raw && typeof raw === "object" && !Array.isArray(raw) ? (raw as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
});

/** A string field of a peeked input, or undefined. */
export const stringField = (input: Record<string, unknown> | undefined, key: string): string | undefined => {
  const value = input?.[key];
  return typeof value === "string" ? value : undefined;
};
