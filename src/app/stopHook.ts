import { decideOwnership, decideStop, renderUntilStatus, type StopDecision } from "../core/decideStop.js";
import { LoopError } from "../core/errors.js";
import { mayNameCommands } from "../core/ownerHint.js";
import type { LoopState } from "../core/parseState.js";
import type { HistoryRecord } from "../core/history.js";
import { readLoopSpend } from "../core/sidecar.js";
import { parseStopInput, type StopInput } from "../core/hookInput.js";
import { type HookStdin, stringField } from "../core/hookStdin.js";
import { chooseSessionLoop, type LoopFile, renderHistoryShown } from "../core/loopFiles.js";
import { renderRecordFields } from "../core/restartRequest.js";
import { renderEndMessage, renderLimits } from "../core/renderStop.js";
import { renderRefusedStall } from "../core/permissionWait.js";
import type { Runtime } from "../core/sidecar.js";
import { readHistoryUnwritable, readPreviousRecord, tryAppendHistory } from "../io/history.js";
import { firstLine } from "../core/renderStatus.js";
import { readClaudeProcess } from "../io/processes.js";
import { readGitTracking } from "../io/readTreeState.js";
import { awaitStateFile } from "../io/readStateFile.js";
import { readTombstone } from "../io/sidecarFile.js";
import { scanLoops } from "../io/listLoops.js";
import { peekSnapshot, type StatePlan, type StateSnapshot, updateStateFile } from "../io/updateStateFile.js";
import type { LoopLookup } from "./concernsLoop.js";
import { addSystemMessage, type Context, type HookAnswer, renderPlainAnswer, SILENT, tell } from "./context.js";
import { locateField } from "./gatherImprovement.js";
import { type GatheredFacts, gatherStopFacts, skipPausedTurns } from "./gatherStopFacts.js";
import type { CommandRuns } from "./runOnce.js";
import { pauseForUser, renderMetricRecord } from "./stopPause.js";
import { holdForBackground, holdForPlan, renderHoldRecord } from "./stopHold.js";
import { applyModuleCost } from "./moduleBridge.js";
import {
  noteRunGone,
  noteRunningElsewhere,
  readRunGone,
  refuse,
  readOtherProcess,
  refuseTracked,
  reportEnded,
  writeStopCheckpoint,
} from "./stopNotices.js";
import { takeOverHandover } from "./backgroundHandover.js";
import { findHandover } from "./findHandover.js";
import { renderHandPause, renderHandResume } from "./stopHandEdits.js";
import { continueLoop } from "./stopContinue.js";

/** A loop this Stop may run, as a snapshot read it: what its facts are gathered on. */
interface Gathering {
  found: Extract<StateSnapshot, { kind: "found" }>;
  runtime: Runtime;
}

/** A loop with a command to run at its Stops: only its facts are gathered ahead of the lock (the rest is read twice). */
const namesCommands = (state: LoopState) =>
  state.until !== undefined || state.metric !== undefined || state.verify !== undefined;

/** The loop's last record in the history (none before its first Stop). */
const readLastRecord = (state: LoopState, file: LoopFile, now: number) =>
  state.started_at ? readPreviousRecord(file.historyPath, file.shown, state.started_at, now) : undefined;

/**
 * What the report needs of this iteration (README "The morning after"): its duration, reply and files.
 * `previous`: the loop's record this iteration's time starts from (its last, or a hand resume's).
 */
function renderIterationRecord(
  state: LoopState,
  previous: HistoryRecord | undefined,
  facts: GatheredFacts,
  now: number,
) {
  const since = previous ? Date.parse(previous.time) : state.started_at ? Date.parse(state.started_at) : Number.NaN;
  return {
    ...(Number.isFinite(since) && { duration_s: Math.max(0, Math.round(now - since) / 1000) }),
    ...(facts.reply.trim() && { reply_line: firstLine(facts.reply, 200) }),
    ...(facts.scope && { files_changed: facts.scope.changed.length }),
    ...(facts.refused && { refused_tools: facts.refused }),
    first: previous === undefined,
  };
}

