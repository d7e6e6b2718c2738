import { composeStateFile } from "../core/composeState.js";
import { LoopError } from "../core/errors.js";
import type { LoopState } from "../core/parseState.js";
import { type FoundLoop, type LoopFile, loopFileAt, pinnedLoopFile } from "../core/loopFiles.js";
import type { StartRequest } from "../core/parseStartArgs.js";
import { parseState } from "../core/parseState.js";
import { renderSiblingCommand } from "../core/loopCommand.js";
import { renderStartContext, renderStartSummary } from "../core/renderStart.js";
import { scanLoops } from "../io/listLoops.js";
import { makeRuntime } from "../core/sidecar.js";
import { readScopeBaseline } from "../io/readScopeChanges.js";
import { updateStateFile } from "../io/updateStateFile.js";
import { readGitRepo } from "../io/runGit.js";
import { checkProjectPaths } from "../io/readProjectFiles.js";
import type { Context } from "./context.js";
import { readSettingsSources, type SettingsSource } from "../io/readSettingsFiles.js";
import { readCostSource, readInstallRoute, renderNoCostSource } from "./doctorChecks.js";
import { readTemplate } from "./templates.js";
import { refuseFreshWithoutModule } from "./freshContext.js";
import { requireMetric } from "./gatherImprovement.js";
import { readModuleLive } from "./moduleBridge.js";
import { recordStopped, stopLoop } from "./stopLoop.js";
import { readDriverRunning, refuseDriven } from "./resumeLoop.js";
import { readStateFile } from "../io/readStateFile.js";
import { readSidecar } from "../io/sidecarFile.js";

/** The same start arriving twice within this window (two registrations of the hook) is one start. */
const TWIN_WINDOW_MS = 30_000;

export interface StartOutcome {
  state: LoopState;
  file: LoopFile;
  /** For Claude: begin, the goal, the promise and the limits. */
  context: string;
  /** For the user: one line. */
  summary: string;
}

/** Is the file on disk this very start, written a moment ago by a twin hook? */
function isTwin(old: LoopState, fresh: LoopState, now: number): boolean {
  const age = now - Date.parse(old.started_at ?? "");
  return (
    old.session_id !== undefined &&
    old.session_id === fresh.session_id &&
    old.iteration_count === 1 &&
    old.body === fresh.body &&
    age >= 0 &&
    age < TWIN_WINDOW_MS
  );
}

/** A loop name made from the goal's first words ("fix-the-failing-tests"), unique in the project. */
function nameFromGoal(goal: string, taken: Set<string>): string {
  const words = goal.toLowerCase().match(/[a-z0-9]+/g) ?? [];
  let stem = "";
  for (const word of words.slice(0, 5))
    if ((stem ? `${stem}-${word}` : word).length <= 32) stem = stem ? `${stem}-${word}` : word;
  stem ||= "loop";
  for (let n = 1; ; n++) {
    const name = n === 1 && stem !== "default" ? stem : `${stem}-${n}`;
    if (!taken.has(name)) return name;
  }
}

/** Refused beside `found`'s loop: stop it (by its name, as the person typed `command`) first, or --force. */
function runningError(found: FoundLoop, why: string, command: string): LoopError {
  return new LoopError("LOOP_RUNNING", why, {
    file: found.file.shown,
    expected: `${renderSiblingCommand(command, "stop", found.file.name)} first, or --force to replace it`,
  });
}

/**
 * A `run GOAL` without --name whose goal another live `run` already drives: the same command started twice (two CI
 * jobs, a cron job overlapping the last one) would run two Claude Codes on one goal in one checkout.
 */
function refuseSameGoalDriven(loops: FoundLoop[], goal: string, runPid: string): void {
  for (const { file } of loops) {
    const driver = readGoalDriver(file, goal, runPid);
    if (driver)
      throw new LoopError(
        "LOOP_RUNNING",
        `the same goal is driven by continuation-loop run (pid ${driver}), which still runs`,
        {
          file: file.shown,
          expected: `that run to end first (kill ${driver} stops it and leaves the loop), or --name NAME to run this goal a second time beside it`,
        },
      );
  }
}

/** The body a new state file holds; "" for one the start refuses (it says why, naming the file). */
function readGoal(text: string): string {
  try {
    return parseState(text, "").body;
  } catch {
    return "";
  }
}

