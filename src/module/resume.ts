// Going on after an API error (docs/REFERENCE.md "Going on after an API error"): when a rate or usage limit or an overload ends
// a turn of the loop, the StopFailure command hook decides (with Claude Code's reset time, handed here)
// whether the loop waits, pauses or ends; the module keeps the wait, says so in one line and in the band,
// and then, if the loop still runs, sends the prompt that takes it up again. Every `$` call spelled
// `$.noun.verb(…)` (see index.ts).
import { pickResetsAt } from "../core/decideApiWait.js";
import { renderResumePrompt, renderWaitBand, renderWaitLine } from "../core/renderApiWait.js";
import type { LoopView } from "../core/loopView.js";
import type { ClassicStopInput, ClassicStopResult, Engine } from "./engine.js";
import { mod } from "./state.js";
import { refreshView } from "./view.js";

/** The wait kept in memory: what for, until when (the sidecar's `api_wait_until`), and its timer. */
interface Wait {
  kind: string;
  until: string;
  timer: { cancel(): void } | undefined;
}
let wait: Wait | undefined;

/** The band's words while the loop waits, or undefined. */
export function renderWaitPart(now: number): string | undefined {
  return wait ? renderWaitBand(wait.kind, Date.parse(wait.until), now) : undefined;
}

/** Drops the wait (its timer too); `why` is told in one line when given. */
export function cancelWait($: Engine, why?: string): void {
  const dropped = wait;
  if (!dropped) return;
  wait = undefined;
  dropped.timer?.cancel();
  if (why) $.ui.log(`the wait after the API error (${dropped.kind}) is cancelled: ${why}.`);
  $.ui.invalidate("ui.render");
}

/** Once a second: a loop stopped or paused during the wait (slash command, CLI or an edit) cancels it. */
export function checkWait($: Engine): void {
  if (!wait) return;
  const view = mod.view;
  if (!view) cancelWait($, "the loop was stopped");
  else if (!view.state.active) cancelWait($, "the loop was paused");
}

/** Sends the prompt that takes the loop up again, when the loop still runs and still waits for this. */
async function goOn($: Engine, kept: Wait, tries = 0): Promise<void> {
  if (wait !== kept) return;
  await refreshView($, true).catch(() => undefined);
  const view = mod.view;
  if (!view?.state.active || view.runtime.pause?.reason === "question" || view.runtime.api_wait_until !== kept.until) {
    checkWait($);
    if (wait === kept) cancelWait($, "the loop no longer waits for it");
    return;
  }
  const text = renderResumePrompt(view.state, view.runtime, kept.kind, Date.now());
  // Dropped before the prompt goes: the turn it starts is the loop's, not a person's going on.
  wait = undefined;
  $.ui.invalidate("ui.render");
  try {
    await $.prompt.submit({ text });
  } catch {
    // Refused for a moment (a turn still settling): tried again shortly, then left to the user.
    if (wait !== undefined) return;
    wait = kept;
    if (tries < 40) $.clock.after(250, () => goOn($, kept, tries + 1));
    else cancelWait($, "Claude Code refused the prompt; send any prompt to go on");
  }
}

/** After this plugin's StopFailure hook recorded the error and decided: keep the wait, or tell the pause or end. */
async function followDecision($: Engine, kind: string, before: LoopView | undefined): Promise<void> {
  await refreshView($, true);
  const view = mod.view;
  if (!view) {
    if (!before) return;
    $.ui.log("the loop ended: waiting for the API would pass its max_duration.");
    // The person is told as at any end, with the notification their terminal gives (`notify`).
    if (before.state.notify) await $.ui.notify("continuation-loop: loop ended (max_duration) after an API error");
    return;
  }
  if (!view.state.active && view.runtime.pause?.reason === "api_errors") {
    $.ui.log(`loop paused: ${view.runtime.pause.text}. /loop-resume (or active: true) resumes it.`);
    $.ui.toast("continuation-loop: loop paused after API errors in a row");
    if (view.state.notify) await $.ui.notify("continuation-loop: loop paused after API errors in a row");
    return;
  }
  const until = view.runtime.api_wait_until;
  const at = Date.parse(until);
  if (!view.state.active || !until || !Number.isFinite(at)) return;
  cancelWait($);
  const kept: Wait = { kind, until, timer: undefined };
  wait = kept;
  const now = Date.now();
  kept.timer = $.clock.after(Math.max(0, at - now), () => goOn($, kept));
  $.ui.log(renderWaitLine(kind, at, now, view.runtime.api_errors_since_stop, view.state.max_api_failures));
  $.ui.invalidate("ui.render");
}

/**
 * classic.StopFailure: Claude Code's reset time and the word that this module will go on are handed to the
 * command hook beneath (set for this event only), then its decision is followed.
 */
export async function onStopFailure(
  $: Engine,
  e: ClassicStopInput & { error?: string },
  next: (e: ClassicStopInput) => Promise<ClassicStopResult>,
): Promise<ClassicStopResult> {
  if (!mod.ready || e.agent_id) return next(e);
  const usage = await $.session.usage();
  const resetsAt = pickResetsAt(usage.rateLimits, Date.now());
  await $.env.set("CONTINUATION_LOOP_RESETS_AT", resetsAt === undefined ? undefined : new Date(resetsAt).toISOString());
  await $.env.set("CONTINUATION_LOOP_RESUME", "1");
  // An error that comes at once can beat the read after the last Stop: the loop is read first, so that an
  // end the command hook decides is still told.
  if (!mod.view) await refreshView($, true).catch(() => undefined);
  const before = mod.view;
  let result: ClassicStopResult;
  try {
    result = await next(e);
  } finally {
    await $.env.set("CONTINUATION_LOOP_RESUME", undefined);
  }
  await followDecision($, typeof e.error === "string" ? e.error : "unknown", before).catch(() => undefined);
  return result;
}
