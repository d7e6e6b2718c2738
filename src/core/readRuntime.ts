// What the sidecar's pause and spend records mean now, with no schema (the types are structural): the
// companion module's band reads them too, and carries no zod.

/**
 * The hooks' pause that holds now: Claude's question while the loop waits for the answer, or the reason
 * the hooks set `active: false` while it stays false (a user's `active: true` ends it).
 */
export function readPause<P extends { reason: string }>(active: boolean, runtime: { pause: P | null }): P | undefined {
  const pause = runtime.pause;
  if (!pause) return undefined;
  return pause.reason === "question" || !active ? pause : undefined;
}

/** The loop's spend in USD by Claude Code's own figures, or undefined before the first one (README "Spend limits"). */
export function readLoopSpend(runtime: { spend: { figure: number; baseline: number } | null }): number | undefined {
  const spend = runtime.spend;
  return spend ? Math.max(0, spend.figure - spend.baseline) : undefined;
}
