const UNITS: Record<string, number> = { s: 1, m: 60, h: 3600, d: 86400 };
const NUMBER = /^\d+(\.\d+)?$/;
// Spaces may part the pairs: the product itself prints `1h 30m` (renderDuration), so it must read it back.
const PAIRS = /^\d+(\.\d+)?[smhd](\s*\d+(\.\d+)?[smhd])*$/;
const PAIR = /(\d+(?:\.\d+)?)([smhd])/g;

/** "90s" | "45m" | "2h" | "1d" | "1h30m" | "1h 30m" | 120 → seconds; undefined when not a duration. */
export function parseDuration(value: unknown): number | undefined {
  if (typeof value === "number") return Number.isFinite(value) && value > 0 ? value : undefined;
  if (typeof value !== "string") return undefined;
  const text = value.trim().toLowerCase();
  if (NUMBER.test(text)) return parseDuration(Number(text));
  if (!PAIRS.test(text)) return undefined;
  let total = 0;
  for (const [, number, unit] of text.matchAll(PAIR)) total += Number(number) * (UNITS[unit ?? "s"] ?? 1);
  return total > 0 ? total : undefined;
}

/** 3725 → "1h 2m 5s"; used in prompts and status lines. */
export function renderDuration(seconds: number): string {
  const s = Math.max(0, Math.round(seconds));
  const d = Math.floor(s / 86400);
  const h = Math.floor((s % 86400) / 3600);
  const m = Math.floor((s % 3600) / 60);
  const rest = s % 60;
  const parts = [d ? `${d}d` : "", h ? `${h}h` : "", m ? `${m}m` : "", rest || (!d && !h && !m) ? `${rest}s` : ""];
  return parts.filter(Boolean).join(" ");
}

/** 3.24 → "3.2s", 119 → "1m 59s": a tenth of a second while it counts; the report's durations. */
export const renderSecondsBrief = (seconds: number): string =>
  seconds < 10 ? `${seconds.toFixed(1)}s` : renderDuration(seconds);

/** Seconds since started_at, or undefined when unknown. */
export function elapsedSeconds(state: { started_at: string | undefined }, now: number): number | undefined {
  const start = state.started_at ? Date.parse(state.started_at) : Number.NaN;
  return Number.isNaN(start) ? undefined : Math.max(0, (now - start) / 1000);
}

/**
 * When a wait that began at `since` for `until` ends as the clock now reads: `until`, or no later than the wait's own
 * length from now once the clock was set back since it began (docs/REFERENCE.md "When the clock jumps").
 */
export function readWaitEnd(since: number, until: number, now: number): number {
  return Number.isFinite(since) && since <= until ? Math.min(until, now + (until - since)) : until;
}

/** When the loop's `max_duration` passes (ms since the epoch); Infinity without one, or before its first Stop. */
export function readTimeUpAt(state: { started_at?: string | undefined; max_duration?: number | undefined }): number {
  const started = state.started_at ? Date.parse(state.started_at) : Number.NaN;
  if (state.max_duration === undefined || !Number.isFinite(started)) return Number.POSITIVE_INFINITY;
  return started + state.max_duration * 1000;
}
