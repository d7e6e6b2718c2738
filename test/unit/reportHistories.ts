// Recorded-style histories for the report's tests: the records the hooks write, built in code.
import type { HistoryRecord } from "../../src/core/history.js";

const STATE = ".claude/continuation-loop.local.md";
const T0 = Date.parse("2026-11-26T22:00:00.000Z");
const iso = (ms: number) => new Date(ms).toISOString();

/** Records of one loop of `n` iterations, each `step` s apart, ending as `end` (or still running). */
export function recordLoop(options: {
  n: number;
  step?: number;
  start?: number;
  stateFile?: string;
  goal?: string;
  end?: string;
  metric?: (i: number) => number | null;
  target?: string;
  cost?: boolean;
  reply?: (i: number) => string;
  extra?: (i: number, at: number) => HistoryRecord[];
}): HistoryRecord[] {
  const step = options.step ?? 60;
  const stateFile = options.stateFile ?? STATE;
  const goal = options.goal ?? "Fix the failing tests in test/auth.test.ts.";
  const fields = { max_iterations: Math.max(options.n, 10), ...(options.target && { metric_target: options.target }) };
  const out: HistoryRecord[] = [];
  let at = options.start ?? T0;
  let tokens = 0;
  let cost = 0;
  let best: number | null = null;
  let bestAt = 0;
  for (let i = 1; i <= options.n; i++) {
    out.push(...(options.extra?.(i, at) ?? []));
    const last = out.at(-1);
    if (last) at = Math.max(at, Date.parse(last.time));
    const duration = step + (i % 7);
    at += duration * 1000;
    tokens += 100 + ((i * 37) % 400);
    cost += 0.002 + ((i * 13) % 10) / 1000;
    const metric = options.metric?.(i);
    if (typeof metric === "number" && (best === null || metric > best)) {
      best = metric;
      bestAt = i;
    }
    const ending = i === options.n && options.end !== undefined;
    out.push({
      time: iso(at),
      state_file: stateFile,
      session: "sess-1",
      iteration: i,
      decision: ending ? "end" : "continue",
      reason: ending ? options.end : "continue",
      output_tokens: tokens,
      ...(options.cost !== false && { cost_usd: Math.round(cost * 1e6) / 1e6 }),
      limits: `${i}/${fields.max_iterations}`,
      ...(metric !== undefined && { metric, ...(bestAt > 0 && { metric_best_iteration: bestAt }) }),
      duration_s: duration,
      reply_line: options.reply ? options.reply(i) : `Iteration ${i}: fixed ${i} more test(s).`,
      files_changed: i % 4,
      ...((i === 1 || ending) && { goal, fields }),
      ...(ending && options.end === "completed" && { promise: "DONE" }),
    });
  }
  return out;
}

/** A loop that met a rate limit (error, wait, resume), was paused by Claude's question and resumed. */
export function recordLoopWithWaits(): HistoryRecord[] {
  return recordLoop({
    n: 8,
    end: "completed",
    metric: (i) => 40 + i * 6 - (i === 5 ? 20 : 0),
    target: ">= 85",
    extra: (i, at) => {
      const base = { state_file: STATE, session: "sess-1", iteration: i };
      if (i === 3)
        return [
          { ...base, time: iso(at + 20_000), decision: "api_error", reason: "rate_limit" },
          {
            ...base,
            time: iso(at + 20_000),
            decision: "wait",
            reason: "rate_limit",
            until: iso(at + 320_000),
            wait_s: 300,
            basis: "backoff",
            failures: 1,
          },
          { ...base, time: iso(at + 320_000), decision: "resume", reason: "api_wait", failures: 1 },
        ];
      if (i === 6)
        return [
          {
            ...base,
            time: iso(at + 30_000),
            decision: "pause",
            reason: "question",
            question: "Keep the old API | or break it?",
            duration_s: 30,
            reply_line: "Two ways to go.",
          },
          { ...base, time: iso(at + 400_000), decision: "resume", reason: "answered" },
        ];
      return [];
    },
  });
}

export const toJsonl = (records: readonly HistoryRecord[]) => records.map((r) => `${JSON.stringify(r)}\n`).join("");
