import { renderLeftOutNotice } from "../core/checkpointRefs.js";
import { LoopError } from "../core/errors.js";
import type { StopInput } from "../core/hookInput.js";
import { type LoopFile, ownFilesOf } from "../core/loopFiles.js";
import { renderNameFlag } from "../core/loopFileNames.js";
import { readHistory, readLoopStart, tryAppendHistory } from "../io/history.js";
import type { GitTracking } from "../io/readTreeState.js";
import { writeCheckpoint } from "../io/checkpoints.js";
import { readTombstone, removeSidecar } from "../io/sidecarFile.js";
import { readBackgroundJob } from "../core/handover.js";
import type { Runtime } from "../core/sidecar.js";
import { isSameProcess, pidOf } from "../core/processRef.js";
import { readClaudeProcess, readProcessRunning } from "../io/processes.js";
import { type Context, type HookAnswer, SILENT, tell } from "./context.js";
import { renderLetGitAnswer } from "./trustStateFile.js";

// What the Stop hook tells a session about a loop it will not run (docs/REFERENCE.md "Several loops").

/**
 * Records that this session's Stop left the loop alone, and why, unless the history already holds that same
 * refusal for this session and file: true when it is new, so that the session is told once.
 */
function recordRefusalOnce(file: LoopFile, input: StopInput, ctx: Context, reason: string, refusal?: string): boolean {
  const told = readHistory(file.historyPath).some(
    (r) =>
      r.decision === "refused" &&
      r.reason === reason &&
      r.refusal === refusal &&
      r.session === input.session_id &&
      r.state_file === file.shown,
  );
  if (told) return false;
  tryAppendHistory(file.historyPath, {
    time: new Date(ctx.now()).toISOString(),
    state_file: file.shown,
    session: input.session_id,
    decision: "refused",
    reason,
    ...(refusal !== undefined && { refusal }),
  });
  return true;
}

/** Says once per session why a loop file tracked by git, or one git cannot answer for, is left alone, and records it. */
export function refuseTracked(
  file: LoopFile,
  input: StopInput,
  ctx: Context,
  tracking: Exclude<GitTracking, { kind: "untracked" }>,
): HookAnswer {
  const reason = tracking.kind === "tracked" ? "tracked_by_git" : "git_cannot_say";
  if (!recordRefusalOnce(file, input, ctx, reason)) return SILENT;
  if (tracking.kind === "unknown")
    return tell(
      `continuation-loop: git could not say whether ${file.shown} came with the repository (${tracking.why}), so it is not run, and its until, verify and metric commands never are. Expected ${renderLetGitAnswer(file.root, tracking.code)}`,
    );
  return tell(
    `continuation-loop: ${file.shown} is tracked by git, so it came with the repository: it is not run, and its until, verify and metric commands never are. To run it as your own loop: git rm --cached ${file.shown}`,
  );
}

/** A refusal of the loop's file told in one line: what is wrong, where, and what became of the Stop. */
export const refuse = (error: LoopError, what: string) => tell(`continuation-loop: ${error.describe()}. ${what}`);

/**
 * The Claude Code process other than this one that drives this session's loop, when it still runs: the same
 * session resumed in a second terminal (`claude --continue`, `--resume ID`) must not drive the loop too. A
 * background session is left to its own handover (docs/REFERENCE.md "Leave it running").
 */
export function readOtherProcess(runtime: Runtime, env: Context["env"]): string | undefined {
  const ref = runtime.owner_pid;
  if (!ref || readBackgroundJob(env) !== undefined || isSameProcess(ref, readClaudeProcess(env))) return undefined;
  return readProcessRunning(ref) ? pidOf(ref) : undefined;
}

/**
 * The `continuation-loop run` that started this Claude Code, when that run has ended (killed with SIGKILL, say):
 * a Claude Code left behind does not drive the loop alone (docs/REFERENCE.md "continuation-loop run").
 */
export function readRunGone(env: Context["env"]): string | undefined {
  const ref = env.CONTINUATION_LOOP_RUN_PID;
  return ref && !readProcessRunning(ref) ? pidOf(ref) : undefined;
}

/** Says once why a Claude Code whose `run` has ended does not continue the loop, and records it; the loop stays. */
export function noteRunGone(file: LoopFile, input: StopInput, ctx: Context, pid: string): HookAnswer {
  if (!recordRefusalOnce(file, input, ctx, "run_gone", `continuation-loop run ${pid} has ended`)) return SILENT;
  return tell(
    `continuation-loop: the continuation-loop run (pid ${pid}) that started this Claude Code has ended, so it does not continue the loop (${file.shown}); \`continuation-loop run${renderNameFlag(file.name)}\` with no goal takes it over.`,
  );
}

