import { loopFileAt } from "../core/loopFiles.js";
import { decideRestart } from "../core/restartRequest.js";
import { readHistory } from "../io/history.js";
import type { Context } from "./context.js";
import { type StartOutcome, startLoop } from "./startLoop.js";

/**
 * `/loop-start --again [N]` and `continuation-loop restart [N]` (docs/REFERENCE.md "History"): the N-th most
 * recent finished loop of the project starts again in this session, with its goal and fields.
 */
export function restartLoop(
  back: number,
  force: boolean,
  ctx: Context,
  root: string,
  sessionId: string | undefined,
): StartOutcome {
  const { historyPath } = loopFileAt(root, "default");
  const shown = historyPath.startsWith(`${root}/`) ? historyPath.slice(root.length + 1) : historyPath;
  return startLoop(decideRestart(readHistory(historyPath), back, force, shown), ctx, root, sessionId);
}
