import { intOption, parseCliArgs } from "./parseCliArgs.js";
import { renderHistoryTable } from "../core/renderHistory.js";
import { loopFileAt } from "../core/loopFiles.js";
import { readHistory } from "../io/history.js";
import { type Context, EXIT, projectRootOf } from "./context.js";

/** `history [--limit N] [--all] [--json] [--project DIR]`: past loops, newest last. */
export function runHistory(argv: string[], ctx: Context): number {
  const options = parseCliArgs("history", argv, { limit: "value", all: "flag", json: "flag", project: "value" });
  const limit = intOption(options, "limit", 20, "history");
  const where = loopFileAt(projectRootOf(ctx, options.project), "default");
  const all = readHistory(where.historyPath);
  const chosen = (options.all ? all : all.filter((r) => r.decision === "end")).slice(-limit);
  if (options.json) ctx.out(chosen.map((r) => `${JSON.stringify(r)}\n`).join(""));
  else ctx.out(`${renderHistoryTable(chosen, options.all === true)}\n`);
  return EXIT.ok;
}