/** Says once per session and process why this Stop does not continue the loop that `pid` drives, and records it. */
export function noteRunningElsewhere(file: LoopFile, input: StopInput, ctx: Context, pid: string): HookAnswer {
  if (!recordRefusalOnce(file, input, ctx, "running_elsewhere", `driven by Claude Code process ${pid}`)) return SILENT;
  return tell(
    `continuation-loop: this session's loop (${file.shown}) runs in another Claude Code process (pid ${pid}), so this one does not continue it. /loop-resume here takes it over.`,
  );
}

/**
 * The session's loop ended without it: stopped from another session or terminal (a tombstone in
 * the sidecar), or its file was deleted (by the person, or a tool call). Told once, then forgotten.
 */
export function reportEnded(file: LoopFile, input: StopInput, ctx: Context): HookAnswer {
  const ended = readTombstone(file.sidecarPath);
  removeSidecar(file.sidecarPath);
  if (ended) {
    const by = ended.by === "a terminal" ? "a terminal" : `session ${ended.by}`;
    return tell(`continuation-loop: your loop (${file.shown}) was stopped from ${by}; Claude may stop.`);
  }
  // Its end keeps the goal and fields of its first record, as every end does, so that it can be started again.
  const { start, iteration } = readLoopStart(file.historyPath, file.shown);
  tryAppendHistory(file.historyPath, {
    time: new Date(ctx.now()).toISOString(),
    state_file: file.shown,
    session: input.session_id,
    ...(iteration !== undefined && { iteration }),
    decision: "end",
    reason: "vanished",
    ...(start && { goal: start.goal, fields: start.fields }),
  });
  // A person deleting the file ends the loop as the docs say; a tool call may have done it too: neither is blamed.
  return tell(
    `continuation-loop: ${file.shown} was deleted, so the loop ended (recorded as vanished; /loop-stop records it as stopped).`,
  );
}

/**
 * Records this iteration's checkpoint: the files it changed and, when it leaves out a large untracked file it did
 * not leave out at the Stop before, the line that says so; or the LoopError that says why it could not. A filter
 * whose program is not installed (git-lfs), or no git program at all, is no reason to stop the loop: it goes on without this checkpoint, and
 * the person is told once (`told`: the sidecar's line of the last time; `skipped`: this Stop's, "" when it kept one).
 */
export function writeStopCheckpoint(
  file: LoopFile,
  iteration: number,
  startedAt: string,
  ctx: Context,
  tree?: string,
  told = "",
): LoopError | { filesChanged?: number; notice?: string; skipped: string } {
  try {
    const written = writeCheckpoint({
      tree,
      startedAt,
      root: file.root,
      loop: file.name,
      env: ctx.env as NodeJS.ProcessEnv,
      iteration,
      now: new Date(ctx.now()),
      exclude: ownFilesOf(file),
    });
    const notice = renderLeftOutNotice(written.newlyLeftOut);
    return { filesChanged: written.filesChanged, ...(notice && { notice }), skipped: "" };
  } catch (error) {
    if (error instanceof LoopError && (error.code === "CHECKPOINT_FILTER_MISSING" || error.code === "GIT_MISSING")) {
      const skipped = `continuation-loop: checkpoints are not kept: ${error.message}. Install it, or set checkpoints: false in ${file.shown}; the loop goes on without them.`;
      return { skipped, ...(skipped !== told && { notice: skipped }) };
    }
    // Another git holds the ref's lock past git's own wait: this iteration goes without its checkpoint, said once.
    if (error instanceof LoopError && error.code === "CHECKPOINT_REF_LOCKED") {
      const skipped = "ref locked";
      const notice = `continuation-loop: iteration ${iteration}'s checkpoint was not kept: ${error.message}. The loop goes on, and the next Stops keep theirs.`;
      return { skipped, ...(skipped !== told && { notice }) };
    }
    // The refusal names the state file whose field asked for the checkpoint, as every field's refusal does.
    if (error instanceof LoopError)
      return new LoopError(error.code, error.message, { file: file.shown, ...error.details });
    return new LoopError(
      "CHECKPOINT_FAILED",
      `the checkpoint failed (${error instanceof Error ? error.message : String(error)})`,
      { file: file.shown, field: "checkpoints" },
    );
  }
}
