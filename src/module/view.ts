// This session's loop, kept in memory for the band: its view (src/core/loopView.ts), read on events at most
// once a second; the loop's end told as a toast. The Stop hook keeps the view beside the loop's files; when
// those changed since (a hand edit, /loop-start, /loop-pause …), the helper makes one, once per change.
// Every `$` call spelled `$.noun.verb(…)` (see index.ts).
import { parseStateFileName, renderLoopPaths } from "../core/loopFileNames.js";
import { keyOfTexts, type LoopView, parseLoopView } from "../core/loopView.js";
import type { Engine } from "./engine.js";
import { noteNodeOutput, noteNodeThrow } from "./nodeProblem.js";
import { mod } from "./state.js";

/** A loop's files as the module reads them: `/`-joined paths under the project's `.claude/`. */
type ModuleLoopFiles = ReturnType<typeof renderLoopPaths> & { name: string };

/** Views the helper made, by the texts they were made from: one run per distinct pair of texts. */
const made = new Map<string, LoopView | undefined>();
/** Enough for the last few edits; the oldest goes first. */
const MADE_KEPT = 16;
/** The helper run in flight, if any: one at a time, and a read that needs another waits for it. */
let inFlight: Promise<LoopView | undefined | "failed"> | undefined;

/** Once a second while a loop is shown: its elapsed time moves, and an edit, pause or stop shows. */
export function redraw($: Engine): void {
  if (!mod.ready || !mod.view) return;
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
 * `continuation-loop view` for one loop: the view of its files as they are when it runs; undefined when
 * the helper refused them (a verdict on those texts); "failed" when the run itself failed (not started,
 * timed out, killed, no view printed), which says nothing of the files: a later read asks again.
 */
async function runViewHelper($: Engine, files: ModuleLoopFiles): Promise<LoopView | undefined | "failed"> {
  // No usable node: never started again this session (what the module knew stands).
  if (mod.nodeProblem !== undefined) return "failed";
  try {
    const run = await $.process.run(["node", `${$.plugin.root}/hooks/cli.js`, "view", "--name", files.name], {
      cwd: mod.root,
      env: { CLAUDE_PROJECT_DIR: mod.root },
      timeoutMs: 10_000,
    });
    noteNodeOutput(run.stderr);
    if (mod.nodeProblem !== undefined) return "failed";
    if (run.exitCode === REFUSED) return undefined;
    return (run.exitCode === 0 && parseLoopView(run.stdout)) || "failed";
  } catch (error) {
    noteNodeThrow(error);
    return "failed";
  }
}

/**
 * The view of a loop whose state file reads `text`: the Stop hook's when it was made from the files as
 * they are, else one the helper made (`continuation-loop view`), else undefined (the band shows nothing
 * rather than something wrong), or "failed" when the helper could not run. Never a stale one: while another
 * helper run is in flight, it waits for it.
 */
async function readView($: Engine, files: ModuleLoopFiles, text: string): Promise<LoopView | undefined | "failed"> {
  const sidecar = await readText($, files.sidecarPath);
  const key = keyOfTexts(text, sidecar);
  const kept = await readText($, files.viewPath);
  const view = kept === undefined ? undefined : parseLoopView(kept);
  if (view && keyOfTexts(view.state_text, view.sidecar_text) === key) return view;
  while (inFlight) await inFlight;
  if (made.has(key)) return made.get(key);
  const run = runViewHelper($, files);
  inFlight = run;
  let fresh: LoopView | undefined | "failed";
  try {
    fresh = await run;
  } finally {
    inFlight = undefined;
  }
  if (fresh === "failed") return fresh;
  // Kept under the texts read here and those it was made from (the files may have moved on since).
  made.set(key, fresh);
  if (fresh) made.set(keyOfTexts(fresh.state_text, fresh.sidecar_text), fresh);
  for (const old of made.keys()) if (made.size > MADE_KEPT) made.delete(old);
  return fresh;
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
  const before = mod.view;
  mod.sessionId = await $.session.id();
  const dir = `${mod.root}/.claude`;
  const entries = await $.fs.list(dir).catch(() => []);
  let found: LoopView | undefined;
  for (const entry of entries) {
    const name = parseStateFileName(entry.name);
    if (name === undefined) continue;
    const files = { name, ...renderLoopPaths(`${dir}/`, name) };
    const text = await readText($, files.statePath);
    if (text === undefined || !text.includes(mod.sessionId)) continue;
    const view = await readView($, files, text);
    // The helper could not run: what the module knew stands (the band, a wait's check) until a later read.
    if (view === "failed") return;
    if (!view || view.state.session_id !== mod.sessionId) continue;
    found = view;
    break;
  }
  mod.view = found;
  if (before && !found) await tellEnd($, before);
  $.ui.invalidate("ui.render");
}

/** The loop's end: a toast with the history's last word on it (the Stop hook already wrote the line and rang). */
async function tellEnd($: Engine, ended: LoopView): Promise<void> {
  const path = `${mod.root}/.claude/continuation-loop.history.jsonl`;
  let reason = "ended";
  try {
    const { size } = await $.fs.stat(path);
    const tail = await $.fs.read(path, { offset: Math.max(0, size - 8192), length: 8192 });
    const last = JSON.parse(tail.trim().split("\n").pop() ?? "{}") as { decision?: string; reason?: string };
    if (last.decision === "end" && last.reason) reason = last.reason;
  } catch {
    // the toast says "ended" only
  }
  const name = ended.name === "default" ? "" : ` ${ended.name}`;
  $.ui.toast(`continuation-loop: loop${name} ${reason}`);
}
