import { type ApiFailure, decideLastingApiFailure, type LastingApiFailure } from "./apiFailure.js";
import { readTimeUpAt } from "./duration.js";
import type { HistoryRecord } from "./history.js";
import type { Env } from "./loopFiles.js";
import type { LoopState } from "./parseState.js";
import type { Runtime } from "./sidecar.js";

/** `continuation-loop run`'s exit codes (docs/REFERENCE.md "continuation-loop run"). */
export const RUN_EXIT = { completed: 0, limit: 1, usage: 2, paused: 3, claude: 4 } as const;
type RunExit = (typeof RUN_EXIT)[keyof typeof RUN_EXIT];

/** The loop as `run` finds it once Claude Code has exited: from its state file, sidecar and history. */
export type LoopStatus =
  | { kind: "ended"; reason: string; record: HistoryRecord | undefined }
  | { kind: "paused"; state: LoopState; why: string }
  | { kind: "invalid"; message: string }
  /** A session took the loop over from this run (`/loop-resume --force`): it goes on there. */
  | { kind: "taken"; session: string }
  | { kind: "running"; state: LoopState; runtime: Runtime; waitUntil: number | undefined };

/** What happened to Claude Code's process. */
export interface ClaudeExit {
  code: number | null;
  signal: string | null;
  /** It could not be started at all (ENOENT, EACCES…). */
  error?: string;
  /**
   * It exited with an error before it saved the session it was started for: it refused its arguments or its
   * set-up (an unknown option), which a restart would meet again. A network down still saves the session.
   */
  refusedAtStart?: boolean;
}

export type RunStep =
  | { kind: "exit"; code: RunExit; why: "ended" | "paused" | "invalid" | "taken" | "time" | "restarts" }
  /** The turn ended on an API error that a restart would only meet again (a refused key, a bad model…). */
  | { kind: "exit"; code: RunExit; why: "api"; failure: ApiFailure; lasting: LastingApiFailure }
  | { kind: "restart"; delayMs: number; attempt: number };

const FIRST_DELAY_MS = 2_000;
const MAX_DELAY_MS = 5 * 60_000;

/** 2 s, 4 s, 8 s … at most 5 minutes: the wait before the attempt-th restart in a row. */
export const decideBackoff = (attempt: number): number =>
  Math.min(MAX_DELAY_MS, FIRST_DELAY_MS * 2 ** Math.max(0, attempt - 1));

/** completed → 0; any other end (a limit, a stall, /loop-stop, a file removed) → 1. */
const decideEndCode = (reason: string): RunExit => (reason === "completed" ? RUN_EXIT.completed : RUN_EXIT.limit);

/** A loop that no longer runs ends the run: ended 0 or 1, taken over by a session 1, paused (or an invalid file a person must fix) 3. */
export function decideLoopEnd(status: Exclude<LoopStatus, { kind: "running" }>): Extract<RunStep, { kind: "exit" }> {
  if (status.kind === "ended") return { kind: "exit", code: decideEndCode(status.reason), why: "ended" };
  if (status.kind === "paused") return { kind: "exit", code: RUN_EXIT.paused, why: "paused" };
  if (status.kind === "taken") return { kind: "exit", code: RUN_EXIT.limit, why: "taken" };
  // The Stop hook waits for a person to fix the file: nothing a restart could do.
  return { kind: "exit", code: RUN_EXIT.paused, why: "invalid" };
}

/**
 * After Claude Code exited: the loop's end or pause is `run`'s end; a loop still running is restarted,
 * with backoff, at most `maxRestarts` times in a row without a new iteration (`restartsInARow` counts
 * those already made), and never once its `max_duration` has passed, for a process that never started or
 * refused its start, or after an API error that a restart cannot mend (`failure`: what Claude Code recorded of the turn's end).
 */
export function decideAfterExit(
  status: LoopStatus,
  exit: ClaudeExit,
  restartsInARow: number,
  maxRestarts: number,
  now: number,
  failure?: ApiFailure,
): RunStep {
  if (status.kind !== "running") return decideLoopEnd(status);
  const lasting = decideLastingApiFailure(failure);
  if (failure && lasting) return { kind: "exit", code: RUN_EXIT.claude, why: "api", failure, lasting };
  const { state } = status;
  const pastDeadline = (at: number) => at >= readTimeUpAt(state);
  if (pastDeadline(now)) return { kind: "exit", code: RUN_EXIT.limit, why: "time" };
  const attempt = restartsInARow + 1;
  if (exit.error !== undefined || exit.refusedAtStart || attempt > maxRestarts)
    return { kind: "exit", code: RUN_EXIT.claude, why: "restarts" };
  // After an API error the loop's own wait (the StopFailure hook's) holds, when it is the longer one.
  const wait = status.waitUntil !== undefined ? status.waitUntil - now : 0;
  const delayMs = Math.max(decideBackoff(attempt), wait);
  if (pastDeadline(now + delayMs)) return { kind: "exit", code: RUN_EXIT.limit, why: "time" };
  return { kind: "restart", delayMs, attempt };
}

/**
 * The words of CLAUDE_ARGS Claude Code refuses at its start when it runs as root (uid 0), unless told it is in a
 * sandbox (`IS_SANDBOX=1`, `CLAUDE_CODE_BUBBLEWRAP`): it exits 1 each time, so no restart could mend it
 * (docs/HEADLESS.md "Running as root").
 */
export function findRootRefusedArgs(
  claudeArgs: readonly string[],
  uid: number | undefined,
  env: Env,
): string | undefined {
  if (uid !== 0 || env.IS_SANDBOX === "1" || env.CLAUDE_CODE_BUBBLEWRAP) return undefined;
  for (const [i, arg] of claudeArgs.entries()) {
    if (arg === "--dangerously-skip-permissions" || arg === "--allow-dangerously-skip-permissions") return arg;
    if (arg === "--permission-mode=bypassPermissions") return arg;
    if (arg === "--permission-mode" && claudeArgs[i + 1] === "bypassPermissions") return `${arg} bypassPermissions`;
  }
  return undefined;
}
