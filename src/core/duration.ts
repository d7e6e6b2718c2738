import { skipDigits } from "./digits.js";

const UNITS: Record<string, number | undefined> = { s: 1, m: 60, h: 3600, d: 86400 };

/**
 * "90s" | "45m" | "2h" | "1d" | "1h30m" | 120 → seconds; undefined when not a duration. Read by
 * hand: every Stop reads `verify_timeout`, and a regular expression costs a fresh process a compile.
 */
export function parseDuration(value: unknown): number | undefined {
  if (typeof value === "number") return Number.isFinite(value) && value > 0 ? value : undefined;
  if (typeof value !== "string") return undefined;
  const text = value.trim().toLowerCase();
  let total = 0;
  let i = 0;
  while (i < text.length) {
    // A number (`12` or `1.5`), then its unit; a number alone is seconds.
    const start = i;
    i = skipDigits(text, start);
    if (i === start) return undefined;
    if (text[i] === ".") {
      const fraction = i + 1;
      i = skipDigits(text, fraction);
      if (i === fraction) return undefined;
    }
    const number = Number(text.slice(start, i));
    const unit = text[i++];
    if (unit === undefined) return start === 0 ? parseDuration(number) : undefined;
    const seconds = UNITS[unit];
    if (seconds === undefined) return undefined;
    total += number * seconds;
  }
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
