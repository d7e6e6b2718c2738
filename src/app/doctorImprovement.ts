import { parseChecklist, renderChecklistProgress } from "../core/checklist.js";
import { LoopError } from "../core/errors.js";
import { MAX_VERIFY_TIMEOUT_S } from "../core/fields.js";
import type { Env, LoopFile } from "../core/loopFiles.js";
import { directionOf, renderTarget } from "../core/metric.js";
import type { LoopState } from "../core/parseState.js";
import { readChecklistText } from "../io/readProjectFiles.js";
import { checkScopePaths } from "../io/readScopeChanges.js";
import { readGitRepo } from "../io/runGit.js";
/** A line of doctor's report (as src/app/doctorChecks.ts's `Check`). */
type Check = { level: "ok" | "warn" | "FAIL"; text: string };

/** `until` and `verify` (docs/REFERENCE.md "How a loop ends"): when they run. */
function checkCommands(state: LoopState): Check[] {
  const checks: Check[] = [];
  if (state.until !== undefined)
    checks.push({
      level: "ok",
      text: `until \`${state.until}\` runs at every stop, within verify_timeout (${state.verify_timeout}s): exit 0 completes the loop`,
    });
  if (state.verify !== undefined)
    checks.push({ level: "ok", text: `verify \`${state.verify}\` runs when completion is due: exit 0 confirms it` });
  const metric = state.metric !== undefined ? state.metric_timeout : 0;
  if (
    state.until !== undefined &&
    state.verify !== undefined &&
    2 * state.verify_timeout + metric > MAX_VERIFY_TIMEOUT_S
  )
    checks.push({
      level: "warn",
      text: `until and verify each get verify_timeout, more than the Stop hook's ${MAX_VERIFY_TIMEOUT_S / 60}m together: verify gets what until${metric ? " and the metric" : ""} leave of it`,
    });
  return checks;
}

/** The checklist as the Stop hook will read it (docs/REFERENCE.md "Checklists"): one it refuses is a failure here. */
function checkChecklist(state: LoopState, where: LoopFile): Check[] {
  if (state.checklist === undefined) return [];
  try {
    const list = parseChecklist(readChecklistText(where.root, state.checklist, where.shown));
    if (list.total > 0)
      return [{ level: "ok", text: `checklist ${state.checklist}: ${renderChecklistProgress(list)}` }];
    return [{ level: "FAIL", text: `${where.shown}: checklist: the checklist has no task boxes` }];
  } catch (error) {
    return [{ level: "FAIL", text: error instanceof LoopError ? error.describe() : String(error) }];
  }
}

/** An improvement loop's fields as the Stop hook will find them (docs/REFERENCE.md "Improvement loops"). */
export function checkImprovement(state: LoopState, where: LoopFile, env: Env): Check[] {
  const checks: Check[] = [...checkCommands(state), ...checkChecklist(state, where)];
  if (state.metric === undefined && (state.metric_target !== undefined || state.max_no_improvement !== undefined)) {
    const field = state.metric_target !== undefined ? "metric_target" : "max_no_improvement";
    checks.push({ level: "FAIL", text: `${where.shown}: ${field} needs a metric command beside it` });
  }
  if (state.metric !== undefined) {
    const target = state.metric_target ? `, target ${renderTarget(state.metric_target)}` : ", no target";
    checks.push({
      level: "ok",
      text: `metric \`${state.metric}\` runs at every stop (${directionOf(state.metric_target)} is better${target})`,
    });
    if (state.verify !== undefined && state.verify_timeout + state.metric_timeout > MAX_VERIFY_TIMEOUT_S) {
      checks.push({
        level: "warn",
        text: `verify_timeout and metric_timeout add up to more than ${MAX_VERIFY_TIMEOUT_S / 60}m: verify gets what the metric leaves of it`,
      });
    }
  }
  if (state.checkpoints && readGitMissing(where.root, env))
    checks.push({
      level: "warn",
      text: `${where.shown}: checkpoints: git is not installed or not on PATH, so no checkpoint is kept (the loop goes on without them): install git, or set checkpoints: false`,
    });
  if (state.scope === undefined && state.max_files_changed === undefined) return checks;
  try {
    readGitRepo(where.root, env as NodeJS.ProcessEnv);
    if (state.scope) checkScopePaths(where.root, state.scope, where.shown);
    checks.push({ level: "ok", text: `scope is checked at every stop against the working tree at the stop before` });
  } catch (error) {
    const field = state.scope !== undefined ? "scope" : "max_files_changed";
    const text =
      error instanceof LoopError && error.code === "CHECKPOINT_NOT_GIT"
        ? `${where.shown}: ${field}: needs a git repository (git init), or remove the field`
        : error instanceof LoopError && error.code === "GIT_MISSING"
          ? `${where.shown}: ${field}: git is not installed or not on PATH, so the loop cannot compare the working tree and does not continue: install git, or remove the field`
          : error instanceof LoopError
            ? error.describe()
            : String(error);
    checks.push({ level: "FAIL", text });
  }
  return checks;
}

/** Whether git cannot run here at all (no program), as opposed to a folder that is no repository. */
function readGitMissing(root: string, env: Env): boolean {
  try {
    readGitRepo(root, env as NodeJS.ProcessEnv);
    return false;
  } catch (error) {
    return error instanceof LoopError && error.code === "GIT_MISSING";
  }
}
