import { fstatSync, writeSync } from "node:fs";
import type { Env } from "../core/loopFiles.js";

/**
 * Test-only (CONTRIBUTING.md "Test-only switches"): the writes of a loop's files that a test can make meet a full
 * disk, named by the file they write. A path's name says which it is (a temp file is named by its target).
 */
const WRITES = { lock: ".lock", state: ".local.md", sidecar: ".runtime.json", history: ".history.jsonl" } as const;
/** `other`: any other file written through writeFileAtomic (install's, say). */
type NamedWrite = keyof typeof WRITES | "other";

/** `CONTINUATION_LOOP_TEST_DISK_FULL=WRITE[:BYTES],…`: that write gets BYTES (default 0) through, then ENOSPC. */
const SWITCH = "CONTINUATION_LOOP_TEST_DISK_FULL";
/**
 * Kept on the process, as the crash point is: a hook entry and its active bundle each have their own copy of this
 * module. The switch's text until the first write reads it, so that a hook that writes nothing carries no parser.
 */
const ARMED = Symbol.for("continuation-loop.test-disk-full");
type Left = Partial<Record<NamedWrite, number>>;
const slot = globalThis as { [ARMED]?: string | Left };

/** Reads the test-only switch from the process's environment, once, where its Context is made. */
export function armDiskFull(env: Env): void {
  if (env[SWITCH]) slot[ARMED] = env[SWITCH];
}

/** What space each armed write has left, read from the switch's text at the first write. */
function readArmed(): Left | undefined {
  const armed = slot[ARMED];
  if (typeof armed !== "string") return armed;
  const left: Left = {};
  for (const entry of armed.split(",")) {
    const [name = "", bytes = "0"] = entry.split(":");
    if (name in WRITES || name === "other") left[name as NamedWrite] = Number.parseInt(bytes, 10) || 0;
  }
  slot[ARMED] = left;
  return left;
}

function namedWrite(path: string): NamedWrite {
  return (Object.keys(WRITES) as (keyof typeof WRITES)[]).find((name) => path.endsWith(WRITES[name])) ?? "other";
}

/** All of `bytes` appended into `fd` at its offset (a short write goes on from where it stopped); `path` as below. */
export function writeWholeInto(path: string, fd: number, bytes: Buffer): void {
  for (let at = 0; at < bytes.length; ) at += writeSyncInto(path, fd, bytes, at, bytes.length - at);
}

/**
 * writeSync for a write into `path` (the file written, or the target of its temp file), at `position` or at the
 * end. Unless a test armed that write, exactly writeSync; armed, it behaves as a full disk does, to the byte:
 * writing over the file's own bytes takes no space, and past its end only the BYTES left, in a short write,
 * then ENOSPC.
 */
export function writeSyncInto(
  path: string,
  fd: number,
  bytes: Buffer,
  offset: number,
  length: number,
  position?: number,
): number {
  if (slot[ARMED] === undefined) return writeSync(fd, bytes, offset, length, position);
  return writeAsFull(path, fd, bytes, offset, length, position);
}

/** writeSyncInto once a test armed the switch. */
function writeAsFull(path: string, fd: number, bytes: Buffer, offset: number, length: number, position?: number) {
  const armed = readArmed();
  const name = armed && namedWrite(path);
  const left = name && armed[name];
  if (left === undefined || !name || !armed) return writeSync(fd, bytes, offset, length, position);
  const size = fstatSync(fd).size;
  const within = Math.max(0, Math.min(length, size - (position ?? size)));
  if (within === 0 && left === 0) {
    throw Object.assign(new Error("ENOSPC: no space left on device, write"), {
      code: "ENOSPC",
      errno: -28,
      syscall: "write",
    });
  }
  const written = writeSync(fd, bytes, offset, Math.min(length, within + left), position);
  armed[name] = left - Math.max(0, written - within);
  return written;
}
