import { writeSync } from "node:fs";
import type { Env } from "../core/loopFiles.js";

/**
 * Test-only (CONTRIBUTING.md): the moments of a state-file transaction where a kill-safety test
 * stops a hook, in the order a Stop reaches them.
 */
export const CRASH_POINTS = [
  "lock-taken",
  "temp-written",
  "fsync-done",
  "rename-done",
  "sidecar-written",
  "history-appended",
] as const;
/** Where a hook finds the state file's lock held by a live hook and starts to wait for it. */
export const WAIT_POINT = "lock-wait";
/** Where a background session's Stop finds the session it continues still ending and starts to wait for it. */
export const HANDOVER_WAIT_POINT = "handover-wait";
/** Where a transaction has moved a torn sidecar aside and not yet written the fresh one (only a torn sidecar reaches it). */
export const KEEP_TORN_POINT = "sidecar-kept";
/** Where a Stop finds its loop's state file gone and starts to wait for an editor's save to put it back. */
export const RETURN_WAIT_POINT = "return-wait";
/** Where a Stop finds its reply's line not yet in the transcript and starts to wait for it. */
export const TRANSCRIPT_WAIT_POINT = "transcript-wait";
/** Where a reader finds the state file not parsing and watches whether an editor's save in progress changes it. */
export const SAVE_WAIT_POINT = "save-wait";
export type CrashPoint =
  | (typeof CRASH_POINTS)[number]
  | typeof WAIT_POINT
  | typeof KEEP_TORN_POINT
  | typeof HANDOVER_WAIT_POINT
  | typeof RETURN_WAIT_POINT
  | typeof SAVE_WAIT_POINT
  | typeof TRANSCRIPT_WAIT_POINT;

/** `CONTINUATION_LOOP_TEST_CRASH_AT=<point>` SIGKILLs the hook there; `<point>:pause` SIGSTOPs it once. */
const SWITCH = "CONTINUATION_LOOP_TEST_CRASH_AT";
/** Kept on the process, not in this module: a hook entry and its active bundle each have their own copy of it. */
const ARMED = Symbol.for("continuation-loop.test-crash-at");
type Armed = { point: string; pause: boolean };
const slot = globalThis as { [ARMED]?: Armed };

/** Reads the test-only switch from the process's environment, once, where its Context is made. */
export function armCrashPoint(env: Env): void {
  const value = env[SWITCH];
  if (!value) return;
  const [point = "", mode] = value.split(":");
  slot[ARMED] = { point, pause: mode === "pause" };
}

/**
 * Nothing, unless a test armed `point`: then the hook dies by SIGKILL here, or (pause) says so on
 * stderr and stops until the test sends SIGCONT.
 */
export function reachCrashPoint(point: CrashPoint): void {
  const armed = slot[ARMED];
  if (armed?.point !== point) return;
  if (!armed.pause) process.kill(process.pid, "SIGKILL");
  slot[ARMED] = undefined;
  writeSync(2, `continuation-loop: paused at ${point}\n`);
  process.kill(process.pid, "SIGSTOP");
}
