// A wait's timer that keeps to the wall clock (docs/REFERENCE.md "The companion module"): Claude Code's
// `$.clock.after` counts only while the machine is awake, so after a laptop slept past a wait's moment the
// module's once-a-second tick fires it (`fireIfDue`), and the timer that comes later fires nothing twice.
import type { Engine } from "./engine.js";

/** What a wait keeps of its timer: set while it waits, cleared as it fires. */
export interface Timed {
  timer: { cancel(): void } | undefined;
}

/** Sets `kept.timer` to run `fire` after `ms`; cleared as it fires, so that the tick's catch-up never doubles it. */
export function armTimer($: Engine, kept: Timed, ms: number, fire: () => unknown): void {
  const timer = $.clock.after(ms, () => {
    if (kept.timer === timer) kept.timer = undefined;
    return fire();
  });
  kept.timer = timer;
}

/** The tick's catch-up: once the wall clock has passed `at` and the timer still waits, runs `fire` now, once. */
export function fireIfDue(kept: Timed, at: number, fire: () => unknown): void {
  if (!kept.timer || Date.now() < at) return;
  kept.timer.cancel();
  kept.timer = undefined;
  fire();
}
