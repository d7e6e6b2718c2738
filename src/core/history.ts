/** One line of `.claude/continuation-loop.history.jsonl` (docs/REFERENCE.md "History"). */
export interface HistoryRecord {
  time: string;
  /** The state file, as users see it: which loop the line is about. */
  state_file?: string;
  session?: string | undefined;
  iteration?: number;
  decision:
    | "continue"
    | "end"
    | "refused"
    | "pause"
    | "resume"
    | "api_error"
    | "wait"
    | "waiting_background"
    | "waiting_permission"
    | "waiting_plan";
  reason?: string;
  output_tokens?: number;
  /** The loop's spend so far (USD, Claude Code's figures), when known. */
  cost_usd?: number;
  tokens_by_model?: Record<string, number>;
  /** What was used and left of each limit, as in the continuation prompt. */
  limits?: string;
  promise?: string;
  /** An improvement loop's Stop: the metric's value (null: none, see metric_error) and the best's iteration. */
  metric?: number | null;
  metric_error?: string;
  metric_best_iteration?: number;
  /** A pause for scope: the files it found. */
  scope?: string;
  refusal?: string;
  /** The `until` command did not pass at this Stop: the command and its exit status or timeout. */
  until_failure?: string;
  /** A wait for a permission answer: the tool Claude Code asks about. */
  tool?: string;
  /** A Stop: the tools Claude Code's permission check refused in the turn (2.1.332 marks them; 2.1.197 does not). */
  refused_tools?: string[];
  /** A hold for background work: the tasks the loop waits for (docs/REFERENCE.md "Background work"). */
  tasks?: { id: string; type: string; description: string }[];
  /**
   * A wait after an API error: until when, how long (s), and from what (`reset`: Claude Code's reset time).
   * A hold for background work: `background_wait` (s), and when the companion module wakes the session.
   */
  until?: string;
  wait_s?: number;
  basis?: "reset" | "backoff";
  /** API errors in a row when the loop waited or paused after one. */
  failures?: number;
  /** A pause for the user: Claude's question. */
  question?: string;
  /** A Stop: seconds since the loop's previous record (or its start), and the first line of Claude's reply (≤ 200 chars). */
  duration_s?: number;
  reply_line?: string;
  /** A Stop of a loop with checkpoints or scope: files the iteration changed. */
  files_changed?: number;
  /** At loop end, and at a loop's first record: the goal and the user fields (the end's restart the loop). */
  goal?: string;
  fields?: Record<string, unknown>;
}

/** One line of the history as a record: a JSON object with its time and decision, else undefined (torn or foreign). */
export function parseHistoryLine(line: string): HistoryRecord | undefined {
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch {
    return undefined;
  }
  if (!value || typeof value !== "object" || Array.isArray(value)) return undefined;
  const record = value as HistoryRecord;
  return typeof record.time === "string" && typeof record.decision === "string" ? record : undefined;
}

/** A record's `refused_tools`, as names; a hand-edited or foreign value reads as none. */
export const readRefusedToolsOf = (r: HistoryRecord): string[] =>
  Array.isArray(r.refused_tools) ? r.refused_tools.filter((tool): tool is string => typeof tool === "string") : [];
