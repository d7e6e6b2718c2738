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
 * A long loop keeps the iterations at both ends and its events (waits, pauses, errors), the first and last
 * ones when there are many; the page keeps them all.
 */

/** Iteration rows shown in full up to this many; beyond, the first and last ones and the events. */
const WHOLE_TABLE = 120;
const HEAD = 20;
const TAIL = 60;
/** Event rows shown in full up to this many; beyond, the first EVENTS_HEAD and the last ones. */
const EVENTS_SHOWN = 40;
const EVENTS_HEAD = 10;

/** A line in place of the rows between two shown ones: how many iterations (and which) and events it stands for. */
export interface OmittedRows {
  omitted: number;
  from: number;
  to: number;
  events: number;
}

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

/**
 * The rows to print: all of them, or for a long loop the iterations at both ends, the events (the first and last
 * ones past EVENTS_SHOWN), and a line for each run of the rest, so that a loop of any length fits a pull request.
 */
export function chooseTableRows(rows: readonly ReportRow[]): Array<ReportRow | OmittedRows> {
  const iterations = rows.filter((r) => r.kind === "iteration");
  const events = rows.filter((r) => r.kind !== "iteration");
  const keptEvents =
    events.length <= EVENTS_SHOWN
      ? events
      : [...events.slice(0, EVENTS_HEAD), ...events.slice(-(EVENTS_SHOWN - EVENTS_HEAD))];
  if (iterations.length <= WHOLE_TABLE && keptEvents.length === events.length) return [...rows];
  const keptIterations =
    iterations.length <= WHOLE_TABLE ? iterations : [...iterations.slice(0, HEAD), ...iterations.slice(-TAIL)];
  const keep = new Set([...keptIterations, ...keptEvents]);
  const out: Array<ReportRow | OmittedRows> = [];
  let gap: ReportRow[] = [];
  const flush = () => {
    if (gap.length === 0) return;
    const left = gap.filter((r) => r.kind === "iteration");
    out.push({
      omitted: left.length,
      from: left[0]?.iteration ?? 0,
      to: left.at(-1)?.iteration ?? 0,
      events: gap.length - left.length,
    });
    gap = [];
  };
  for (const row of rows) {
    if (keep.has(row)) {
      flush();
      out.push(row);
    } else gap.push(row);
  }
  flush();
  return out;
}

/** "4800 iterations (101–4900) and 12 events (waits, pauses, errors)": what an omitted line stands for. */
function renderOmitted({ omitted, from, to, events }: OmittedRows): string {
  const parts = [
    ...(omitted ? [`${omitted} iteration${omitted === 1 ? "" : "s"} (${from === to ? from : `${from}–${to}`})`] : []),
    ...(events ? [`${events} event${events === 1 ? "" : "s"} (waits, pauses, errors)`] : []),
  ];
  return `| … | | | | | | ${parts.join(" and ")} not shown | | |`;
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
    out.push("omitted" in row ? renderOmitted(row) : renderRow(row, model.start));
  }
  if (htmlHint) out.push("", htmlHint);
  return `${out.join("\n")}\n`;
}