/** The live `run` other than `runPid` that drives the loop in `file`, when its goal is `goal`. */
function readGoalDriver(file: LoopFile, goal: string, runPid: string): string | undefined {
  try {
    const read = readStateFile(file.statePath, file.shown);
    if (read.kind === "missing") return undefined;
    const state = parseState(read.text, file.shown);
    return goal !== "" && state.body === goal
      ? readDriverRunning(readSidecar(file.sidecarPath, state), runPid)
      : undefined;
  } catch {
    return undefined; // a file that cannot be read is no loop a run drives; the start says what is wrong with it
  }
}

/**
 * Where the new loop goes (docs/REFERENCE.md "Several loops"), and the loop this session already runs, if any.
 * `free`: a file picked because it was free, which another start may take first.
 */
function chooseTarget(
  request: StartRequest,
  root: string,
  ctx: Context,
  sessionId: string | undefined,
  /** For a `run`: its pid and the goal as the state file holds it. */
  run?: { pid: string; goal: string },
): { file: LoopFile; own?: FoundLoop; free?: true; beside?: LoopFile } {
  const pinned = pinnedLoopFile(root, ctx.env);
  if (pinned) return { file: pinned };
  const { loops } = scanLoops(root, ctx.env);
  if (run && !request.name) refuseSameGoalDriven(loops, run.goal, run.pid);
  const own = sessionId === undefined ? undefined : loops.find((loop) => loop.owner === sessionId);
  if (request.name) return { file: loopFileAt(root, request.name), ...(own && { own }) };
  if (own) return { file: own.file, own };
  if (!loops.some((loop) => loop.file.name === "default")) return { file: loopFileAt(root, "default"), free: true };
  const taken = new Set(loops.map((loop) => loop.file.name));
  const beside = loopFileAt(root, "default");
  return { file: loopFileAt(root, nameFromGoal(request.goal, taken)), free: true, beside };
}

/** What the transaction finds when another start took the free file first. */
const TAKEN: unique symbol = Symbol("taken");

/** A start that lost a free file to another start at the same moment chooses again, this many times. */
const CHOICES = 5;

/**
 * Whether the companion module may yet hand this loop Claude Code's cost figures: started from a terminal (no
 * session) on the plugin route. In a session its absence is known; the install route never loads it.
 */
const readCostModuleMayRun = (
  root: string,
  ctx: Context,
  sessionId: string | undefined,
  settings: () => SettingsSource[],
): boolean => sessionId === undefined && ctx.env.CLAUDECODE !== "1" && !readInstallRoute(root, settings());

/** Creates the state file for a new loop, bound to the session, in one state-file transaction. */
export function startLoop(
  request: StartRequest,
  ctx: Context,
  root: string,
  sessionId: string | undefined,
  /** The session's Claude Code process, when it is known: `/loop-resume` elsewhere can then tell whether it ended. */
  ownerPid = "",
  /** The `continuation-loop run` that starts the loop to drive it (docs/REFERENCE.md "continuation-loop run"). */
  runPid = "",
): StartOutcome {
  const now = ctx.now();
  const template = request.template ? readTemplate(request.template, root, ctx.packageRoot) : undefined;
  const text = composeStateFile({ request, template, sessionId, now });
  const run = runPid ? { pid: runPid, goal: readGoal(text) } : undefined;
  for (let choice = 1; ; choice++) {
    const { file, own, free, beside } = chooseTarget(request, root, ctx, sessionId, run);
    const started = writeNewLoop(
      request,
      ctx,
      { root, text, file, beside, now, sessionId, ownerPid, runPid },
      own,
      free && choice < CHOICES,
    );
    if (started) return started;
  }
}

/**
 * Writes the new loop into `file`, in one state-file transaction; undefined when `free` and another start took
 * the file first (two sessions starting at once: the later one chooses again).
 */
