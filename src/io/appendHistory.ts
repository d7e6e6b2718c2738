import { appendFileSync } from "node:fs";

export interface HistoryRecord {
  time: string;
  session: string | undefined;
  iteration: number;
  decision: "continue" | "end";
  reason: string;
  output_tokens: number;
  tokens_by_model?: Record<string, number>;
  /** What was used and left of each limit, as in the continuation prompt. */
  limits?: string;
  promise?: string;
  refusal?: string;
  /** At loop end: the goal and limits, so the loop can be restarted. */
  goal?: string;
  state_file?: string;
}

/** One JSON line, appended; O_APPEND keeps concurrent writers' lines whole. */
export function appendHistory(path: string, record: HistoryRecord): void {
  appendFileSync(path, `${JSON.stringify(record)}\n`, { encoding: "utf8" });
}
