import { intOption, parseCliArgs } from "../core/parseCliArgs.js";
import { renderHistoryTable } from "../core/renderHistory.js";
import { readHistory } from "../io/readHistory.js";
import { EXIT, type CliContext } from "./context.js";
import { locateAt, projectRoot } from "./locate.js";

/** `history [--limit N] [--all] [--json] [--project DIR]`: past loops, newest last. */
export function runHistory(argv: string[], ctx: CliContext): number {
  const options = parseCliArgs("history", argv, { limit: "value", all: "flag", json: "flag", project: "value" });
  const limit = intOption(options, "limit", 20, "history");
  const where = locateAt(projectRoot(ctx.env, ctx.cwd, options.project), ctx.env);
  const all = readHistory(where.historyPath);
  const chosen = (options.all ? all : all.filter((r) => r.decision === "end")).slice(-limit);
  if (options.json) ctx.out(chosen.map((r) => `${JSON.stringify(r)}\n`).join(""));
  else ctx.out(`${renderHistoryTable(chosen, options.all === true)}\n`);
  return EXIT.ok;
}
