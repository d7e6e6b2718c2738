// Going on after an API error (docs/REFERENCE.md "Going on after an API error"): when a rate or usage limit or an overload ends
// a turn of the loop, the StopFailure command hook decides (with Claude Code's reset time, handed here)
// whether the loop waits, pauses or ends; the module keeps the wait, says so in one line and in the band,
// and then, if the loop still runs, sends the prompt that takes it up again. Every `$` call spelled
// `$.noun.verb(…)` (see index.ts).
import { pickResetsAt } from "../core/decideApiWait.js";
import { readWaitEnd } from "../core/duration.js";
import {
  readApiErrorAt,
  renderResumeHeldLine,
  renderResumePrompt,
  renderWaitBand,
  renderWaitKeptLine,
  renderWaitLine,
} from "../core/renderApiWait.js";
import type { ClassicStopInput, ClassicStopResult, Engine, PromptSubmitDrop, PromptSubmitInput } from "./engine.js";
import { mod, type ShownLoop } from "./state.js";
import { refreshView } from "./view.js";
import { armTimer, fireIfDue, type Timed } from "./wallTimer.js";

/**
 * The wait kept in memory: what for, until when (the sidecar's `api_wait_until`, and in ms), since when (the error's
 * time, NaN when unknown: a clock set back since shows no more than the wait's length), and its timer.
 */
interface Wait extends Timed {
  kind: string;
  until: string;
  at: number;
  since: number;
}
let wait: Wait | undefined;
/** How long the resume prompt may wait for Claude Code to take it before the person is told why it has not gone. */
const PROMPT_HELD_MS = 5000;

/** The StopFailure hook is deciding: the wait it may write is armed by `followDecision`, not found in the files. */
let deciding = false;