function historyRecord(
  decision: StopDecision,
  state: LoopState,
  file: LoopFile,
  session: string | undefined,
  now: number,
  facts: GatheredFacts,
  previous: HistoryRecord | undefined,
) {
  const ended = decision.kind === "end";
  const until = renderUntilStatus(state, facts);
  const { first, ...iteration } = renderIterationRecord(state, previous, facts, now);
  const paused = decision.kind === "pause";
  const held = decision.kind === "hold";
  const planning = decision.kind === "plan";
  const record: HistoryRecord = {
    time: new Date(now).toISOString(),
    state_file: file.shown,
    session: state.session_id ?? session,
    iteration: decision.iteration,
    decision: held ? "waiting_background" : planning ? "waiting_plan" : decision.kind,
    reason: ended
      ? decision.reason
      : paused
        ? (decision.reason ?? "question")
        : held
          ? "background_tasks"
          : planning
            ? "plan_mode"
            : "continue",
    output_tokens: decision.runtime.output_tokens,
    ...(readLoopSpend(decision.runtime) !== undefined && { cost_usd: readLoopSpend(decision.runtime) }),
    tokens_by_model: decision.runtime.tokens_by_model,
    limits: renderLimits(
      state,
      decision.runtime,
      decision.kind === "continue" ? decision.next : decision.iteration,
      now,
    ),
    ...(ended && decision.promise && { promise: decision.promise }),
    ...("refusal" in decision && decision.refusal && { refusal: decision.refusal }),
    ...(until !== undefined && { until_failure: until }),
    ...(paused && (decision.reason === "scope" ? { scope: decision.question } : { question: decision.question })),
    ...renderMetricRecord(state, decision),
    ...(held && renderHoldRecord(state, decision)),
    ...iteration,
    // A loop's first record keeps its goal and fields too, so a running loop's report has them.
    ...((ended || first) && { goal: state.body, fields: renderRecordFields(state) }),
  };
  return record;
}

/** A stall on tools Claude Code refused names them and how to allow them; "" otherwise. */
const renderStallCause = (decision: Extract<StopDecision, { kind: "end" }>, facts: GatheredFacts): string =>
  decision.reason === "stalled" && facts.refused ? renderRefusedStall(facts.refused) : "";

/** A paused loop's Stop: silent; its own session's turns meanwhile are not counted as the loop's. */
function passPausedTurns(state: LoopState, runtime: Runtime, input: StopInput) {
  const own = state.session_id !== undefined && state.session_id === input.session_id;
  const passed = own ? skipPausedTurns(runtime, input) : undefined;
  return passed ? { result: SILENT, runtime: passed } : { result: SILENT };
}

/**
 * One Stop of a loop this session may run: read, decide and save in one state-file transaction. A file gone
 * meanwhile is waited for once: an editor's save may have moved it away for a moment.
 */
