const pad = (n: number, width = 2) => String(n).padStart(width, "0");

/**
 * "2026-11-23T14:39:46.568Z": the same text as Date#toISOString for years 0–9999. Not toISOString
 * itself: its first call loads the time-zone data, ~0.3 ms of a hook's start-up (README "Performance").
 */
export function renderIsoTime(ms: number): string {
  const d = new Date(ms);
  const year = d.getUTCFullYear();
  if (!(year >= 0 && year <= 9999)) return d.toISOString();
  return `${pad(year, 4)}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())}T${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}:${pad(d.getUTCSeconds())}.${pad(d.getUTCMilliseconds(), 3)}Z`;
}
