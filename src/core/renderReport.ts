import {
  DASH,
  renderElapsed,
  renderIterations,
  renderMetricCell,
  renderMetricSummary,
  renderOutcome,
  renderSeconds,
  renderStart,
  renderTokens,
  renderUsd,
  renderUtc,
} from "./reportFormat.js";
import type { ReportModel, ReportRow } from "./reportModel.js";

/**
 * The report as Markdown for a pull-request description (README "The morning after"). Pure.
 * A long loop keeps every event row and the iterations at both ends; the page keeps them all.
 */

/** Iteration rows shown in full up to this many; beyond, the first and last ones and every event. */
const WHOLE_TABLE = 120;
const HEAD = 20;
const TAIL = 60;

/** A table cell: one line, pipes escaped, HTML-looking text (`<promise>`) shown rather than swallowed. */
export const escapeCell = (text: string): string =>
  text
    .replace(/\r?\n|\r/g, " ")
    .replace(/\\/g, "\\\\")
    .replace(/\|/g, "\\|")
    .replace(/</g, "&lt;")
    .trim() || DASH;

/** Free text outside a table (the goal): HTML-looking text shown rather than swallowed. */
const escapeText = (text: string): string => text.replace(/</g, "&lt;");

function renderRow(row: ReportRow, loopStart: number | undefined): string {
  const cells = [
    row.kind === "iteration" ? String(row.iteration ?? DASH) : "",
    renderStart(row.start, loopStart),
    renderSeconds(row.durationS),
    renderTokens(row.tokens),
    renderUsd(row.spendUsd),
    renderMetricCell(row),
    row.kind === "iteration" ? row.decision : `**${row.decision}**`,
    row.files === undefined ? DASH : String(row.files),
    row.reply ?? DASH,
  ];
  return `| ${cells.map(escapeCell).join(" | ")} |`;
}

/** The rows to print: all of them, or for a long loop the ends, every event and a line for the rest. */
export function chooseTableRows(
  rows: readonly ReportRow[],
): Array<ReportRow | { omitted: number; from: number; to: number }> {
  const iterations = rows.filter((r) => r.kind === "iteration");
  if (iterations.length <= WHOLE_TABLE) return [...rows];
  const keep = new Set([...iterations.slice(0, HEAD), ...iterations.slice(-TAIL)]);
  const out: Array<ReportRow | { omitted: number; from: number; to: number }> = [];
  let gap: ReportRow[] = [];
  const flush = () => {
    if (gap.length === 0) return;
    out.push({ omitted: gap.length, from: gap[0]?.iteration ?? 0, to: gap.at(-1)?.iteration ?? 0 });
    gap = [];
  };
  for (const row of rows) {
    if (row.kind !== "iteration" || keep.has(row)) {
      flush();
      out.push(row);
    } else gap.push(row);
  }
  flush();
  return out;
}

function renderGoal(goal: string | undefined): string[] {
  if (goal === undefined || goal.trim() === "") return ["_The history holds no goal for this loop._"];
  const lines = goal.trim().split(/\r?\n/);
  const shown = lines.slice(0, 12).map((line) => `> ${escapeText(line)}`.trimEnd());
  if (lines.length > 12) shown.push(`> … (${lines.length - 12} more lines)`);
  return shown;
}

/** The Markdown report of one loop. `htmlHint`: the command that writes the page, named under the table. */
export function renderReportMarkdown(model: ReportModel, htmlHint?: string): string {
  const metric = renderMetricSummary(model);
  const out = [
    `## Continuation loop: ${model.outcome}`,
    "",
    ...renderGoal(model.goal),
    "",
    `- **Outcome:** ${escapeText(renderOutcome(model))}`,
    `- **Iterations:** ${renderIterations(model)}`,
    `- **Elapsed:** ${renderElapsed(model)} (${renderUtc(model.start)} to ${renderUtc(model.end)})`,
    `- **Output tokens:** ${renderTokens(model.outputTokens)}`,
    `- **Spend:** ${model.spendUsd === undefined ? "unknown (no cost figure reached the loop)" : renderUsd(model.spendUsd)}`,
    ...(metric ? [`- **Metric:** ${escapeText(metric)}`] : []),
    `- **Loop file:** \`${model.stateFile}\``,
    "",
    "| # | Started (UTC) | Duration | Output tokens | Spend | Metric | Decision | Files changed | Reply (first line) |",
    "|--:|---|--:|--:|--:|--:|---|--:|---|",
  ];
  for (const row of chooseTableRows(model.rows)) {
    out.push(
      "omitted" in row
        ? `| … | | | | | | ${row.omitted} iterations (${row.from}–${row.to}) not shown | | |`
        : renderRow(row, model.start),
    );
  }
  if (htmlHint) out.push("", htmlHint);
  return `${out.join("\n")}\n`;
}
