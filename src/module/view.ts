// This session's loop, kept in memory for the band: the view the hooks keep in its sidecar (src/core/sidecar.ts),
// read on events at most once a second; the loop's end told as a toast. Every writer saves the sidecar with the
// state file's text it committed; when the state file was edited since (by hand), the helper reads it, once per
// text; a read inside a commit keeps what it knew. Every `$` call spelled `$.noun.verb(…)` (see index.ts).
import { type HistoryRecord, parseHistoryLine } from "../core/history.js";
import {
  EDITOR_SAVE_MS,
  HISTORY_FILE_NAME,
  LOCK_STALE_MS,
  parseStateFileName,
  renderLockPath,
  renderLoopPaths,
  STATE_DIR,
} from "../core/loopFileNames.js";
import { digestOf, type LoopView, readSidecarView } from "../core/sidecar.js";
import type { Engine } from "./engine.js";
import { noteNodeOutput, noteNodeThrow } from "./nodeProblem.js";
import { mod, type ShownLoop } from "./state.js";
import { endsFrontmatter } from "../core/ownerHint.js";

/** Views the helper made, by the digest of the state file's text they were made from: one run per text. */
const made = new Map<string, LoopView | undefined>();
/** Enough for the last few edits; the oldest goes first. */
const MADE_KEPT = 16;
/** What the helper made: the view and its text's digest, undefined when it refused the files, or "failed". */
type HelperView = { digest: string; view: LoopView } | undefined | "failed";
/** The helper run in flight, if any: one at a time, and a read that needs another waits for it. */
let inFlight: Promise<HelperView> | undefined;
/** Reads started so far: a read keeps what it found only if no later one started meanwhile. */
let started = 0;

/** Once a second while a loop is shown: its elapsed time moves, and an edit, pause, fix or stop shows. */
export function redraw($: Engine): void {
  if (!mod.ready || (!mod.view && mod.invalid === undefined)) return;
  refreshView($)
    .catch(() => undefined)
    .then(() => $.ui.invalidate("ui.render"));
}

async function readText($: Engine, path: string): Promise<string | undefined> {
  try {
    return await $.fs.read(path);
  } catch {
    return undefined;
  }
}

/** The helper's exit status when it refuses the loop's files (missing, not a valid state file). */
const REFUSED = 1;

/**
 * `continuation-loop view` for one loop: the sidecar the hooks would save for its files as they are when it
 * runs; undefined when the helper refused them (a verdict on those texts); "failed" when the run itself
 * failed (not started, timed out, killed, nothing printed), which says nothing of the files: a later read
 * asks again.
 */
async function runViewHelper($: Engine, name: string): Promise<HelperView> {
  // No usable node: never started again this session (what the module knew stands).
  if (mod.nodeProblem !== undefined) return "failed";
  try {
    const run = await $.process.run(["node", `${$.plugin.root}/hooks/cli.js`, "view", "--name", name], {
      cwd: mod.root,
      env: { CLAUDE_PROJECT_DIR: mod.root },
      timeoutMs: 10_000,
    });
    noteNodeOutput(run.stderr);
    if (mod.nodeProblem !== undefined) return "failed";
    if (run.exitCode === REFUSED) return undefined;
    return (run.exitCode === 0 && readSidecarView(run.stdout)) || "failed";
  } catch (error) {
    noteNodeThrow(error);
    return "failed";
  }
}

/**
 * The view of a loop whose state file reads `text`: the sidecar's when it was saved with that text, else one
 * the helper made, else undefined (the band shows nothing rather than something wrong), or "failed" when the
 * helper could not run. Never a stale one: while another helper run is in flight, it waits for it.
 */
async function readView($: Engine, name: string, statePath: string, sidecarPath: string, text: string) {
  const digest = digestOf(text);
  const sidecar = await readText($, sidecarPath);
  const kept = sidecar === undefined ? undefined : readSidecarView(sidecar);
  if (kept?.digest === digest) return kept.view;
  // A writer between the state file's rename and its sidecar's, both under the lock: the sidecar is due, so what
  // the module knew stands until the next read, rather than a helper run for a commit caught in the middle.
  if (await readLockHeld($, statePath)) return "failed";
  while (inFlight) await inFlight;
  if (made.has(digest)) return made.get(digest);
  const run = runViewHelper($, name);
  inFlight = run;
  let fresh: HelperView;
  try {
    fresh = await run;
  } finally {
    inFlight = undefined;
  }
  if (fresh === "failed") return fresh;
  // Kept under the text read here and the one it was made from (the file may have moved on since).
  made.set(digest, fresh?.view);
  if (fresh) made.set(fresh.digest, fresh.view);
  for (const old of made.keys()) if (made.size > MADE_KEPT) made.delete(old);
  return fresh?.view;
}

/** Does a writer hold the state file's lock (`<state file>.lock`, not yet stale)? */
async function readLockHeld($: Engine, statePath: string): Promise<boolean> {
  try {
    const { mtimeMs } = await $.fs.stat(renderLockPath(statePath));
    return Date.now() - mtimeMs < LOCK_STALE_MS;
  } catch {
    return false;
  }
}

