// The companion hooks module (docs/REFERENCE.md "The companion module"; docs/ARCHITECTURE.md). Claude Code 2.1.287+
// runs it inside its own process; the command hooks stay the engine. Every hook here passes the event on
// untouched unless the module is ready, and a failure anywhere leaves the command hooks' answer standing.
// Claude Code reads this file's source to see what it calls: every `$` call is spelled `$.noun.verb(…)`
// with literal environment names, and `$` is passed only to functions declared at the top of this file.
import { readBackgroundPrompt, sendToBackground } from "./background.js";
import { renderBand, renderInvalidBand } from "./band.js";
import { makeStopId, noteSent, takeContinuation, takeSent } from "./continuation.js";
import { answerControl, readControl, registerControls } from "./controls.js";
import type {
  ClassicStopInput,
  ClassicStopResult,
  CommandRunInput,
  CommandRunResult,
  Engine,
  On,
  SessionStartInput,
} from "./engine.js";
import { clearThenSubmit, readFreshPrompt } from "./fresh.js";
import { cancelWait, checkWait, onPromptEnter, onStopFailure, renderWaitPart } from "./resume.js";
import { followHold, pauseHold } from "./hold.js";
import { injectFault, mod } from "./state.js";
import { redraw, refreshView } from "./view.js";

declare const h: (type: unknown, props: unknown, ...children: unknown[]) => unknown;

async function startModule($: Engine, cwd: string | undefined): Promise<void> {
  if ((await $.env.get("CONTINUATION_LOOP_MODULE")) === "0") return;
  mod.fault = (await $.env.get("CONTINUATION_LOOP_MODULE_FAULT")) ?? "";
  injectFault("load");
  mod.root = (await $.env.get("CLAUDE_PROJECT_DIR")) || cwd || "";
  const { version } = await $.session.version();
  mod.version = version || "unknown";
  await registerControls($);
  // The command hooks see the module is live, and on which Claude Code (doctor says so).
  await $.env.set("CONTINUATION_LOOP_MODULE_LIVE", mod.version);
  mod.ready = true;
  await refreshView($, true);
  $.clock.every(1000, () => {
    redraw($);
    checkWait($);
    followHold($);
  });
}

/** One line in the transcript, then the module stays out of the way: the command hooks run the loop. */
function goQuiet($: Engine, error: unknown): void {
  mod.ready = false;
  const why = error instanceof Error ? error.message : String(error);
  try {
    $.ui.log(`the companion module is off for this session (${why}); the loop runs on its hooks.`);
  } catch {
    // nothing more to do: the command hooks still run
  }
}

/**
 * Sends the continuation the Stop hook asked for, once, whichever of turn end or the timer comes first;
 * false when there was none to send.
 */
function sendPending($: Engine, tries = 0): boolean {
  const text = mod.pending;
  mod.pending = undefined;
  if (text === undefined) return false;
  // `/loop-start --bg`: the next iteration starts in a background session, and this one ends.
  const background = readBackgroundPrompt(text);
  if (background !== undefined) {
    sendToBackground($, background).catch((error: unknown) => goQuiet($, error));
    return true;
  }
  // fresh_context: the context is cleared first; once it is, a retry only sends the prompt.
  const fresh = readFreshPrompt(text);
  noteSent(fresh ?? text);
  let retry = text;
  const sent = fresh === undefined ? $.prompt.submit({ text }) : clearThenSubmit($, fresh, () => (retry = fresh));
  sent.catch((error: unknown) => {
    // Refused (e.g. while the Stop is still settling): kept for the next try, or for the turn's end.
    if (mod.pending === undefined) mod.pending = retry;
    if (tries < 40) $.clock.after(25, () => sendPending($, tries + 1));
    else goQuiet($, error);
  });
  return true;
}

