import { parseChecklist } from "../core/checklist.js";
import { assessReply, type ReplyAssessment } from "../core/assessReply.js";
import type { StopFacts, VerifyResult } from "../core/decideStop.js";
import { decideScopePause } from "../core/decideImprovement.js";
import { LoopError } from "../core/errors.js";
import { MAX_VERIFY_TIMEOUT_S } from "../core/fields.js";
import type { LoopState } from "../core/parseState.js";
import type { StopInput } from "../core/hookInput.js";
import { type LoopFile, ownFilesOf } from "../core/loopFiles.js";
import type { Runtime } from "../core/sidecar.js";
import { fingerprintToolCalls, readAllRefused, readRefusedTools } from "../core/transcript.js";
import {
  countedBefore,
  readTranscriptSize,
  scanTranscriptEnd,
  type TranscriptScan,
  tallyLoopUsage,
} from "../io/readTranscript.js";
import { reachCrashPoint, TRANSCRIPT_WAIT_POINT } from "../io/crashPoint.js";
import { readChecklistText } from "../io/readProjectFiles.js";
import { readTreeState } from "../io/readTreeState.js";
import { readUnfinishedTodos } from "../io/readTodos.js";
import { runVerify } from "../io/runVerify.js";
import { gatherImprovementFacts } from "./gatherImprovement.js";
import { type CommandRuns, runOnce } from "./runOnce.js";
import { readUntrusted } from "./trustStateFile.js";
import { readModuleStop } from "./moduleBridge.js";
import { parseWaitTag, readRunningTasks } from "../core/background.js";
import { readMonotonicMs } from "../io/monotonic.js";
import { waitUntil } from "../io/sleep.js";
import type { Context } from "./context.js";

/** How long a Stop waits for its reply's line to land in the transcript, and how often it looks. */
const LAG_WAIT_MS = 500;
const LAG_POLL_MS = 5;

/**
 * Claude Code may run the Stop hook before the reply's line lands in the transcript
 * (test/e2e/support/README.md). Wait for it (at most 500 ms), so the reply read from the transcript
 * is this turn's, and this turn's output tokens count now. The file's size is looked at every few
 * milliseconds and the end scanned again only when it grew: the line is read as it lands.
 */
function scanWithLag(
  path: string,
  given: string | undefined,
  turns: number,
  firstRead = false,
): TranscriptScan | undefined {
  const landed = (scan: TranscriptScan) =>
    given === undefined
      ? !(scan.reply.complete && !scan.reply.reply)
      : !given.trim() || scan.reply.reply.trimEnd().endsWith(given.trim());
  // A new session's transcript may not exist yet either: that is waited for too.
  let scan = scanTranscriptEnd(path, turns, { firstRead });
  if (scan && landed(scan)) return scan;
  reachCrashPoint(TRANSCRIPT_WAIT_POINT);
  waitUntil(
    () => {
      if (readTranscriptSize(path) !== (scan?.size ?? 0)) scan = scanTranscriptEnd(path, turns, { firstRead });
      return scan !== undefined && landed(scan);
    },
    LAG_WAIT_MS,
    LAG_POLL_MS,
  );
  return scan;
}

/** The loop's checklist, read at every Stop; one without boxes is an invalid field (docs/REFERENCE.md "Checklists"). */
function readChecklist(state: LoopState, file: LoopFile) {
  if (state.checklist === undefined) return undefined;
  const list = parseChecklist(readChecklistText(file.root, state.checklist, file.shown));
  if (list.total > 0) return list;
  throw new LoopError("CHECKLIST_NO_BOXES", "the checklist has no task boxes", {
    file: file.shown,
    field: "checklist",
    expected: `list items with boxes in ${state.checklist}, e.g. "- [ ] Write the tests"`,
  });
}

/**
 * What a Stop decides on: the facts, the reply and what it says; `notice`, a line for the person that the Stop's
 * answer carries when the loop goes on.
 */
export type GatheredFacts = StopFacts & { assessment: ReplyAssessment; reply: string; notice?: string };

/**
 * The reply, its assessment and the evidence it calls for: costly evidence only when needed.
 * Throws LoopError for a checklist that cannot be used.
 */
