import { statSync, unlinkSync } from "node:fs";
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
const tell = (message: string): HookResult => ({
  exitCode: 0,
  stdout: `${JSON.stringify({ systemMessage: message })}\n`,
  stderr: "",
});
const refuse = (error: LoopError, what: string) => tell(`continuation-loop: ${error.describe()}. ${what}`);

function record(
  decision: Extract<StopDecision, { kind: "continue" | "end" }>,
  state: LoopState,
  facts: StopFacts,
  now: number,
  file: string,
): HistoryRecord {
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

const pause = (ms: number) => Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);

/**
 * Does the file change within a moment? Then what failed to parse was an editor's save in progress.
 * An empty file (an editor that truncated and has not written yet) is given longer than 50 ms.
 */
function changesSoon(path: string, bytes: Buffer): boolean {
  try {
    const before = statSync(path, { bigint: true });
    for (let waited = 0; waited < (bytes.length === 0 ? 1_000 : 50); waited += 25) {
      pause(25);
      const after = statSync(path, { bigint: true });
      const again = readStateFile(path);
      // The stat too: a save caught twice at its empty moment has the same bytes, not the same ctime.
      if (
        again.kind !== "found" ||
        !again.bytes.equals(bytes) ||
        after.ino !== before.ino ||
        after.ctimeNs !== before.ctimeNs
      )
        return true;
    }
    return false;
  } catch {
    return true; // gone or replaced meanwhile: the next attempt sees what is there
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
    return tell(
      `continuation-loop: cannot create ${shown}.lock (${code}); this Stop was not counted. Check the folder's permissions.`,
    );
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
        // Mid-save (an editor truncates, then writes): not a verdict on the file; look again.
        if (read?.kind === "found" && changesSoon(statePath, read.bytes)) {
          if (attempt < 2) continue;
          break;
        }
        return refuse(error, "The loop is paused until the file is fixed; it was not changed.");
      }
      // Step 3 (before any I/O on the loop's behalf): another session's loop is not ours.
      if (state.session_id !== undefined && input.session_id !== undefined && state.session_id !== input.session_id)
        return SILENT;
      if (!state.active) return SILENT;

      facts ??= gatherStopFacts(state, {
        input,
        root,
        env: ctx.env,
        home: ctx.home,
        ownFiles: [statePath, resolveHistoryPath(statePath)],
      });
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
      let next: string | undefined;
      try {
        next = decision.kind === "continue" ? editFrontmatter(read.text, decision.updates, shown) : undefined;
      } catch (error) {
        if (!(error instanceof LoopError)) throw error;
        return refuse(error, "The loop did not continue; the file was not changed.");
      }
      // Commit only if the file is still what we decided on, checked at the last moment (after the
      // new text is written and synced, just before the rename): a user edit is re-read, never lost.
      let gone = false;
      const unchanged = () => {
        try {
          const before = statSync(statePath, { bigint: true });
          const current = readStateFile(statePath, shown);
          if (current.kind !== "found" || !current.bytes.equals(read.bytes)) return false;
          // A last look right before the rename: the same file, untouched since it was compared.
          const after = statSync(statePath, { bigint: true });
          return after.ino === before.ino && after.size === before.size && after.ctimeNs === before.ctimeNs;
        } catch (error) {
          gone = (error as NodeJS.ErrnoException).code === "ENOENT";
          return false; // changed, gone or unreadable: the next attempt says which
        }
      };

      const history = resolveHistoryPath(statePath);
      try {
        const saved = next === undefined ? unchanged() : writeFileAtomic(statePath, next, unchanged);
        if (saved && next === undefined) unlinkSync(statePath);
        if (gone) return SILENT; // stopped by the user meanwhile
        if (!saved) continue;
      } catch (error) {
        const code = (error as NodeJS.ErrnoException).code ?? "error";
        return tell(
          `continuation-loop: ${shown} could not be saved (${code}); the loop did not continue. Check the folder's permissions.`,
        );
      }
      try {
        appendHistory(history, record(decision, state, facts, now, shown));
      } catch {
        // History is a record, not the loop: a full disk or read-only folder must not block it.
      }
      if (decision.kind === "end") return tell(renderEndMessage(state, decision, now));
      return {
        exitCode: 2,
        stdout: "",
        stderr: renderContinuation(state, decision, now, {
          ...(notes && { notes }),
          ...(facts.unfinishedTodos && { unfinishedTodos: facts.unfinishedTodos }),
        }),
      };
    }
    return tell(`continuation-loop: ${shown} kept changing while the hook saved it; this Stop was not counted.`);
  } finally {
    release();
  }
}
