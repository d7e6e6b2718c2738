import { elapsedSeconds, renderDuration } from "../core/duration.js";
import { editFrontmatter } from "../core/frontmatter.js";
import { LoopError } from "../core/errors.js";
import { type Env, type LoopFile, ownFilesOf } from "../core/loopFiles.js";
import { renderStartContext } from "../core/renderStart.js";
import { renderSiblingCommand } from "../core/loopCommand.js";
import { tryAppendHistory } from "../io/history.js";
import { isSameProcess, pidOf } from "../core/processRef.js";
import { readProcessRef, readProcessRunning } from "../io/processes.js";
import { captureScopeTree } from "../io/readScopeChanges.js";
import { readUntrusted } from "./trustStateFile.js";
import type { LoopState } from "../core/parseState.js";
import { decidePassedTimeOrSpend } from "../core/passedLimits.js";
import { readLoopSpend, type Runtime } from "../core/sidecar.js";
import { updateStateFile } from "../io/updateStateFile.js";

/** With `scope` or `max_files_changed`, the working tree now as a git tree; undefined without them or when git cannot say. */
function readAcceptedTree(state: LoopState, file: LoopFile, env: Env): string | undefined {
  if (state.scope === undefined && state.max_files_changed === undefined) return undefined;
  try {
    const own = ownFilesOf(file);
    return captureScopeTree(state, file.root, env as NodeJS.ProcessEnv, own, file.shown).tree;
  } catch {
    return undefined; // the next Stop says why the field cannot be used
  }
}

/**
 * A state file git tracks came with the repository, not from this user: no command runs it, as no Stop claims it
 * (docs/REFERENCE.md "Several loops").
 */
export function refuseTrackedStateFile(file: LoopFile): void {
  const untrusted = readUntrusted(file, "no loop runs it");
  if (untrusted) throw untrusted;
}

/** The pid of the live `continuation-loop run` process, other than `runPid`, that drives the loop. */
export function readDriverRunning(runtime: Runtime, runPid: string): string | undefined {
  const ref = runtime.run_pid;
  return ref !== "" && !isSameProcess(ref, runPid) && readProcessRunning(ref) ? pidOf(ref) : undefined;
}

/**
 * The pid of the Claude Code that a `run` other than `runPid`, now ended, started and left running: it works on through
 * its turn (its Stop does not continue the loop), so another run waits for it rather than drive the loop beside it.
 */
export function readClaudeLeftByRun(runtime: Runtime, runPid: string): string | undefined {
  const ref = runtime.run_claude_pid;
  return ref !== "" && !isSameProcess(runtime.run_pid, runPid) && readProcessRunning(ref) ? pidOf(ref) : undefined;
}

/** Records the Claude Code process `run` just started, while that run still drives the loop. */
export function recordRunClaude(file: LoopFile, runPid: string, claudePid: number | undefined): void {
  if (claudePid === undefined) return;
  updateStateFile(file, (snapshot) =>
    snapshot.kind === "found" && isSameProcess(snapshot.runtime.run_pid, runPid)
      ? { result: undefined, runtime: { ...snapshot.runtime, run_claude_pid: readProcessRef(claudePid) } }
      : { result: undefined },
  );
}

/**
 * A loop that a live `run` drives (one loop, one driver): what else the person can do is the caller's, `otherwise`
 * (another run: a loop beside it; a session: --force, and that run then ends).
 */
export const refuseDriven = (file: LoopFile, pid: string, otherwise: string): LoopError =>
  new LoopError("LOOP_RUNNING", `the loop is driven by continuation-loop run (pid ${pid}), which still runs`, {
    file: file.shown,
    expected: `that run to end first (kill ${pid} stops it and leaves the loop), or ${otherwise}`,
  });

export interface ResumeOutcome {
  /** For the user: one line. */
  message: string;
  /** For Claude: the goal, how to finish, the limits. */
  context: string;
}

/** Why a loop whose time or spend is used up is not resumed, or undefined when neither is. */
function refusePassedLimit(state: LoopState, runtime: Runtime, now: number, shown: string): LoopError | undefined {
  const passed = decidePassedTimeOrSpend(state, runtime, now);
  if (!passed) return undefined;
  const used =
    passed === "max_duration"
      ? `time ${renderDuration(elapsedSeconds(state, now) ?? 0)} of ${renderDuration(state.max_duration ?? 0)}`
      : `spend $${(readLoopSpend(runtime) ?? 0).toFixed(2)} of $${state.max_cost}`;
  return new LoopError("LOOP_LIMIT_PASSED", `the loop has reached ${passed} (${used}), so its next stop would end it`, {
    file: shown,
    field: passed,
    expected: `a higher ${passed} in the file, then resume it again`,
  });
}

/** What a resume is asked with (docs/REFERENCE.md "Pausing"). */
interface ResumeRequest {
  /** The session that takes the loop; undefined for a terminal, which binds none. */
  sessionId: string | undefined;
  now: number;
  /** Take over a loop another live session owns, or one a live `run` drives. */
  force: boolean;
  /** The Claude Code process of that session, "" for none. */
  claudePid: string;
  env: Env;
  /** The command as the person typed it (`/loop-resume`, `continuation-loop run`): a refusal names its siblings so. */
  command: string;
  /** The `continuation-loop run` that takes the loop over to drive it, "" for a session or a terminal. */
  runPid?: string;
}