/** After this plugin's Stop hook ran: a continuation nothing else continues becomes a prompt from the plugin. */
function quietContinuation($: Engine, result: ClassicStopResult, id: string): ClassicStopResult {
  try {
    injectFault("stop");
    const { text, rest } = takeContinuation(result, id);
    if (text === undefined) return rest;
    mod.pending = text;
    // A test reaches the refusal a loaded machine meets (the timer firing while the Stop still settles).
    if (mod.fault === "send-in-stop") sendPending($);
    // Sent as soon as this Stop has returned (a timer: a Stop hook may not submit), or at the turn's end,
    // whichever comes first: never lost when one of them fails, never twice.
    $.clock.after(0, () => sendPending($));
    return rest;
  } catch {
    return result;
  }
}

async function onStop($: Engine, e: ClassicStopInput, next: (e: ClassicStopInput) => Promise<ClassicStopResult>) {
  if (!mod.ready || e.agent_id) return next(e);
  const id = makeStopId(Date.now());
  // Side by side: each call is a round trip to Claude Code, and the Stop hooks wait for both.
  await Promise.all([
    $.session
      .usage()
      .then((usage) => $.env.set("CONTINUATION_LOOP_COST_USD", usage.cost ? String(usage.cost.usd) : undefined)),
    $.env.set("CONTINUATION_LOOP_STOP_ID", id),
  ]);
  const result = await next(e);
  const answer = quietContinuation($, result, id);
  // An end, a pause or a hold shows at once; a continuation's turn reads the loop at its start (at most once a
  // second), so that no read of the band's competes with the hand-over.
  if (mod.pending === undefined) refreshView($, true).catch(() => undefined);
  return answer;
}

/**
 * The UserPromptSubmit of a continuation this module sent is answered here, without the hooks beneath: the
 * same continuation sent by the Stop hook's exit 2 runs none (docs/HEADLESS.md "Dead time per iteration"), and
 * the prompt hook gives it nothing (a continuation is nobody's answer). Every other prompt passes untouched.
 * After a `/rewind` the conversation may no longer hold the goal: the prompt hook then gives the loop again.
 */
async function onPromptSubmit($: Engine, e: { prompt?: unknown }, next: (e: unknown) => Promise<unknown>) {
  if (!mod.ready || !takeSent(e?.prompt)) return next(e);
  if (!mod.rewound) return {};
  mod.rewound = false;
  try {
    return await next(e);
  } finally {
    await $.env.set("CONTINUATION_LOOP_REWOUND", undefined);
  }
}

/** `/rewind` (typed while a turn runs, it comes between two iterations): the next continuation gives the loop again. */
async function onRewind($: Engine, e: CommandRunInput, next: (e: CommandRunInput) => Promise<CommandRunResult>) {
  if (mod.ready && mod.view) {
    mod.rewound = true;
    await $.env.set("CONTINUATION_LOOP_REWOUND", "1");
  }
  return next(e);
}

/** A loop control, typed at any time: the command hooks' own answer; any failure leaves the command as it was. */
async function onControl($: Engine, e: CommandRunInput, next: (e: CommandRunInput) => Promise<CommandRunResult>) {
  const name = readControl(e.command);
  if (!mod.ready || name === undefined) return next(e);
  // Headless, Claude Code gives 80 columns that no terminal measured: the answer is left whole there.
  const columns = mod.interactive ? e.presentation?.columns : undefined;
  const answer = await answerControl($, name, e.args, columns).catch(() => undefined);
  return answer ?? next(e);
}

function passOn(_: Engine, e: CommandRunInput, next: (e: CommandRunInput) => Promise<CommandRunResult>) {
  return next(e);
}

function drawBand($: Engine, e: unknown, below: unknown): unknown {
  injectFault("draw");
  let band: string | undefined;
  try {
    if (mod.view)
      band = renderBand(
        mod.view,
        Date.now(),
        mod.sessionId,
        renderWaitPart(Date.now()),
        mod.turnId !== undefined,
        mod.interruptedHold,
      );
    else if (mod.invalid !== undefined) band = renderInvalidBand(mod.invalid);
  } catch {
    // A view file edited into something the band cannot draw: nothing rather than something wrong.
    return below;
  }
  if (band === undefined) return below;
  const { Box, Text } = $.ui.resolve(e);
  // One row at any width: a band that wrapped would push the prompt down a row and back as its figures change.
  const line = h(Text, { dimColor: true, wrap: "truncate-end" }, band);
  return h(Box, { flexDirection: "column" }, line, below);
}

