import type { HistoryRecord } from "./history.js";
import { firstLine, renderGoalLine, shortId } from "./renderStatus.js";
import { renderDuration } from "./duration.js";
import { formatCount } from "./formatCount.js";

const fmt = (n: number | undefined) => (n === undefined ? "-" : formatCount(n));

/** Pads columns to their widest cell; the last column is left ragged. */
function renderTable(header: string[], rows: string[][]): string {
  // A reduce, not Math.max(...): a whole history has more rows than a call takes arguments.
  const widths = header.map((h, i) => rows.reduce((w, r) => Math.max(w, (r[i] ?? "").length), h.length));
  const line = (cells: string[]) =>
    cells
      .map((c, i) => (i === cells.length - 1 ? c : c.padEnd(widths[i] ?? 0)))
      .join("  ")
      .trimEnd();
  return [line(header), ...rows.map(line)].join("\n");
}

/** Past loops (records of loop ends), newest last; `all` adds every other decision (continue, pause, resume, API error). */
export function renderHistoryTable(records: HistoryRecord[], all = false): string {
  const shown = all ? records : records.filter((r) => r.decision === "end");
  if (shown.length === 0) return all ? "No history yet." : "No finished loops yet.";
  const rows = shown.map((r) => [
    r.time ? r.time.replace("T", " ").replace(/(\.\d+)?Z$/, "") : "?",
    r.decision === "end" || r.decision === "continue" ? (r.reason ?? r.decision) : `${r.decision}: ${r.reason ?? "?"}`,
    String(r.iteration ?? "?"),
    fmt(r.output_tokens),
    shortId(r.session),
    r.goal
      ? renderGoalLine(r.goal, 60)
      : r.refusal
        ? `refused: ${firstLine(r.refusal, 50)}`
        : r.question
          ? `asked: ${firstLine(r.question, 60)}`
          : r.until
            ? `until ${r.until.replace("T", " ").replace(/(\.\d+)?Z$/, "")} (${renderDuration(r.wait_s ?? 0)}, ${r.basis === "reset" ? "Claude Code's reset time" : `error ${r.failures ?? "?"} in a row`})`
            : r.failures
              ? `after ${r.failures} API error${r.failures === 1 ? "" : "s"} in a row`
              : "",
  ]);
  return renderTable([all ? "TIME" : "ENDED", all ? "DECISION" : "REASON", "ITER", "TOKENS", "SESSION", "GOAL"], rows);
}