/** How soon a read that caught an editor's save looks again. */
const SAVE_REREAD_MS = 250;

/**
 * Is the loop `name`'s state file missing, empty or cut inside its frontmatter (an editor's first write) while
 * its sidecar is still there? The hooks remove the sidecar with the file when a loop ends; an editor's save
 * leaves it (docs/REFERENCE.md "Steering a running loop").
 */
async function readMidSave($: Engine, dir: string, name: string): Promise<boolean> {
  const { statePath, sidecarPath } = renderLoopPaths(`${dir}/`, name);
  const text = await readText($, statePath);
  if (text !== undefined && text.trim() !== "" && endsFrontmatter(text)) return false;
  return (await readText($, sidecarPath)) !== undefined;
}

/**
 * Reads this session's loop from its files, at most once a second unless `force` (an event that asks
 * sooner is answered when the second is up); tells the loop's end.
 */
export async function refreshView($: Engine, force = false): Promise<void> {
  const now = Date.now();
  if (!force && now - mod.lastRead < 1000) {
    if (!mod.deferred) {
      mod.deferred = true;
      $.clock.after(1000 - (now - mod.lastRead), () => refreshView($).catch(() => undefined));
    }
    return;
  }
  mod.deferred = false;
  mod.lastRead = now;
  const read = ++started;
  const before = mod.view?.name ?? mod.invalid;
  mod.sessionId = await $.session.id();
  const dir = `${mod.root}/.claude`;
  const entries = await $.fs.list(dir).catch(() => []);
  let found: ShownLoop | undefined;
  let invalid: string | undefined;
  const listed = new Set(entries.map((entry) => entry.name));
  for (const entry of entries) {
    const name = parseStateFileName(entry.name, listed);
    if (name === undefined) continue;
    const { statePath, sidecarPath } = renderLoopPaths(`${dir}/`, name);
    const text = await readText($, statePath);
    if (text === undefined || !text.includes(mod.sessionId)) continue;
    const view = await readView($, name, statePath, sidecarPath, text);
    // The helper could not run: what the module knew stands (the band, a wait's check) until a later read.
    if (view === "failed") return;
    // Refused, and still the text read above: this session's state file, which a hand edit broke.
    if (!view && (await readText($, statePath)) === text) invalid ??= name;
    if (!view || view.state.session_id !== mod.sessionId) continue;
    found = { ...view, name };
    break;
  }
  // A read held up on a loaded machine never brings back a loop that a later read found changed or gone.
  if (read !== started) return;
  // An editor's save caught between moving the old file away (or emptying it) and writing all of the new one: the
  // loop goes on. Read again shortly; an end is told only once the file stays away past a save's time.
  if (!found && invalid === undefined && mod.view && (await readMidSave($, dir, mod.view.name))) {
    mod.savingSince ??= now;
    if (now - mod.savingSince < EDITOR_SAVE_MS) {
      $.clock.after(SAVE_REREAD_MS, () => refreshView($, true).catch(() => undefined));
      return;
    }
  }
  mod.savingSince = undefined;
  mod.view = found;
  mod.invalid = found ? undefined : invalid;
  // A loop whose file is invalid has not ended: the Stop hook lets Claude stop until the file is fixed.
  if (before !== undefined && !found && mod.invalid === undefined) await tellEnd($, before);
  $.ui.invalidate("ui.render");
}

/** The last whole record of the history's tail `tail` that is of the state file `stateFile`. */
function readLastRecordOf(tail: string, stateFile: string): HistoryRecord | undefined {
  // The tail's first line may be cut: it parses as no record.
  for (const line of tail.trim().split("\n").reverse()) {
    const record = parseHistoryLine(line);
    if (record?.state_file === stateFile) return record;
  }
  return undefined;
}

/** The loop's end: a toast with the history's last word on it (the Stop hook already wrote the line and rang). */
async function tellEnd($: Engine, ended: string): Promise<void> {
  const path = `${mod.root}/${STATE_DIR}/${HISTORY_FILE_NAME}`;
  let reason = "ended";
  try {
    const { size } = await $.fs.stat(path);
    const tail = await $.fs.read(path, { offset: Math.max(0, size - 8192), length: 8192 });
    // The history is the project's: another session's loop may have written after this one's end.
    const last = readLastRecordOf(tail, renderLoopPaths(`${STATE_DIR}/`, ended).statePath);
    if (last?.decision === "end" && last.reason) reason = last.reason;
    // `/loop-resume --force` in another session: the loop goes on there.
    if (last?.decision === "resume" && last.session && last.session !== mod.sessionId)
      reason = `taken over by session ${last.session.slice(0, 8)}`;
  } catch {
    // the toast says "ended" only
  }
  const name = ended === "default" ? "" : ` ${ended}`;
  $.ui.toast(`continuation-loop: loop${name} ${reason}`);
}