export function register(on: On): void {
  on("session.start", async ($: Engine, e: SessionStartInput, next: (e: unknown) => Promise<unknown>) => {
    mod.interactive = e?.isInteractive === true;
    try {
      await startModule($, e?.cwd);
    } catch (error) {
      goQuiet($, error);
    }
    return next(e);
  });
  // Should this hook fail after the Stop hooks ran, their answer stands as they gave it (replayed, not rerun).
  on("classic.Stop", onStop).catch(
    (_: Engine, e: ClassicStopInput, next: (e: ClassicStopInput) => Promise<ClassicStopResult>) => next(e),
  );
  on("classic.UserPromptSubmit", onPromptSubmit).catch(
    (_: Engine, e: unknown, next: (e: unknown) => Promise<unknown>) => next(e),
  );
  // Claude Code's own automatic continue after a usage limit, beside the module's resume: one of them (resume.ts).
  on("prompt.submit", onPromptEnter).catch((_: Engine, e: unknown, next: (e: unknown) => Promise<unknown>) => next(e));
  // A turn ended by an API error: the loop goes on by itself after a wait (src/module/resume.ts).
  on("classic.StopFailure", onStopFailure).catch(
    (_: Engine, e: ClassicStopInput, next: (e: ClassicStopInput) => Promise<ClassicStopResult>) => next(e),
  );
  on(
    "turn.start",
    async ($: Engine, e: { turnId: string; agentId?: string }, next: (e: unknown) => Promise<unknown>) => {
      if (!mod.ready || e.agentId !== undefined) return next(e);
      mod.turnId = e.turnId;
      // A person's prompt during a wait after an API error: the session goes on, the wait is not needed.
      cancelWait($, "a prompt went on first");
      // Any turn during a hold for background work: the Stop at its end decides again.
      pauseHold($);
      // The session's figure before this turn: a loop's first Stop counts its first turn too.
      const usage = await $.session.usage();
      await $.env.set("CONTINUATION_LOOP_TURN_COST_USD", usage.cost ? String(usage.cost.usd) : undefined);
      refreshView($).catch(() => undefined);
      return next(e);
    },
  );
  on(
    "turn.complete",
    async ($: Engine, e: { agentId?: string; isAborted?: boolean }, next: (e: unknown) => Promise<unknown>) => {
      if (e.agentId !== undefined) return next(e);
      mod.turnId = undefined;
      // Esc in a turn after a hold for background work (the notification's, a person's): no Stop decides again.
      const hold = mod.view?.runtime.background_hold;
      if (e.isAborted === true && hold) mod.interruptedHold = hold.since;
      // First, before anything that can fail: the continuation this turn's Stop handed over is sent.
      const sent = sendPending($);
      if (!mod.ready) return next(e);
      injectFault("turn");
      // A continuation went: its turn reads the loop as it starts.
      if (sent) return next(e);
      // Between turns: a hold for background work gets its timer (src/module/hold.ts).
      refreshView($)
        .then(() => followHold($))
        .catch(() => undefined);
      return next(e);
    },
  );
  // Each spelled out, so that Claude Code sees which commands the module answers; a failure runs the command
  // as Claude Code would without the module.
  on("command.run", { command: "loop-stop" }, onControl).catch(passOn);
  on("command.run", { command: "loop-pause" }, onControl).catch(passOn);
  on("command.run", { command: "loop-status" }, onControl).catch(passOn);
  on("command.run", { command: "continuation-loop:loop-stop" }, onControl).catch(passOn);
  on("command.run", { command: "continuation-loop:loop-pause" }, onControl).catch(passOn);
  on("command.run", { command: "continuation-loop:loop-status" }, onControl).catch(passOn);
  on("command.run", { command: "rewind" }, onRewind).catch(passOn);
  on(
    "ui.render",
    { component: "AbovePrompt" },
    async ($: Engine, e: unknown, next: (e: unknown) => Promise<unknown>) => {
      const below = await next(e);
      if (!mod.ready) return below;
      return drawBand($, e, below);
    },
  );
}
