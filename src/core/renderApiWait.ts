// What the user and Claude are told about a wait after an API error (docs/REFERENCE.md "Going on after an API error"). Pure.
import { renderGoal } from "./lineBreaks.js";
import { readWaitEnd, renderDuration } from "./duration.js";
import { API_RESUME_OPENING } from "./protocol.js";
import type { LoopState } from "./parseState.js";
import { renderFinish, renderLimits } from "./renderStop.js";
import type { Runtime } from "./sidecar.js";

/** "rate_limit" → "the rate limit": what the loop waits for. */
function renderWaitCause(kind: string): string {
  if (kind === "rate_limit") return "the rate or usage limit";
  if (kind === "overloaded" || kind === "server_error") return "the API to recover";
  return `the API error (${kind})`;
}

/** "01:23:45 UTC". */
const renderClock = (ms: number): string => `${new Date(ms).toISOString().slice(11, 19)} UTC`;

/** "01:23:45 UTC", with the day when it is not today's (a usage limit may reset days later). */
function renderWhen(ms: number, now: number): string {
  const iso = new Date(ms).toISOString();
  return iso.slice(0, 10) === new Date(now).toISOString().slice(0, 10)
    ? renderClock(ms)
    : `${iso.slice(0, 10)} ${renderClock(ms)}`;
}

/** When the wait began: the time `last_api_error` names ("rate_limit at <ISO time>"), in ms; NaN when none. */
export function readApiErrorAt(lastError: string): number {
  const time = / at (\S+)$/.exec(lastError)?.[1];
  return time === undefined ? Number.NaN : Date.parse(time);
}

/** The wait's row in /loop-status, as the band says it: "…; the loop goes on by itself at 01:23:45 UTC (in 4m 10s)". */
export function renderWaitStatus(lastError: string, until: string, now: number): string {
  // The sidecar keeps "rate_limit at <ISO time>": the time as the band and the line give it.
  const error = lastError.replace(/ at (\S+)$/, (whole, time: string) => {
    const at = Date.parse(time);
    return Number.isNaN(at) ? whole : ` at ${renderWhen(at, now)}`;
  });
  const wait = readWaitEnd(readApiErrorAt(lastError), Date.parse(until), now);
  const next = Number.isNaN(wait)
    ? "goes on with the session"
    : `goes on by itself at ${renderWhen(wait, now)} (in ${renderDuration(Math.max(0, wait - now) / 1000)})`;
  return `last API error: ${error}; the loop ${next}`;
}

/** The band's part while the loop waits, short enough for 120 columns: "waits for the rate or usage limit until 01:23:45 UTC (4m 10s)". */
export function renderWaitBand(kind: string, until: number, now: number): string {
  return `waits for ${renderWaitCause(kind)} until ${renderClock(until)} (${renderDuration(Math.max(0, until - now) / 1000)})`;
}

/** The one line in the transcript when the wait starts (Claude Code puts the plugin's name before it). */
export function renderWaitLine(kind: string, until: number, now: number, failures: number, max: number): string {
  return `an API error (${kind}) ended the turn; the loop waits for ${renderWaitCause(kind)} and goes on by itself at ${renderClock(until)} (in ${renderDuration(Math.max(0, until - now) / 1000)}; error ${failures} of max_api_failures ${max} in a row). /loop-stop or /loop-pause cancels the wait.`;
}

/** The one line when a relaunched Claude Code finds the loop waiting: the wait goes on in this process. */
export function renderWaitKeptLine(kind: string, until: number, now: number): string {
  return `the loop was waiting after an API error (${kind}) when Claude Code started again; it goes on by itself at ${renderClock(until)} (in ${renderDuration(Math.max(0, until - now) / 1000)}). /loop-stop or /loop-pause cancels the wait.`;
}

/** The loop's resume prompt is waiting for Claude Code to take prompts again: a dialog of Claude Code's is open. */
export function renderResumeHeldLine(): string {
  return "the wait after the API error is over, but Claude Code is not taking prompts yet: a dialog of its own (the usage-limit options) may be waiting for your answer. The loop goes on as soon as it is answered.";
}

/**
 * The prompt that takes the loop up again after the wait: the marker (so it is the loop's own prompt, never
 * a person's), the iteration, the limits, the goal and how to finish. The iteration is the one the error
 * cut short: it was not counted.
 */
export function renderResumePrompt(state: LoopState, runtime: Runtime, kind: string, now: number): string {
  return [
    `${API_RESUME_OPENING} (${kind}). Continuation loop: iteration ${state.iteration_count}/${state.max_iterations}, cut short by the error and not counted. Take up the goal where the last turn stopped; check what it finished before redoing anything.`,
    `Limits: ${renderLimits(state, runtime, state.iteration_count, now)}`,
    `Goal:\n${renderGoal(state.body)}`,
    `How to finish:\n${renderFinish(state)}`,
  ].join("\n\n");
}