function runLoopStop(
  file: LoopFile,
  input: StopInput,
  ctx: Context,
  again = true,
  /** For a loop no session owned when chosen: what to do when another session claimed it first. */
  claimedElsewhere?: () => HookAnswer,
): HookAnswer {
  // A user edit landing meanwhile makes the transaction decide again: on the file as edited, each command run once.
  const runs: CommandRuns = new Map();
  let missing = false;
  let claimed = false;
  // A resume made by setting active: true, recorded before this Stop's own record.
  let resumed: HistoryRecord | undefined;
  /**
   * Whether this Stop gathers facts on the snapshot (the loop as it may run), or what it answers instead: a
   * thunk, so that nothing is said or recorded when the commands are run ahead of the lock.
   */
  const gate = (snapshot: StateSnapshot): { early: () => StatePlan<HookAnswer> } | Gathering => {
    if (snapshot.kind === "missing") {
      return {
        early: () => {
          missing = true;
          return { result: SILENT };
        },
      };
    }
    if (snapshot.kind === "invalid") {
      const error = snapshot.error;
      return {
        early: () => ({ result: refuse(error, "The loop is paused until the file is fixed; it was not changed.") }),
      };
    }
    const { state } = snapshot;
    const ownership = decideOwnership(state, input.session_id);
    if (ownership === "other") {
      return {
        early: () => {
          claimed = true;
          return { result: SILENT };
        },
      };
    }
    if (ownership === "paused") return { early: () => passPaused(state, snapshot.runtime) };
    // This session resumed in a second terminal while the first still runs: one process drives the loop.
    const elsewhere = ownership === "ours" ? readOtherProcess(snapshot.runtime, ctx.env) : undefined;
    if (elsewhere) return { early: () => ({ result: noteRunningElsewhere(file, input, ctx, elsewhere) }) };
    // A Claude Code left behind by a killed `continuation-loop run` stops at the end of its turn; the loop stays.
    const runGone = ownership === "ours" ? readRunGone(ctx.env) : undefined;
    if (runGone) return { early: () => ({ result: noteRunGone(file, input, ctx, runGone) }) };
    // A state file that came with the repository is never claimed, continued or allowed to run verify.
    if (ownership === "claim") {
      const tracking = readGitTracking(file.root, file.statePath);
      if (tracking.kind !== "untracked")
        return { early: () => ({ result: refuseTracked(file, input, ctx, tracking) }) };
    }
    // Claude Code's cost figure, when the companion module handed one (README "Spend limits").
    const runtime = applyModuleCost(snapshot.runtime, ctx.env, () => readClaudeProcess(ctx.env));
    // Waiting for the user's answer to Claude's question: nothing to do until they send it.
    if (runtime.pause?.reason === "question") return { early: () => passPausedTurns(state, runtime, input) };
    return { found: snapshot, runtime };
  };
  const passPaused = (state: LoopState, runtime: Runtime): StatePlan<HookAnswer> => {
    const passed = passPausedTurns(state, runtime, input);
    const own = state.session_id !== undefined && state.session_id === input.session_id;
    const pause = own ? renderHandPause(state, file, readLastRecord(state, file, ctx.now()), ctx.now()) : undefined;
    return pause ? { ...passed, onCommit: () => tryAppendHistory(file.historyPath, pause) } : passed;
  };
  // The loop's commands (`until`, `metric`, `verify`) take minutes: run before the lock, so that a pause, a stop or
  // a cost record meanwhile gets the lock at once. The transaction then decides on the files as they are then:
  // a command the files still name gives its result from here, a pause or a stop wins (docs/ARCHITECTURE.md).
  const peeked = peekSnapshot(file, mayNameCommands);
  const ahead = peeked && gate(peeked);
  if (ahead && !("early" in ahead) && namesCommands(ahead.found.state)) {
    try {
      gatherStopFacts(ahead.found.state, ahead.runtime, input, file, ctx, runs);
    } catch (error) {
      if (!(error instanceof LoopError)) throw error; // said by the transaction, which meets it again
    }
  }
  const decide = (snapshot: StateSnapshot): StatePlan<HookAnswer> => {
    resumed = undefined;
    const gated = gate(snapshot);
    if ("early" in gated) return gated.early();
    const { found, runtime } = gated;
    const { state, text, frontmatter } = found;
    let facts: GatheredFacts;
    try {
      facts = gatherStopFacts(state, runtime, input, file, ctx, runs);
    } catch (error) {
      if (!(error instanceof LoopError)) throw error;
      const placed = locateField(error, text, frontmatter);
      return { result: refuse(placed, "The loop did not continue; the file was not changed.") };
    }
    const now = ctx.now();
    const decision = decideStop(state, runtime, facts.assessment, facts, now);
    const last = readLastRecord(state, file, now);
    resumed = renderHandResume(state, file, last, now);
    const record = historyRecord(decision, state, file, input.session_id, now, facts, resumed ?? last);
    // The working tree as this iteration left it, before anything is saved (docs/REFERENCE.md "Checkpoints").
    if (state.checkpoints && decision.kind !== "pause" && decision.kind !== "hold" && decision.kind !== "plan") {
      // A first Stop gives the loop its started_at (decideStateUpdates, same `now`): the checkpoint is marked with it.
      const startedAt = state.started_at ?? new Date(now).toISOString();
      const captured = facts.scope?.standIns ? undefined : facts.scope?.tree;
      const told = decision.runtime.checkpoint_skip_told;
      const written = writeStopCheckpoint(file, state.iteration_count, startedAt, ctx, captured, told);
      if (written instanceof LoopError)
        return {
          result: refuse(
            locateField(written, text, frontmatter),
            "The loop did not continue; the file was not changed.",
          ),
        };
      if (written.filesChanged !== undefined) record.files_changed = written.filesChanged;
      if (written.notice) facts.notice = written.notice;
      decision.runtime = { ...decision.runtime, checkpoint_skip_told: written.skipped };
    }
    const unwritable = noteHistoryUnwritable(file, decision.runtime.history_unwritable_told);
    if (unwritable.notice) facts.notice = [facts.notice, unwritable.notice].filter(Boolean).join("\n");
    decision.runtime = { ...decision.runtime, history_unwritable_told: unwritable.told };
    if (decision.kind === "end") {
      return {
        change: { remove: true },
        // The bell reaches the terminal verbatim on both supported versions (test/tui/TERMINAL.md).
        result: tell(
          renderEndMessage(state, decision, now, file.name, renderStallCause(decision, facts)),
          state.notify ? { terminalSequence: "\u0007" } : {},
        ),
        onCommit: () => tryAppendHistory(file.historyPath, record),
      };
    }
    if (decision.kind === "pause") return pauseForUser(decision, state, text, file, input, now, record);
    if (decision.kind === "hold") return holdForBackground(decision, state, text, file, input, now, record);
    if (decision.kind === "plan") return holdForPlan(decision, state, text, file, input, now, record);
    return continueLoop(decision, found, file, input, ctx, facts, now, record, resumed !== undefined);
  };
  const outcome = updateStateFile(
    file,
    (snapshot) => {
      const plan = decide(snapshot);
      const resume = resumed;
      const record = plan.onCommit;
      if (!resume || !record) return plan;
      return {
        ...plan,
        onCommit: () => {
          tryAppendHistory(file.historyPath, resume);
          record();
        },
      };
    },
    // A torn sidecar is said in this Stop's answer (docs/REFERENCE.md "Messages you may see").
    { tellsTorn: true },
  );
  if (claimed && claimedElsewhere) return claimedElsewhere();
  if ((missing || outcome.kind === "gone") && again && awaitStateFile(file.statePath))
    return runLoopStop(file, input, ctx, false);
  if (outcome.kind === "done") return addSystemMessage(outcome.result, outcome.tornSidecar);
  if (outcome.kind === "gone") return SILENT; // stopped by the user meanwhile
  return tell(`continuation-loop: ${outcome.message}; this Stop was not counted.`);
}

