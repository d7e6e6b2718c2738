import { type ImprovementFacts, metricReached } from "../core/decideImprovement.js";
import { LoopError } from "../core/errors.js";
import { type LoopFile, ownFilesOf } from "../core/loopFiles.js";
import { lineAt, type ParsedFrontmatter } from "../core/frontmatter.js";
import type { LoopState } from "../core/parseState.js";
import { decideScope } from "../core/scope.js";
import type { Runtime } from "../core/sidecar.js";
import { captureScopeTree, checkScopePaths, readChangedFiles } from "../io/readScopeChanges.js";
import { readMonotonicMs } from "../io/monotonic.js";
import { runMetric } from "../io/runMetric.js";
import type { Context } from "./context.js";
import { type CommandRuns, runOnce } from "./runOnce.js";

/** A field that only means something beside `metric`. */
export function requireMetric(state: LoopState, file: LoopFile): void {
  if (state.metric !== undefined) return;
  const field = state.metric_target !== undefined ? "metric_target" : "max_no_improvement";
  if (state.metric_target === undefined && state.max_no_improvement === undefined) return;
  throw new LoopError("METRIC_MISSING", "needs a metric to measure", {
    file: file.shown,
    field,
    expected: 'a metric command beside it, e.g. metric: "npm run -s coverage"',
  });
}

/**
 * An improvement loop's evidence (docs/REFERENCE.md "Improvement loops"): the files changed since the last Stop
 * when the loop has `scope` or `max_files_changed`, then the metric (not run when scope pauses the
 * loop). `seconds`: what the metric took. Throws LoopError for fields that cannot be used here.
 */
export function gatherImprovementFacts(
  state: LoopState,
  runtime: Runtime,
  file: LoopFile,
  ctx: Context,
  runs: CommandRuns,
): { facts: ImprovementFacts; reached: boolean; seconds: number } {
  requireMetric(state, file);
  const facts: ImprovementFacts = {};
  if (state.scope !== undefined || state.max_files_changed !== undefined) {
    if (state.scope) checkScopePaths(file.root, state.scope, file.shown);
    const own = ownFilesOf(file);
    const tree = captureScopeTree(state, file.root, ctx.env as NodeJS.ProcessEnv, own, file.shown);
    // No tree recorded past a loop's first stop (the field was added to a running loop): in force from here on.
    const fresh = runtime.scope_tree === "" && state.iteration_count > 1;
    facts.scope = {
      tree: tree.tree,
      changed: fresh ? [] : readChangedFiles(tree, runtime.scope_tree),
      ...(tree.standIns && { standIns: true }),
    };
    if (decideScope(facts.scope.changed, state.scope, state.max_files_changed) !== undefined) {
      return { facts, reached: false, seconds: 0 };
    }
  }
  if (state.metric === undefined) return { facts, reached: false, seconds: 0 };
  const started = readMonotonicMs();
  const command = state.metric;
  facts.metric = runOnce(runs, `metric ${command}`, () =>
    runMetric(command, file.root, state.metric_timeout, ctx.env, ctx.packageRoot),
  );
  return { facts, reached: metricReached(state, facts.metric), seconds: (readMonotonicMs() - started) / 1000 };
}

/** The error with the line of its field in the state file, when it names a field and has no line yet. */
export function locateField(error: LoopError, text: string, frontmatter: ParsedFrontmatter): LoopError {
  const { field, line } = error.details;
  const at = field === undefined || line !== undefined ? undefined : frontmatter.keyOffset(field);
  if (at === undefined) return error;
  return new LoopError(error.code, error.message, { ...error.details, line: lineAt(text, at) });
}