function writeNewLoop(
  request: StartRequest,
  ctx: Context,
  loop: {
    root: string;
    text: string;
    file: LoopFile;
    /** The default loop's file, when the new loop was given a name of its own because that file was taken. */
    beside: LoopFile | undefined;
    now: number;
    sessionId: string | undefined;
    ownerPid: string;
    runPid: string;
  },
  own: FoundLoop | undefined,
  free: boolean | undefined,
): StartOutcome | undefined {
  const { root, text, file, beside, now, sessionId, ownerPid, runPid } = loop;
  const state = parseState(text, file.shown);
  // The settings files, read once, only when a field needs them.
  let sources: SettingsSource[] | undefined;
  const settings = () => (sources ??= readSettingsSources(root, ctx.env, ctx.home));
  // fresh_context needs the companion module: refused where it is not live, or never loads (docs/REFERENCE.md "Fresh context").
  const installRoute = state.fresh_context && readInstallRoute(root, settings());
  refuseFreshWithoutModule(state, ctx.env, file.shown, installRoute);
  // Checkpoints need a git work tree: refused here, before any file is written (docs/REFERENCE.md "Checkpoints").
  if (state.checkpoints) readGitRepo(root, ctx.env as NodeJS.ProcessEnv);
  // So does scope, whose first Stop compares with the tree as the loop starts (docs/REFERENCE.md "Improvement loops").
  const baseline = readScopeBaseline(state, file, ctx.env as NodeJS.ProcessEnv);
  // What the first Stop would refuse is refused now, before Claude starts on a loop that cannot go on.
  requireMetric(state, file);
  checkProjectPaths(state, root, file.shown);
  // --force with another file of this session's: that loop ends first (its goal kept in the history).
  if (request.force && own && own.file.statePath !== file.statePath) stopLoop(own.file, now, sessionId);

  const outcome = updateStateFile<LoopError | typeof TAKEN | undefined>(
    file,
    (snapshot) => {
      if (snapshot.kind === "found" && isTwin(snapshot.state, state, now)) return { result: undefined };
      if (free && snapshot.kind !== "missing") return { result: TAKEN };
      const driver = snapshot.kind === "found" ? readDriverRunning(snapshot.runtime, runPid) : undefined;
      if (driver && (runPid !== "" || !request.force)) {
        const otherwise =
          runPid !== ""
            ? "--name NAME to start another loop beside it"
            : "--force to replace its loop (that run then ends)";
        return { result: refuseDriven(file, driver, otherwise) };
      }
      // One loop per session: a second one only replaces the first, with --force.
      if (own && !request.force)
        return { result: runningError(own, `this session already runs a loop (${own.file.name})`, request.command) };
      if (snapshot.kind !== "missing" && !request.force) {
        const what =
          snapshot.kind === "found"
            ? `a loop is already ${snapshot.state.active ? "running" : "paused"} (iteration ${snapshot.state.iteration_count}/${snapshot.state.max_iterations}, ${snapshot.state.session_id ? `session ${snapshot.state.session_id}` : "no session yet"})`
            : "a state file already exists (and is not valid)";
        return { result: runningError({ file, owner: undefined }, what, request.command) };
      }
      return {
        change: { write: text, state },
        // `/loop-start --bg`: the first Stop that continues the loop sends the session to the background.
        runtime: {
          ...makeRuntime(),
          owner_pid: ownerPid,
          run_pid: runPid,
          ...(baseline && { scope_tree: baseline }),
          background_asked: request.background === true,
        },
        result: undefined,
        onCommit: () => {
          if (snapshot.kind === "found") recordStopped(file, snapshot, snapshot.state.body, now, sessionId);
          if (snapshot.kind === "invalid") recordStopped(file, undefined, snapshot.text ?? "", now, sessionId);
        },
      };
    },
    { create: true },
  );
  if (outcome.kind === "failed")
    throw new LoopError("LOOP_LOCKED", outcome.message, {
      ...(outcome.locked && { expected: "the file to settle; try again in a moment" }),
    });
  if (outcome.kind === "done" && outcome.result === TAKEN) return undefined;
  if (outcome.kind === "done" && outcome.result) throw outcome.result;
  return {
    state,
    file,
    context: renderStartContext(state, file.shown, now),
    // Spend reaches the loop from the companion module where it runs, else from the plugin's status line.
    summary:
      state.max_cost !== undefined && !readModuleLive(ctx.env) && !readCostSource(settings())
        ? `${renderStartSummary(state, file, request.command, beside?.shown)} Note: ${renderNoCostSource(readCostModuleMayRun(root, ctx, sessionId, settings))}.`
        : renderStartSummary(state, file, request.command, beside?.shown),
  };
}
