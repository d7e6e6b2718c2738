import { mkdirSync } from "node:fs";
import { dirname } from "node:path";
import { composeStateFile } from "../core/composeState.js";
import { LoopError } from "../core/errors.js";
import type { LoopState } from "../core/fields.js";
import type { StartRequest } from "../core/parseStartArgs.js";
import { parseState } from "../core/parseState.js";
import { renderStartContext, renderStartSummary } from "../core/renderStart.js";
import { acquireLock } from "../io/lock.js";
import type { Env } from "../io/paths.js";
import { readStateFile } from "../io/readStateFile.js";
import { writeFileAtomic } from "../io/writeStateFile.js";
import type { LoopLocation } from "./locate.js";
import { recordStopped } from "./stop.js";
import { readTemplate } from "./templates.js";

/** The same start arriving twice within this window (two registrations of the hook) is one start. */
const TWIN_WINDOW_MS = 30_000;

export interface StartOptions {
  where: LoopLocation;
  env: Env;
  sessionId: string | undefined;
  now: number;
  packageRoot: string;
}

export interface StartOutcome {
  state: LoopState;
  /** For Claude: begin, the goal, the promise and the limits. */
  context: string;
  /** For the user: one line. */
  summary: string;
}

/** Is the file on disk this very start, written a moment ago by a twin hook? */
function isTwin(existing: string, created: string, now: number): boolean {
  try {
    const old = parseState(existing);
    const fresh = parseState(created);
    const age = now - Date.parse(old.started_at ?? "");
    return (
      old.session_id !== undefined &&
      old.session_id === fresh.session_id &&
      old.iteration_count === 1 &&
      old.body === fresh.body &&
      age >= 0 &&
      age < TWIN_WINDOW_MS
    );
  } catch {
    return false;
  }
}

/** Records the loop that --force replaces, so its goal is not lost. */
function recordReplaced(where: LoopLocation, text: string, now: number, sessionId: string | undefined): void {
  let state: LoopState | undefined;
  try {
    state = parseState(text, where.shown);
  } catch {
    state = undefined;
  }
  recordStopped(where, state, state?.body ?? text, now, sessionId);
}

/** Creates the state file for a new loop, bound to the session; never replaces a loop silently. */
export function startLoop(request: StartRequest, opts: StartOptions): StartOutcome {
  const { where, now } = opts;
  const template = request.template ? readTemplate(request.template, where.root, opts.packageRoot) : undefined;
  const text = composeStateFile({ request, template, sessionId: opts.sessionId, now });
  const state = parseState(text, where.shown);
  const outcome = {
    state,
    context: renderStartContext(state, where.shown, now),
    summary: renderStartSummary(state, where.shown),
  };

  mkdirSync(dirname(where.statePath), { recursive: true });
  const release = acquireLock(where.statePath);
  if (!release)
    throw new LoopError("LOOP_LOCKED", "the state file is locked by a running hook", {
      file: `${where.shown}.lock`,
      expected: "the lock to be released; try again in a moment",
    });
  try {
    const existing = readStateFile(where.statePath, where.shown);
    if (existing.kind === "found") {
      if (isTwin(existing.text, text, now)) return outcome;
      if (!request.force) throw runningError(existing.text, where.shown);
      recordReplaced(where, existing.text, now, opts.sessionId);
    }
    writeFileAtomic(where.statePath, text);
  } finally {
    release();
  }
  return outcome;
}

function runningError(text: string, shown: string): LoopError {
  let what = "a loop already exists";
  try {
    const old = parseState(text, shown);
    const owner = old.session_id ? `session ${old.session_id}` : "no session yet";
    what = `a loop is already ${old.active ? "running" : "paused"} (iteration ${old.iteration_count}/${old.max_iterations}, ${owner})`;
  } catch {
    what = "a state file already exists (and is not valid)";
  }
  return new LoopError("LOOP_RUNNING", what, { file: shown, expected: "/loop-stop first, or --force to replace it" });
}
