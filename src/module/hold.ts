// Waiting for background work (docs/REFERENCE.md "Background work"): a Stop that holds the loop while
// background tasks run keeps the hold in the sidecar (its view included); the module keeps a timer to the
// moment `background_wait` (or, sooner, `max_duration`) passes and then, when the session is idle and the loop still waits, sends the
// prompt the hooks' words make, so that a task that never ends (a server, a watcher) never stalls the
// loop. A turn that starts meanwhile (the task's notification, a person) ends in a Stop that decides
// again. Every `$` call spelled `$.noun.verb(…)` (see index.ts).
import { readHoldSince, readWakeAt } from "../core/background.js";
import { readTimeUpAt, readWaitEnd } from "../core/duration.js";
import { renderBackgroundWakePrompt } from "../core/renderWake.js";
import type { Engine } from "./engine.js";
import { mod } from "./state.js";
import { refreshView } from "./view.js";
import { armTimer, fireIfDue, type Timed } from "./wallTimer.js";

/** The timer kept for the hold: which hold and wake time it is for, and the timer. */
interface Kept extends Timed {
  key: string;
}
let kept: Kept | undefined;
/** The last hold the module woke the session for: never woken twice (its Stop is still to come). */
let woken: string | undefined;

/** The hold the loop's view holds that the module wakes, and when; undefined when there is none to wake. */
function readHold(): { key: string; at: number; since: number } | undefined {
  const view = mod.view;
  const hold = view?.runtime.background_hold;
  const bound = view?.state.background_wait ?? 0;
  if (!view || !hold || hold.route !== "module" || bound <= 0 || !view.state.active) return undefined;
  if (view.runtime.pause?.reason === "question") return undefined;
  // Esc in the turn after the hold: the person stopped the loop, whose next prompt pauses it; nothing wakes it.
  if (hold.since === mod.interruptedHold) return undefined;
  // Time holds while the loop waits: once `max_duration` has passed (a second on, so that the hook's clock
  // finds it passed) the prompt ends the loop with no turn, as the hook refuses it.
  const at = Math.min(readWakeAt(hold, bound), readTimeUpAt(view.state) + 1000);
  return Number.isFinite(at) ? { key: `${hold.since} ${at}`, at, since: readHoldSince(hold) } : undefined;
}

/** Drops the timer; `why` is told in one line when given. */
function dropHold($: Engine, why?: string): void {
  const dropped = kept;
  if (!dropped) return;
  kept = undefined;
  dropped.timer?.cancel();
  if (why) $.ui.log(`the wait for background work is cancelled: ${why}.`);
}

/**
 * After a Stop, at a turn's end and once a second: the timer follows the hold of the loop's view. Armed
 * only between turns; a loop stopped or paused meanwhile cancels it, told in one line.
 */
export function followHold($: Engine): void {
  // A state file a hand edit broke stops nothing: the timer stands until it is fixed.
  if (mod.invalid !== undefined) return;
  const hold = readHold();
  if (!hold) {
    const view = mod.view;
    dropHold($, !view ? "the loop was stopped" : !view.state.active ? "the loop was paused" : undefined);
    return;
  }
  if (woken === hold.key || mod.turnId !== undefined) return;
  if (kept?.key === hold.key) {
    // After a laptop slept past the bound, the session is woken now rather than hours late.
    const due = kept;
    fireIfDue(due, hold.at, () => wake($, due).catch(() => undefined));
    return;
  }
  dropHold($);
  const armed: Kept = { key: hold.key, timer: undefined };
  kept = armed;
  // A clock set back since the hold began: the session is woken no later than the wait's length from now.
  const now = Date.now();
  armWake($, armed, Math.max(0, readWaitEnd(hold.since, hold.at, now) - now));
}

/** The hold's timer (src/module/wallTimer.ts). */
function armWake($: Engine, armed: Kept, ms: number, tries = 0): void {
  armTimer($, armed, ms, () => wake($, armed, tries).catch(() => undefined));
}

/** A turn started (the notification, a person's prompt): its Stop decides again, so the timer goes. */
export function pauseHold($: Engine): void {
  dropHold($);
}

/** `background_wait` has passed: the prompt that takes the loop up again, if the session is idle and the loop still waits. */
async function wake($: Engine, armed: Kept, tries = 0): Promise<void> {
  if (kept !== armed) return;
  await refreshView($, true).catch(() => undefined);
  // The state file is broken: the session is woken once it is fixed, if the loop still waits then.
  if (mod.invalid !== undefined) {
    armWake($, armed, 1000, tries);
    return;
  }
  const view = mod.view;
  if (readHold()?.key !== armed.key || !view) {
    followHold($);
    return;
  }
  kept = undefined;
  // A turn runs: the Stop at its end decides with the bound passed.
  if (mod.turnId !== undefined) return;
  woken = armed.key;
  const text = renderBackgroundWakePrompt(view.state, view.runtime, Date.now());
  try {
    await $.prompt.submit({ text });
  } catch {
    // Refused for a moment (a turn still settling): tried again shortly, then left to the person.
    if (kept !== undefined) return;
    if (tries >= 40) {
      $.ui.log("Claude Code refused the prompt after the wait for background work; send any prompt to go on.");
      return;
    }
    woken = undefined;
    kept = armed;
    armWake($, armed, 250, tries + 1);
  }
}
