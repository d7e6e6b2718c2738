import { parseWholeNumber } from "./parseCliArgs.js";
import { renderHistoryTable } from "../core/renderHistory.js";
import { loopFileAt, renderHistoryShown } from "../core/loopFiles.js";
import { readPastRecords } from "../io/readReportHistory.js";
import { type CommandCall, say } from "./commandTable.js";
import { EXIT } from "./context.js";

/** `history [--limit N] [--all] [--json] [--project DIR]`: past loops, newest last. */
export function runHistory({ options, root, command, ctx }: CommandCall): number {
  const limit = parseWholeNumber(options.limit, "--limit", command, 20);
  const file = loopFileAt(root, "default");
  const all = readPastRecords(file.historyPath, renderHistoryShown(file));
  const chosen = (options.all ? all : all.filter((r) => r.decision === "end")).slice(-limit);
  if (options.json) ctx.out(chosen.map((r) => `${JSON.stringify(r)}\n`).join(""));
  return options.json ? EXIT.ok : say({ ctx }, renderHistoryTable(chosen, options.all === true));
}
