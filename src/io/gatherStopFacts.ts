import { needsEvidence, type StopFacts } from "../core/decideStop.js";
import type { LoopState } from "../core/fields.js";
import type { StopInput } from "../core/hookInput.js";
import type { Env } from "./paths.js";
import { scanTranscriptEnd, tallyLoopUsage, type TranscriptScan } from "./readTranscript.js";
import { readTreeState } from "./readTreeState.js";
import { readUnfinishedTodos } from "./readTodos.js";
import { runVerify } from "./runVerify.js";

export interface FactsContext {
  input: StopInput;
  root: string;
  env: Env;
  home: string;
}

const pause = (ms: number) => Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);

/** The transcript's end; when its last entry is still the user's, the reply may not be flushed yet. */
function scanWithLag(path: string, needReply: boolean): TranscriptScan | undefined {
  let scan = scanTranscriptEnd(path);
  for (let retry = 0; needReply && scan && scan.reply.complete && !scan.reply.reply && retry < 3; retry++) {
    pause(60);
    scan = scanTranscriptEnd(path);
  }
  return scan;
}

/** Everything decideStop needs, gathered lazily: costly evidence only when the state asks for it. */
export function gatherStopFacts(state: LoopState, ctx: FactsContext): StopFacts {
  const { input } = ctx;
  const given = typeof input.last_assistant_message === "string" ? input.last_assistant_message : undefined;
  const scan = input.transcript_path ? scanWithLag(input.transcript_path, given === undefined) : undefined;
  const reply = given ?? scan?.reply.reply ?? "";
  const facts: StopFacts = { sessionId: input.session_id, reply };
  if (scan && input.transcript_path) {
    const rt = state.runtime;
    facts.usage = tallyLoopUsage(input.transcript_path, scan, {
      transcript: rt.transcript,
      offset: rt.transcript_offset,
      total: rt.output_tokens,
      byModel: rt.tokens_by_model,
      lastId: rt.last_message_id,
      lastTokens: rt.last_message_tokens,
    });
  }
  if (state.stall_limit > 0) facts.treeState = readTreeState(ctx.root);
  const need = needsEvidence(state, reply);
  if (need.todos) {
    facts.unfinishedTodos = readUnfinishedTodos({ env: ctx.env, home: ctx.home, sessionId: input.session_id, transcriptPath: input.transcript_path }) ?? [];
  }
  if (need.verify && state.verify) facts.verify = runVerify(state.verify, ctx.root, state.verify_timeout_s, ctx.env);
  return facts;
}