export function gatherStopFacts(
  state: LoopState,
  runtime: Runtime,
  input: StopInput,
  file: LoopFile,
  ctx: Context,
  runs: CommandRuns,
): GatheredFacts {
  const given = typeof input.last_assistant_message === "string" ? input.last_assistant_message : undefined;
  const path = input.transcript_path;
  const previous = { transcript: runtime.transcript, offset: runtime.transcript_offset };
  // First read of this transcript in the loop: its turns so far, not only the current one.
  const firstRead = !(path && countedBefore(path, previous));
  const turns = firstRead ? state.iteration_count : 1;
  const scan = path ? scanWithLag(path, given, turns, firstRead) : undefined;
  const checklist = readChecklist(state, file);
  // A state file that came with the repository never runs a command (docs/REFERENCE.md "How a loop ends").
  if (state.until !== undefined || state.metric !== undefined) refuseTrackedCommands(state, file);
  // Scope, then the metric and `until`, before the reply is judged: a target reached or `until`
  // passed completes the loop by itself.
  const improvement = gatherImprovementFacts(state, runtime, file, ctx, runs);
  const paused = decideScopePause(state, improvement.facts) !== undefined;
  let spent = improvement.seconds;
  let until: VerifyResult | undefined;
  if (state.until !== undefined && !paused) {
    const started = readMonotonicMs();
    const command = state.until;
    until = runOnce(runs, `until ${command}`, () =>
      runVerify(command, file.root, commandTimeout(state, spent), ctx.env, ctx.packageRoot),
    );
    spent += (readMonotonicMs() - started) / 1000;
  }
  const reply = given ?? scan?.reply.reply ?? "";
  const passed = state.until === undefined || paused ? undefined : until?.exitCode === 0;
  const assessment = assessReply(state, runtime, reply, checklist, improvement.reached, passed);
  const facts: StopFacts & { assessment: ReplyAssessment; reply: string } = {
    assessment,
    reply,
    ...(checklist && { checklist }),
    ...improvement.facts,
    ...(until && { until }),
  };
  const running = readRunningTasks(input.background_tasks);
  if (running.length > 0) facts.background = { running, module: readModuleStop(ctx.env), waitTag: parseWaitTag(reply) };
  if (scan && path) facts.usage = tallyLoopUsage(path, scan, readCounted(runtime), given);
  const refused = scan ? readRefusedTools(scan.turn) : [];
  if (refused.length > 0) facts.refused = refused;
  if (typeof input.permission_mode === "string") facts.permissionMode = input.permission_mode;
  // A turn whose every call Claude Code refused may be one that changed nothing, whatever its reply says.
  if (refused.length > 0 && scan && readAllRefused(scan.turn)) facts.allRefused = true;
  const ownFiles = ownFilesOf(file);
  if (assessment.needsTree || (facts.allRefused && state.stall_limit > 0)) {
    facts.treeState = readTreeState(file.root, ownFiles);
    // Outside git, the calls the turn made are its evidence of change.
    if (facts.treeState === "" && scan) facts.toolCalls = fingerprintToolCalls(scan.turn);
  }
  if (assessment.needsTodos) {
    const todos = readUnfinishedTodos({
      env: ctx.env,
      home: ctx.home,
      sessionId: input.session_id,
      transcriptPath: path,
    });
    facts.unfinishedTodos = todos ?? [];
  }
  if (assessment.needsVerify && state.verify) {
    if (state.until === undefined && state.metric === undefined) refuseTrackedCommands(state, file);
    const command = state.verify;
    facts.verify = runOnce(runs, `verify ${command}`, () =>
      runVerify(command, file.root, commandTimeout(state, spent), ctx.env, ctx.packageRoot),
    );
  }
  return facts;
}

/** Where the loop's count of output tokens stands, as tallyLoopUsage goes on from it. */
const readCounted = (runtime: Runtime) => ({
  transcript: runtime.transcript,
  offset: runtime.transcript_offset,
  total: runtime.output_tokens,
  byModel: runtime.tokens_by_model,
  lastId: runtime.last_message_id,
  lastTokens: runtime.last_message_tokens,
});

/**
 * A Stop of this session's loop while it is paused: the turns since the last count are the person's, not the
 * loop's (docs/REFERENCE.md "Pausing"), so the count moves past them with nothing added. Undefined when it
 * stands where it was.
 */
export function skipPausedTurns(runtime: Runtime, input: StopInput): Runtime | undefined {
  const path = input.transcript_path;
  const given = typeof input.last_assistant_message === "string" ? input.last_assistant_message : undefined;
  const scan = path ? scanWithLag(path, given, 1) : undefined;
  if (!path || !scan) return undefined;
  const passed = tallyLoopUsage(path, scan, readCounted(runtime));
  if (passed.transcript === runtime.transcript && passed.offset === runtime.transcript_offset) return undefined;
  return {
    ...runtime,
    transcript: passed.transcript,
    transcript_offset: passed.offset,
    last_message_id: passed.lastId,
    last_message_tokens: passed.lastTokens,
  };
}

/** What the commands before took comes off the next one's limit, so all fit inside the Stop hook's own timeout. */
const commandTimeout = (state: LoopState, spent: number) =>
  Math.max(1, Math.min(state.verify_timeout, MAX_VERIFY_TIMEOUT_S - spent));

/** A state file tracked by git (committed or staged), or one git cannot answer for, runs no `until`, `metric` or `verify` (docs/REFERENCE.md "How a loop ends"). */
function refuseTrackedCommands(state: LoopState, file: LoopFile): void {
  const field = state.until !== undefined ? "until" : state.metric !== undefined ? "metric" : "verify";
  const untrusted = readUntrusted(file, "its commands are never run", field);
  if (untrusted) throw untrusted;
}
