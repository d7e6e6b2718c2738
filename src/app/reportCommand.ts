// `continuation-loop report` and `/loop-report` (README "The morning after"): a loop's story, read from
// the history only, as Markdown for a pull request or as a page with charts.
import { resolve } from "node:path";
import { LoopError } from "../core/errors.js";
import { type Env, loopFileAt, type LoopFile, pinnedLoopFile } from "../core/loopFiles.js";
import { namedLoopFile } from "../core/namedLoopFile.js";
import { parseCliArgs } from "./parseCliArgs.js";
import { renderReportMarkdown } from "../core/renderReport.js";
import { renderReportHtml } from "../core/renderReportHtml.js";
import { buildReport, type ReportModel, selectLoopRecords } from "../core/reportModel.js";
import { renderElapsed, renderOutcome, renderTokens, renderUsd, renderMetricSummary } from "../core/reportFormat.js";
import { readReportHistory } from "../io/readReportHistory.js";
import { writeFileAtomic } from "../io/writeFileAtomic.js";
import { type Context, EXIT, projectRootOf } from "./context.js";

/** The named loop's or the last loop's report; a LoopError naming the history when there is none. */
export function readReport(
  root: string,
  name: string | undefined,
  command: string,
  env: Env,
): { model: ReportModel; file: LoopFile } {
  // A pinned file (CONTINUATION_LOOP_FILE) keeps its history beside it.
  const file =
    name === undefined
      ? (pinnedLoopFile(root, env) ?? loopFileAt(root, "default"))
      : namedLoopFile(root, name, command);
  const historyShown = file.shown.replace(/[^/\\]*$/, "continuation-loop.history.jsonl");
  const records = selectLoopRecords(
    readReportHistory(file.historyPath, historyShown),
    name === undefined ? undefined : file.shown,
  );
  if (records.length === 0)
    throw new LoopError("HISTORY_MISSING", `holds no record of the loop ${file.shown}`, {
      file: historyShown,
      expected: "the name of a loop that has run (continuation-loop history --all lists them)",
    });
  return { model: buildReport(records), file };
}

/** `report [--name NAME] [--html FILE] [--project DIR]`: Markdown on stdout, or the page written to FILE. */
export function runReport(argv: string[], ctx: Context): number {
  const options = parseCliArgs("report", argv, { name: "value", html: "value", project: "value" });
  const root = projectRootOf(ctx, options.project);
  const name = typeof options.name === "string" ? options.name : undefined;
  const { model } = readReport(root, name, "continuation-loop report", ctx.env);
  if (typeof options.html !== "string") {
    ctx.out(renderReportMarkdown(model));
    return EXIT.ok;
  }
  const target = resolve(ctx.cwd, options.html);
  try {
    writeFileAtomic(target, renderReportHtml(model, ctx.now()), { durable: false });
  } catch (error) {
    throw new LoopError(
      "HISTORY_UNREADABLE",
      `the page could not be written (${(error as NodeJS.ErrnoException).code ?? String(error)})`,
      {
        file: options.html,
        field: "--html",
        expected: "a file in a folder you can write to",
      },
    );
  }
  ctx.out(
    `continuation-loop: wrote ${options.html}, the report of ${model.stateFile} (${model.iterations} iterations, ${model.outcome}); open it in a browser.\n`,
  );
  return EXIT.ok;
}

/** `/loop-report [--name NAME]`: a few lines in the session, and the commands that write the full report. */
export function renderReportSummary(model: ReportModel, cli: string, name: string | undefined): string {
  const metric = renderMetricSummary(model);
  const named = name === undefined ? "" : ` --name ${name}`;
  return [
    `continuation-loop: report of ${model.stateFile}: ${renderOutcome(model)}`,
    `  ${model.iterations} iterations · ${renderElapsed(model)} · ${renderTokens(model.outputTokens)} output tokens · ${model.spendUsd === undefined ? "spend unknown" : renderUsd(model.spendUsd)}${metric ? ` · metric ${metric}` : ""}`,
    `  The page with charts: !${cli} report${named} --html loop-report.html`,
    `  Markdown for a pull request: !${cli} report${named}`,
  ].join("\n");
}
