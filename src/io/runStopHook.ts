import { unlinkSync } from "node:fs";
import { decideStop, type StopDecision, type StopFacts } from "../core/decideStop.js";
import { editFrontmatter } from "../core/editFrontmatter.js";
import { LoopError } from "../core/errors.js";
import type { LoopState } from "../core/fields.js";
import { parseHookInput, stopInputSchema, type StopInput } from "../core/hookInput.js";
import { parseState } from "../core/parseState.js";
import { renderContinuation, renderEndMessage, renderLimits } from "../core/renderStop.js";
import { appendHistory, type HistoryRecord } from "./appendHistory.js";
import { gatherStopFacts } from "./gatherStopFacts.js";
import { acquireLock } from "./lock.js";
import { displayPath, resolveHistoryPath, resolveProjectRoot, resolveStatePath, type Env } from "./paths.js";
import { readNotes } from "./readNotes.js";
import { readStateFile } from "./readStateFile.js";
import { writeFileAtomic } from "./writeStateFile.js";

export interface HookContext {
  stdin: string;
  env: Env;
  cwd: string;
  home: string;
  now: () => number;
}

export interface HookResult {
  exitCode: 0 | 2;
  stdout: string;
  stderr: string;
}

const SILENT: HookResult = { exitCode: 0, stdout: "", stderr: "" };
const tell = (message: string): HookResult => ({ exitCode: 0, stdout: `${JSON.stringify({ systemMessage: message })}\n`, stderr: "" });
const refuse = (error: LoopError, what: string) => tell(`continuation-loop: ${error.describe()}. ${what}`);

function record(decision: Extract<StopDecision, { kind: "continue" | "end" }>, state: LoopState, facts: StopFacts, now: number, file: string): HistoryRecord {
  const ended = decision.kind === "end";
  return {
    time: new Date(now).toISOString(),
    session: facts.sessionId ?? state.session_id,
    iteration: decision.iteration,
    decision: decision.kind,
    reason: ended ? decision.reason : "continue",
    output_tokens: decision.runtime.output_tokens,
    tokens_by_model: decision.runtime.tokens_by_model,
    limits: renderLimits(state, decision.runtime, ended ? decision.iteration : decision.next, now),
    ...(ended && decision.promise && { promise: decision.promise }),
    ...(decision.refusal && { refusal: decision.refusal }),
    ...(ended && { goal: state.body, state_file: file }),
  };
}

/** Is there a state file? One that cannot be read or is too big counts too: the main path says what is wrong. */
function statePresent(path: string): boolean {
  try {
    return readStateFile(path).kind !== "missing";
  } catch {
    return true;
  }
}

/** The Stop hook, SPEC §3: input → state → decision → save, history, and the hook's answer. */
export function runStopHook(ctx: HookContext): HookResult {
  // Step 1: input. Bad stdin never blocks; the user hears of it only when a loop exists.
  let input: StopInput;
  try {
    input = parseHookInput(ctx.stdin, stopInputSchema);
  } catch (error) {
    if (!(error instanceof LoopError)) throw error;
    const path = resolveStatePath(resolveProjectRoot(ctx.env, undefined, ctx.cwd), ctx.env);
    return statePresent(path) ? refuse(error, "The loop did not continue.") : SILENT;
  }
  const root = resolveProjectRoot(ctx.env, input.cwd, ctx.cwd);
  const statePath = resolveStatePath(root, ctx.env);
  const shown = displayPath(statePath, root);

  if (!statePresent(statePath)) return SILENT;
  let release: (() => void) | undefined;
  try {
    release = acquireLock(statePath);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? "error";
    return tell(`continuation-loop: cannot create ${shown}.lock (${code}); this Stop was not counted. Check the folder's permissions.`);
  }
  if (!release) return tell(`continuation-loop: ${shown} is locked by another hook; this Stop was not counted.`);
  try {
    let facts: StopFacts | undefined;
    // Optimistic: a user edit landing while we decide is re-read and decided again.
    for (let attempt = 0; attempt < 3; attempt++) {
      // Step 2: read and validate; a file we cannot understand is never touched.
      let read;
      let state: LoopState;
      try {
        read = readStateFile(statePath, shown);
        if (read.kind === "missing") return SILENT;
        state = parseState(read.text, shown);
      } catch (error) {
        if (!(error instanceof LoopError)) throw error;
        return refuse(error, "The loop is paused until the file is fixed; it was not changed.");
      }
      // Step 3 (before any I/O on the loop's behalf): another session's loop is not ours.
      if (state.session_id !== undefined && input.session_id !== undefined && state.session_id !== input.session_id) return SILENT;
      if (!state.active) return SILENT;

      facts ??= gatherStopFacts(state, { input, root, env: ctx.env, home: ctx.home });
      const now = ctx.now();
      const decision = decideStop(state, facts, now);
      if (decision.kind === "ignore") return SILENT;

      let notes: { path: string; text: string } | undefined;
      if (decision.kind === "continue" && state.notes_file) {
        try {
          notes = readNotes(root, state.notes_file, shown);
        } catch (error) {
          if (!(error instanceof LoopError)) throw error;
          return refuse(error, "The loop is paused until the field is fixed; the file was not changed.");
        }
      }
      const next = decision.kind === "continue" ? editFrontmatter(read.text, decision.updates, shown) : undefined;
      // Commit only if the file is still what we decided on, checked at the last moment (after the
      // new text is written and synced, just before the rename): a user edit is re-read, never lost.
      let gone = false;
      const unchanged = () => {
        try {
          const current = readStateFile(statePath, shown);
          gone = current.kind === "missing";
          return current.kind === "found" && current.bytes.equals(read.bytes);
        } catch {
          return false; // unreadable now: the next attempt says why
        }
      };

      const history = resolveHistoryPath(statePath);
      try {
        const saved = next === undefined ? unchanged() && (unlinkSync(statePath), true) : writeFileAtomic(statePath, next, unchanged);
        if (gone) return SILENT; // stopped by the user meanwhile
        if (!saved) continue;
      } catch (error) {
        const code = (error as NodeJS.ErrnoException).code ?? "error";
        return tell(`continuation-loop: ${shown} could not be saved (${code}); the loop did not continue. Check the folder's permissions.`);
      }
      try {
        appendHistory(history, record(decision, state, facts, now, shown));
      } catch {
        // History is a record, not the loop: a full disk or read-only folder must not block it.
      }
      if (decision.kind === "end") return tell(renderEndMessage(state, decision, now));
      return { exitCode: 2, stdout: "", stderr: renderContinuation(state, decision, now, { ...(notes && { notes }), ...(facts.unfinishedTodos && { unfinishedTodos: facts.unfinishedTodos }) }) };
    }
    return tell(`continuation-loop: ${shown} kept changing while the hook saved it; this Stop was not counted.`);
  } finally {
    release();
  }
}
