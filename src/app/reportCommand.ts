// `continuation-loop report` and `/loop-report` (README "The morning after"): a loop's story, read from
// the history only, as Markdown for a pull request or as a page with charts.
import { resolve } from "node:path";
import { LoopError } from "../core/errors.js";
import { type LoopFile, loopFileAt, pinnedLoopFile, renderHistoryShown } from "../core/loopFiles.js";
import { renderNameFlag } from "../core/loopFileNames.js";
import { renderReportMarkdown } from "../core/renderReport.js";
import { renderReportHtml } from "../core/renderReportHtml.js";
import { buildReport, type ReportModel, selectLoopRecords } from "../core/reportModel.js";
import { renderElapsed, renderOutcome, renderTokens, renderUsd, renderMetricSummary } from "../core/reportFormat.js";
import { readReportHistory } from "../io/readReportHistory.js";
import { writeFileAtomic } from "../io/writeFileAtomic.js";
import { type CommandCall, say, stringOption } from "./commandTable.js";
import { renderCliCommand } from "./renderCliCommand.js";

/** The report of the loop in `file` (`stateFile`: its records; else the history's last loop), from the history beside it. */
export function readLoopReport(file: LoopFile, stateFile: string | undefined): ReportModel {
  const historyShown = renderHistoryShown(file);
  const records = selectLoopRecords(readReportHistory(file.historyPath, historyShown), stateFile);
  if (records.length === 0)
    throw new LoopError("HISTORY_MISSING", `holds no record of the loop ${file.shown}`, {
      file: historyShown,
      expected: "the name of a loop that has run (continuation-loop history --all lists them)",
    });
  return buildReport(records);
}

/**
 * `report [--name NAME] [--html FILE] [--project DIR]`: Markdown on stdout, or the page written to FILE;
 * `/loop-report [--name NAME]`: a few lines in the session, and the commands that write the full report.
 * A LoopError names the history when it holds no such loop.
 */
export function runReport(call: CommandCall): number {
  const name = stringOption(call, "name");
  const html = stringOption(call, "html");
  // A pinned file (CONTINUATION_LOOP_FILE) keeps its history beside it.
  const { root } = call;
  const file =
    name === undefined ? (pinnedLoopFile(root, call.ctx.env) ?? loopFileAt(root, "default")) : loopFileAt(root, name);
  const model = readLoopReport(file, name === undefined ? undefined : file.shown);
  if (call.slash) return say(call, renderReportSummary(model, renderCliCommand(call.ctx.packageRoot), name));
  if (html === undefined) return say(call, renderReportMarkdown(model).trimEnd());
  try {
    writeFileAtomic(resolve(call.ctx.cwd, html), renderReportHtml(model, call.ctx.now()), { durable: false });
  } catch (error) {
    throw new LoopError(
      "HISTORY_UNREADABLE",
      `the page could not be written (${(error as NodeJS.ErrnoException).code ?? String(error)})`,
      {
        file: html,
        field: "--html",
        expected: "a file in a folder you can write to",
      },
    );
  }
  return say(
    call,
    `continuation-loop: wrote ${html}, the report of ${model.stateFile} (${model.iterations} iteration${model.iterations === 1 ? "" : "s"}, ${model.outcome}); open it in a browser.`,
  );
}

/** `/loop-report`'s few lines. */
function renderReportSummary(model: ReportModel, cli: string, name: string | undefined): string {
  const metric = renderMetricSummary(model);
  const named = renderNameFlag(name ?? "default");
  return [
    `continuation-loop: report of ${model.stateFile}: ${renderOutcome(model)}`,
    `  ${model.iterations} iteration${model.iterations === 1 ? "" : "s"} · ${renderElapsed(model)} · ${renderTokens(model.outputTokens)} output tokens · ${model.spendUsd === undefined ? "spend unknown" : renderUsd(model.spendUsd)}${metric ? ` · metric ${metric}` : ""}`,
    `  The page with charts: !${cli} report${named} --html loop-report.html`,
    `  Markdown for a pull request: !${cli} report${named}`,
  ].join("\n");
}