/**
 * For an unowned loop another session may claim first (two sessions stopping at once): this session then claims
 * the next unowned loop, as it would have a moment later (docs/REFERENCE.md "Several loops").
 */
function claimNext(found: LoopLookup, input: StopInput, ctx: Context, tries = 3): (() => HookAnswer) | undefined {
  if (found.loop?.owner !== undefined || tries === 0) return undefined;
  return () => {
    const { loops, orphans } = scanLoops(found.root, ctx.env);
    const loop = chooseSessionLoop(loops, input.session_id, orphans);
    if (!loop || loop.file.statePath === found.loop?.file.statePath) return SILENT;
    return runLoopStop(loop.file, input, ctx, true, claimNext({ ...found, loop }, input, ctx, tries - 1));
  };
}

/**
 * The Stop hook (docs/ARCHITECTURE.md, "The path of one Stop"): input → loop → facts → decision → transaction → answer.
 * `found` is what the idle check found (src/app/concernsLoop.ts): the root, the loops, the session's loop.
 */
export function runStopHook(stdin: HookStdin, ctx: Context, found: LoopLookup): HookAnswer {
  return renderPlainAnswer(answerStop(stdin, ctx, found));
}

function answerStop(stdin: HookStdin, ctx: Context, found: LoopLookup): HookAnswer {
  // A subagent's stop is not a turn of the main thread: nothing of its input concerns the loop.
  if (stringField(stdin.json, "agent_id")) return SILENT;
  let input: StopInput;
  try {
    input = parseStopInput(stdin);
  } catch (error) {
    if (!(error instanceof LoopError)) throw error;
    // Bad stdin never blocks; the user hears of it only when a loop exists.
    return found.loops.length ? refuse(error, "The loop did not continue.") : SILENT;
  }
  if (found.loop) return runLoopStop(found.loop.file, input, ctx, true, claimNext(found, input, ctx));
  if (found.handover) {
    const handover = findHandover(found.loops, input.session_id, input.transcript_path, ctx.env);
    if (!handover || !input.session_id) return SILENT;
    takeOverHandover(handover, input.session_id, ctx);
    return runLoopStop(handover.loop.file, input, ctx);
  }
  const orphan = found.orphans.find((o) => o.owner !== undefined && o.owner === input.session_id);
  if (!orphan) return SILENT;
  // Stopped from elsewhere leaves a tombstone; a file with none may be mid-save by an editor.
  if (!readTombstone(orphan.file.sidecarPath) && awaitStateFile(orphan.file.statePath))
    return runLoopStop(orphan.file, input, ctx, false);
  return reportEnded(orphan.file, input, ctx);
}

/**
 * A history this process cannot append to (another user's, read-only) is no reason to stop the loop: the count
 * lives in the state file and the sidecar. The person is told once, naming the file and what to do.
 */
function noteHistoryUnwritable(file: LoopFile, told: string): { told: string; notice?: string } {
  const code = readHistoryUnwritable(file.historyPath);
  if (!code) return { told: "" };
  if (code === told) return { told };
  return {
    told: code,
    notice: `continuation-loop: ${renderHistoryShown(file)} cannot be written (${code}), so the history and the report miss this loop's turns; the loop goes on. Expected a history the user running Claude Code can write: chown or chmod u+w it, or delete it.`,
  };
}