/** The band's words while the loop waits, or undefined. */
export function renderWaitPart(now: number): string | undefined {
  return wait ? renderWaitBand(wait.kind, readWaitEnd(wait.since, wait.at, now), now) : undefined;
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

/** Keeps a wait: its timer, the band and the sidecar's `until` it goes with. */
function armWait($: Engine, kind: string, until: string, at: number, since: number): void {
  cancelWait($);
  const kept: Wait = { kind, until, at, since, timer: undefined };
  wait = kept;
  mod.waitsArmed.add(until);
  const now = Date.now();
  armGoOn($, kept, Math.max(0, readWaitEnd(since, at, now) - now));
  $.ui.invalidate("ui.render");
}

/** The wait's timer (src/module/wallTimer.ts). */
function armGoOn($: Engine, kept: Wait, ms: number): void {
  armTimer($, kept, ms, () => goOn($, kept));
}

/**
 * A wait the loop's files hold that no timer of this process keeps: Claude Code was relaunched during it
 * (`claude --resume`, a background session respawned), which Claude Code's own automatic continue does not
 * survive. The loop goes on by itself all the same, once.
 */
function keepWaitFromFiles($: Engine): void {
  const view = mod.view;
  if (wait || deciding || !view || !view.state.active || view.runtime.pause) return;
  const until = view.runtime.api_wait_until;
  const at = Date.parse(until);
  if (!until || !Number.isFinite(at) || mod.waitsArmed.has(until)) return;
  const kind = view.runtime.last_api_error.split(" ")[0] || "unknown";
  const since = readApiErrorAt(view.runtime.last_api_error);
  armWait($, kind, until, at, since);
  const now = Date.now();
  $.ui.log(renderWaitKeptLine(kind, readWaitEnd(since, at, now), now));
}

/**
 * Once a second: a loop stopped or paused during the wait (slash command, CLI or an edit) cancels it; a wait only
 * the files hold is kept. A state file a hand edit broke stops nothing: the wait stands until it is fixed.
 */
export function checkWait($: Engine): void {
  if (!wait) {
    keepWaitFromFiles($);
    return;
  }
  if (mod.invalid !== undefined) return;
  const view = mod.view;
  if (!view) cancelWait($, "the loop was stopped");
  else if (!view.state.active) cancelWait($, "the loop was paused");
  else {
    // After a laptop slept past the wait's time, the loop goes on now rather than hours late.
    const due = wait;
    fireIfDue(due, due.at, () => goOn($, due).catch(() => undefined));
  }
}

/** Sends the prompt that takes the loop up again, when the loop still runs and still waits for this. */
async function goOn($: Engine, kept: Wait, tries = 0): Promise<void> {
  if (wait !== kept) return;
  await refreshView($, true).catch(() => undefined);
  // The state file is broken: the loop goes on once it is fixed, if it still waits then.
  if (mod.invalid !== undefined) {
    armGoOn($, kept, 1000);
    return;
  }
  const view = mod.view;
  if (!view?.state.active || view.runtime.pause?.reason === "question" || view.runtime.api_wait_until !== kept.until) {
    checkWait($);
    if (wait === kept) cancelWait($, "the loop no longer waits for it");
    return;
  }
  const text = renderResumePrompt(view.state, view.runtime, kept.kind, Date.now());
  // Dropped before the prompt goes: the turn it starts is the loop's, not a person's going on.
  wait = undefined;
  mod.wentOnAt = new Date().toISOString();
  $.ui.invalidate("ui.render");
  // Claude Code takes the prompt once the session is idle; a dialog it opened (its usage-limit options, when
  // it does not continue by itself) holds it until the person answers: they are told, once.
  const held = $.clock.after(PROMPT_HELD_MS, () => {
    $.ui.log(renderResumeHeldLine());
    if (view.state.notify)
      $.ui.notify("continuation-loop: the loop waits for your answer to Claude Code's dialog").catch(() => undefined);
  });
  try {
    await $.prompt.submit({ text });
    held.cancel();
  } catch {
    held.cancel();
    mod.wentOnAt = undefined;
    // Refused for a moment (a turn still settling): tried again shortly, then left to the user.
    if (wait !== undefined) return;
    wait = kept;
    if (tries < 40) $.clock.after(250, () => goOn($, kept, tries + 1));
    else cancelWait($, "Claude Code refused the prompt; send any prompt to go on");
  }
}

/**
 * prompt.submit: Claude Code's own automatic continue after a usage limit (`autoContinueAtUsageLimit`) and
 * this module's resume never both send a turn. Claude Code's, coming first (the session idle while the
 * module waits), goes on and the module's wait is dropped. Coming after the module went on (it waits for
 * the session to be idle: the loop's end or a pause), it is dropped, with the reason shown. A person's
 * prompt cancels Claude Code's, so it ends the module's watch too.
 */
export async function onPromptEnter<R>(
  $: Engine,
  e: PromptSubmitInput,
  next: (e: PromptSubmitInput) => Promise<R>,
): Promise<R | PromptSubmitDrop> {
  if (!mod.ready) return next(e);
  const kind = e.origin?.kind;
  if (kind === "auto-continuation") {
    const at = mod.wentOnAt;
    if (at !== undefined) {
      mod.wentOnAt = undefined;
      return {
        drop: `continuation-loop: the loop already went on after the usage limit (${at.slice(11, 19)} UTC), so Claude Code's own automatic continue is not sent`,
      };
    }
    cancelWait($, "Claude Code's own automatic continue went first; the loop goes on at its stop");
  } else if (kind === "composer" || kind === "bridge" || kind === "sdk") mod.wentOnAt = undefined;
  return next(e);
}

/** After this plugin's StopFailure hook recorded the error and decided: keep the wait, or tell the pause or end. */
async function followDecision($: Engine, kind: string, before: ShownLoop | undefined): Promise<void> {
  await refreshView($, true);
  const view = mod.view;
  if (!view) {
    // A state file a hand edit broke: the command hook left it as it was, and told the person why.
    if (!before || mod.invalid !== undefined) return;
    // The StopFailure hook rang the terminal (`notify`), as a Stop does at any end.
    $.ui.log("the loop ended: waiting for the API would pass its max_duration.");
    return;
  }
  if (!view.state.active && view.runtime.pause?.reason === "api_errors") {
    $.ui.log(`loop paused: ${view.runtime.pause.text}. /loop-resume (or active: true) resumes it.`);
    $.ui.toast("continuation-loop: loop paused after API errors in a row");
    return;
  }
  const until = view.runtime.api_wait_until;
  const at = Date.parse(until);
  if (!view.state.active || !until || !Number.isFinite(at)) return;
  armWait($, kind, until, at, readApiErrorAt(view.runtime.last_api_error));
  $.ui.log(renderWaitLine(kind, at, Date.now(), view.runtime.api_errors_since_stop, view.state.max_api_failures));
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
  // A new error: whether the module goes on again is decided below.
  mod.wentOnAt = undefined;
  const usage = await $.session.usage();
  const resetsAt = pickResetsAt(usage.rateLimits, Date.now());
  await $.env.set("CONTINUATION_LOOP_RESETS_AT", resetsAt === undefined ? undefined : new Date(resetsAt).toISOString());
  await $.env.set("CONTINUATION_LOOP_RESUME", "1");
  // An error that comes at once can beat the read after the last Stop: the loop is read first, so that an
  // end the command hook decides is still told.
  if (!mod.view) await refreshView($, true).catch(() => undefined);
  const before = mod.view;
  deciding = true;
  try {
    let result: ClassicStopResult;
    try {
      result = await next(e);
    } finally {
      await $.env.set("CONTINUATION_LOOP_RESUME", undefined);
    }
    await followDecision($, typeof e.error === "string" ? e.error : "unknown", before).catch(() => undefined);
    return result;
  } finally {
    deciding = false;
  }
}
