import { needsEvidence, needsTreeState, type StopFacts } from "../core/decideStop.js";
import type { LoopState } from "../core/fields.js";
import type { StopInput } from "../core/hookInput.js";
import type { Env } from "./paths.js";
import { countedBefore, scanTranscriptEnd, tallyLoopUsage, type TranscriptScan } from "./readTranscript.js";
import { readTreeState } from "./readTreeState.js";
import { readUnfinishedTodos } from "./readTodos.js";
import { runVerify } from "./runVerify.js";

export interface FactsContext {
  input: StopInput;
  root: string;
  env: Env;
  home: string;
  /** The state and history files: the loop's own changes are not progress. */
  ownFiles: string[];
}

const pause = (ms: number) => Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);

/**
 * Claude Code runs the Stop hook 40–55 ms before the reply's line lands in the transcript.
 * Wait for it (at most 500 ms), so the reply read from the transcript is this turn's, and this turn's
 * output tokens count now (for max_tokens, and for the totals the user is shown at the end).
 */
function scanWithLag(path: string, given: string | undefined, turns: number): TranscriptScan | undefined {
  const landed = (scan: TranscriptScan) =>
    given === undefined
      ? !(scan.reply.complete && !scan.reply.reply)
      : !given.trim() || scan.reply.reply.trimEnd().endsWith(given.trim());
  // A new session's transcript may not exist yet either: that is waited for too.
  let scan = scanTranscriptEnd(path, turns);
  for (let retry = 0; (!scan || !landed(scan)) && retry < 10; retry++) {
    pause(50);
    scan = scanTranscriptEnd(path, turns);
  }
  return scan;
}

/** Everything decideStop needs, gathered lazily: costly evidence only when the state asks for it. */
export function gatherStopFacts(state: LoopState, ctx: FactsContext): StopFacts {
  const { input } = ctx;
  const given = typeof input.last_assistant_message === "string" ? input.last_assistant_message : undefined;
  const rt = state.runtime;
  const path = input.transcript_path;
  // First read of this transcript in the loop: its turns so far, not only the current one.
  const turns =
    path && countedBefore(path, { transcript: rt.transcript, offset: rt.transcript_offset })
      ? 1
      : state.iteration_count;
  const scan = path ? scanWithLag(path, given, turns) : undefined;
  const reply = given ?? scan?.reply.reply ?? "";
  const facts: StopFacts = { sessionId: input.session_id, reply };
  if (scan && path) {
    facts.usage = tallyLoopUsage(path, scan, {
      transcript: rt.transcript,
      offset: rt.transcript_offset,
      total: rt.output_tokens,
      byModel: rt.tokens_by_model,
      lastId: rt.last_message_id,
      lastTokens: rt.last_message_tokens,
    });
  }
  if (needsTreeState(state, reply)) facts.treeState = readTreeState(ctx.root, ctx.ownFiles);
  const need = needsEvidence(state, reply);
  if (need.todos) {
    facts.unfinishedTodos =
      readUnfinishedTodos({
        env: ctx.env,
        home: ctx.home,
        sessionId: input.session_id,
        transcriptPath: input.transcript_path,
      }) ?? [];
  }
  if (need.verify && state.verify) facts.verify = runVerify(state.verify, ctx.root, state.verify_timeout_s, ctx.env);
  return facts;
}