/**
 * Resumes a paused loop (docs/REFERENCE.md "Pausing"): `active: true`, bound to this session. A loop another
 * session owns is taken over only with `force`; one that came with the repository, never. The next Stop sends the full
 * prompt again.
 */
export function resumeLoop(file: LoopFile, request: ResumeRequest): ResumeOutcome {
  const { sessionId, now, force, claudePid, env, command, runPid = "" } = request;
  refuseTrackedStateFile(file);
  const outcome = updateStateFile<ResumeOutcome | LoopError>(
    file,
    (snapshot) => {
      if (snapshot.kind === "missing") {
        return {
          result: new LoopError("LOOP_RUNNING", "there is no loop to resume", {
            file: file.shown,
            expected: `${renderSiblingCommand(command, "start")} GOAL`,
          }),
        };
      }
      if (snapshot.kind === "invalid") return { result: snapshot.error };
      const { state, text, runtime } = snapshot;
      const other = state.session_id !== undefined && sessionId !== undefined && state.session_id !== sessionId;
      // The owner has ended when its Claude Code process is gone, or is this one (a session it ran before).
      const ownerEnded =
        runtime.owner_pid !== "" &&
        (isSameProcess(runtime.owner_pid, claudePid) || !readProcessRunning(runtime.owner_pid));
      // A live `run` drives the loop: another run never takes it; a session only with --force (that run then stops).
      const driver = readDriverRunning(runtime, runPid);
      if (driver && (runPid !== "" || !force)) {
        const otherwise =
          runPid !== ""
            ? "a GOAL to start another loop beside it"
            : "--force to take the loop over in this session (that run then stops)";
        return { result: refuseDriven(file, driver, otherwise) };
      }
      if (other && !force && !ownerEnded) {
        return {
          result: new LoopError(
            "LOOP_RUNNING",
            `the loop belongs to session ${state.session_id}, which ${runtime.owner_pid ? "is still running" : "has not stopped once yet, so whether it still runs is not known"}`,
            {
              file: file.shown,
              expected: "--force to take it over in this session",
            },
          ),
        };
      }
      // Its next Stop would end it: no turn is started for that (a loop left paused overnight, say).
      const passed = refusePassedLimit(state, runtime, now, file.shown);
      if (passed) return { result: passed };
      const updates: Record<string, unknown> = {};
      if (!state.active) updates.active = true;
      if (sessionId !== undefined && state.session_id !== sessionId) updates.session_id = sessionId;
      const resumed = { ...state, active: true, session_id: sessionId ?? state.session_id };
      // The working tree as it stands is accepted: the next Stop's scope check starts from it.
      const accepted = readAcceptedTree(state, file, env);
      const result = {
        message: `continuation-loop: loop resumed at iteration ${state.iteration_count}/${state.max_iterations} (${file.shown})${other ? `, taken over from session ${state.session_id}${ownerEnded ? ", which has ended" : ""}` : ""}.${accepted !== undefined && runtime.pause?.reason === "scope" ? " The working tree as it stands is accepted for scope." : ""}`,
        context: renderStartContext(resumed, file.shown, now, runtime).replace(
          "The user started a continuation loop",
          "The user resumed the continuation loop",
        ),
      };
      return {
        ...(Object.keys(updates).length > 0 && {
          change: { write: editFrontmatter(text, updates, file.shown, snapshot.frontmatter), state: resumed },
        }),
        // Counters carry over to the new owner; the full prompt is sent again at the next Stop.
        runtime: {
          ...runtime,
          sent_digest: "",
          pause: null,
          // After a pause for API errors in a row, the count starts again.
          api_errors_since_stop: 0,
          api_wait_until: "",
          ...(accepted !== undefined && { scope_tree: accepted }),
          // The new owner's processes; a terminal's resume binds no session and leaves the driver as it is.
          ...(sessionId && { owner_pid: claudePid, run_pid: runPid, run_claude_pid: "" }),
        },
        result,
        // The history's record starts the next iteration's duration here, not at the pause (docs/REFERENCE.md "History").
        onCommit: () => {
          tryAppendHistory(file.historyPath, {
            time: new Date(now).toISOString(),
            state_file: file.shown,
            session: resumed.session_id,
            iteration: state.iteration_count,
            decision: "resume",
            reason: other ? "taken over" : "resumed",
          });
        },
      };
      // A torn sidecar is said in the command's output (docs/REFERENCE.md "Messages you may see").
    },
    { tellsTorn: true },
  );
  if (outcome.kind === "failed")
    throw new LoopError("LOOP_LOCKED", outcome.message, {
      ...(outcome.locked && { expected: "try again in a moment" }),
    });
  if (outcome.kind === "gone") throw new LoopError("LOOP_RUNNING", "the loop ended meanwhile", { file: file.shown });
  if (outcome.result instanceof LoopError) throw outcome.result;
  const torn = outcome.tornSidecar;
  return torn ? { ...outcome.result, message: `${outcome.result.message}\n${torn}` } : outcome.result;
}
