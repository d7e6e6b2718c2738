// Going on after an API error (docs/REFERENCE.md "Going on after an API error"): how long the loop waits before it goes on by
// itself, or why it does not. Pure: the clock, the reset time and the jitter's random number are inputs.

/**
 * The API errors that clear by themselves: a rate or usage limit (`rate_limit`), an overload (`overloaded`;
 * Claude Code 2.1.331 reports an overload that outlasted its own retries as `server_error`, as it does other
 * 5xx answers, which clear the same way).
 */
const RETRIED = new Set(["rate_limit", "overloaded", "server_error"]);
const isRetriedApiError = (kind: string): boolean => RETRIED.has(kind);

/** Growing waits: 1, 2, 4, 8, 16, then 30 minutes at most. */
const STEP_MS = 60_000;
export const MAX_WAIT_MS = 30 * STEP_MS;
/** A reset time is waited for plus 30 to 60 seconds: the limit has surely lifted by then. */
const RESET_MARGIN_MS = 30_000;

export interface ApiWaitInput {
  /** StopFailure's error kind (`rate_limit`, `overloaded`, …). */
  kind: string;
  /** API errors in a row, this one included (a successful turn starts the count again). */
  failures: number;
  /** The loop's `max_api_failures`. */
  maxFailures: number;
  now: number;
  /** When Claude Code says the exhausted limit resets (ms), if it says so. */
  resetsAt?: number | undefined;
  /** The loop's `started_at` (ms) and `max_duration` (s): the wait counts toward it. */
  startedAt?: number | undefined;
  maxDurationS?: number | undefined;
  /** A number in [0, 1) for the jitter. */
  random: number;
  /** Tests shorten every wait by this factor (1 otherwise). */
  scale?: number;
}

export type ApiWait =
  /** Not an error that clears by itself: recorded, and the loop waits for a person, as without the module. */
  | { kind: "none" }
  /** `max_api_failures` errors in a row: the loop pauses for the user instead of waiting again. */
  | { kind: "pause"; reason: string }
  /** The wait would end past `max_duration`: the loop ends now instead. */
  | { kind: "end"; reason: "max_duration" }
  | { kind: "wait"; until: number; waitMs: number; basis: "reset" | "backoff" };

/** The backoff before the n-th attempt after n errors in a row: 1, 2, 4 … minutes, capped at 30. */
export function backoffStepMs(failures: number): number {
  return Math.min(MAX_WAIT_MS, STEP_MS * 2 ** Math.min(30, Math.max(0, failures - 1)));
}

/** What to do after an API error ended a turn of the loop. */
export function decideApiWait(input: ApiWaitInput): ApiWait {
  if (!isRetriedApiError(input.kind)) return { kind: "none" };
  if (input.failures >= input.maxFailures) {
    return {
      kind: "pause",
      reason: `${input.failures} API errors in a row (the last: ${input.kind}); max_api_failures is ${input.maxFailures}`,
    };
  }
  const random = Math.min(Math.max(input.random, 0), 1);
  const scale = input.scale !== undefined && input.scale > 0 ? input.scale : 1;
  const reset = input.resetsAt !== undefined && input.resetsAt > input.now ? input.resetsAt : undefined;
  // Jitter: a reset time is waited for plus 30–60 s; a backoff step is 80–100 % of itself, so many
  // loops that met the same limit do not all come back in the same second.
  const raw =
    reset !== undefined
      ? reset - input.now + RESET_MARGIN_MS * (1 + random)
      : backoffStepMs(input.failures) * (0.8 + 0.2 * random);
  const waitMs = Math.max(0, Math.round(raw * scale));
  const until = input.now + waitMs;
  if (input.maxDurationS !== undefined && input.startedAt !== undefined) {
    if (until >= input.startedAt + input.maxDurationS * 1000) return { kind: "end", reason: "max_duration" };
  }
  return { kind: "wait", until, waitMs, basis: reset !== undefined ? "reset" : "backoff" };
}

/**
 * The reset time to wait for, from Claude Code's rate-limit windows (`$.session.usage().rateLimits`): the
 * latest `resetsAt` of a window that is used up. None when no window is full (a short rate limit or an
 * overload, or an API key, whose list is empty).
 */
export function pickResetsAt(
  windows: readonly { percentUsed?: number; resetsAt?: string }[] | undefined,
  now: number,
): number | undefined {
  let latest: number | undefined;
  for (const window of windows ?? []) {
    if (typeof window.percentUsed !== "number" || window.percentUsed < 100 || !window.resetsAt) continue;
    const at = Date.parse(window.resetsAt);
    if (Number.isFinite(at) && at > now && (latest === undefined || at > latest)) latest = at;
  }
  return latest;
}

/** CONTINUATION_LOOP_WAIT_SCALE: a factor in (0, 1] that shortens the waits in tests; 1 when unset or bad. */
export function parseWaitScale(value: string | undefined): number {
  const scale = Number(value);
  return value && Number.isFinite(scale) && scale > 0 && scale <= 1 ? scale : 1;
}
