// This session's loop, read from its files on events (at most once a second) and kept in memory for the
// band; the loop's end told as a toast. Every `$` call spelled `$.noun.verb(…)` (see index.ts).
import { loopFileAt, parseStateFileName } from "../core/loopFiles.js";
import { readLoopView, type LoopView } from "./band.js";
import type { Engine } from "./engine.js";
import { mod } from "./state.js";

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
    const files = loopFileAt(mod.root, name);
    const text = await readText($, files.statePath);
    if (text === undefined || !text.includes(mod.sessionId)) continue;
    const sidecar = await readText($, files.sidecarPath);
    const first = readLoopView(name, text, sidecar);
    if (!first || first.state.session_id !== mod.sessionId) continue;
    const list = first.state.checklist ? await readText($, `${mod.root}/${first.state.checklist}`) : undefined;
    found = list === undefined ? first : (readLoopView(name, text, sidecar, list) ?? first);
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
