// Background work (docs/REFERENCE.md "Background work"): Claude Code lists the session's background
// tasks in the Stop input, and starts a turn by itself when one finishes. A Stop that would continue the
// loop while a task runs lets the turn end instead (a hold), uncounted, so that no paid turn polls or
// guesses. Pure; no schema (the companion module's band imports the render functions).
import { clipToCells } from "./cellWidth.js";
import { readWaitEnd, renderDuration } from "./duration.js";

/** One background task as Claude Code lists it in the Stop input's `background_tasks`. */
export interface BackgroundTask {
  id: string;
  /** `shell`, `subagent`, `monitor`, `workflow`… */
  type: string;
  description: string;
}

/** A task the loop waits for, and since when (ISO): `background_wait` counts from then. */
interface HeldTask extends BackgroundTask {
  since: string;
}

/** The hold the sidecar keeps while the loop waits: since when, for which tasks, and what ends it. */
export interface BackgroundHold {
  since: string;
  tasks: HeldTask[];
  /** `module`: the companion module wakes the session when the bound passes; `command`: nothing can. */
  route: "module" | "command";
}

/** What a Stop knows of the session's background work. */
export interface BackgroundFacts {
  /** The tasks still in flight (status `running` or `pending`). */
  running: BackgroundTask[];
  /** The companion module runs this Stop: it can wake the session once `background_wait` passes. */
  module: boolean;
  /** Claude's reply carries `<loop-wait/>`: the command path's hold is asked for. */
  waitTag: boolean;
}

/** A Stop input's task, as zod let it through: only the fields read here are relied on. */
interface ListedTask {
  id: string;
  type: string;
  status: string;
  description?: string | undefined;
}

/** Claude Code's in-flight statuses: a task `running`, or `pending` to run; any other has ended. */
const IN_FLIGHT = new Set(["running", "pending"]);

/** The tasks of `background_tasks` still in flight; [] for a version that lists none. */
export function readRunningTasks(listed: readonly ListedTask[] | undefined): BackgroundTask[] {
  return (listed ?? [])
    .filter((task) => IN_FLIGHT.has(task.status) && task.id !== "")
    .map((task) => ({ id: task.id, type: task.type, description: task.description?.trim() || task.type }));
}

/** `<loop-wait/>` (also `<loop-wait />`, `<loop-wait>`) anywhere in the reply, any letter case. */
export function parseWaitTag(reply: string): boolean {
  return /<loop-wait\s*\/?>/i.test(reply);
}

/** Waited-out task ids the sidecar keeps: enough for a loop's long-lived tasks, never unbounded. */
const WAITED_KEPT = 50;

export interface HoldOutcome {
  /** The hold this Stop keeps, or null when the loop is not held. */
  hold: BackgroundHold | null;
  /** The ids of tasks the loop has waited out, which never hold it again. */
  waited: string[];
  /** Running tasks the loop does not wait for: waited out, or on the command path without `<loop-wait/>`. */
  notHeld: (BackgroundTask & { waitedOut: boolean })[];
}

/**
 * Which running tasks hold the loop at this Stop. A task holds while `background_wait` has not passed
 * since the loop first waited for it (by the wall clock) and it was never waited out; with the module any such task holds,
 * on the command path only when the reply carries `<loop-wait/>`. `background_wait: 0` holds nothing.
 */
export function decideHold(
  boundS: number,
  previous: { background_hold: BackgroundHold | null; background_waited: readonly string[] },
  facts: BackgroundFacts | undefined,
  now: number,
): HoldOutcome {
  const waited = new Set(previous.background_waited);
  const running = facts?.running ?? [];
  const held = new Map((previous.background_hold?.tasks ?? []).map((task) => [task.id, task.since]));
  const iso = new Date(now).toISOString();
  const eligible: HeldTask[] = [];
  const notHeld: HoldOutcome["notHeld"] = [];
  for (const task of running) {
    const since = held.get(task.id) ?? iso;
    // A `since` in the future: the clock was set back since the hold began, so the wait is taken as over
    // rather than held until the clock catches up (docs/REFERENCE.md "When the clock jumps").
    const passed = boundS > 0 && (now - Date.parse(since) >= boundS * 1000 || Date.parse(since) > now);
    if (passed && held.has(task.id)) waited.add(task.id);
    if (boundS > 0 && !waited.has(task.id)) eligible.push({ ...task, since });
    else notHeld.push({ ...task, waitedOut: waited.has(task.id) });
  }
  const asked = facts !== undefined && (facts.module || facts.waitTag);
  const hold =
    asked && eligible.length > 0
      ? {
          since: previous.background_hold?.since ?? iso,
          tasks: eligible,
          route: facts.module ? ("module" as const) : ("command" as const),
        }
      : null;
  if (!hold) notHeld.push(...eligible.map((task) => ({ ...task, waitedOut: false })));
  return { hold, waited: [...waited].slice(-WAITED_KEPT), notHeld };
}

/** When the hold's bound began: the first held task's `since` (ms). */
export function readHoldSince(hold: BackgroundHold): number {
  return Math.min(...hold.tasks.map((task) => Date.parse(task.since)));
}

/** When the module wakes the session: the first held task's `since` plus `background_wait`. */
export function readWakeAt(hold: BackgroundHold, boundS: number): number {
  return readHoldSince(hold) + boundS * 1000;
}

/** "build", "build, dev server", "build, tests and 2 more": the tasks by their descriptions. */
export function renderTaskNames(tasks: readonly BackgroundTask[]): string {
  const names = tasks.map((task) => task.description.replace(/\s+/g, " ").slice(0, 60));
  return names.length > 3 ? `${names.slice(0, 2).join(", ")} and ${names.length - 2} more` : names.join(", ");
}

/**
 * "waiting for 1 background task (build)": the band's and the status's words for a hold; the tasks' names are cut
 * to keep it within `max` characters, so that what follows it in a row (what ends the wait) is seen.
 */
export function renderWaitingFor(tasks: readonly BackgroundTask[], max = Number.POSITIVE_INFINITY): string {
  const n = tasks.length;
  const head = `waiting for ${n} background task${n === 1 ? "" : "s"} (`;
  const names = renderTaskNames(tasks);
  const room = max - head.length - 1;
  return `${head}${clipToCells(names, Math.max(2, room))})`;
}

/**
 * What ends a hold besides the tasks: ", or by itself at …" (the bound, named with its value when `nameBound`),
 * ", or it ends at …" (the time limit first), or the person.
 */
export function renderHoldEnd(
  hold: BackgroundHold,
  boundS: number,
  timeUp = Number.POSITIVE_INFINITY,
  nameBound = true,
  now?: number,
): string {
  if (hold.route === "command") return ", or when you type";
  // `now`: a clock set back since the hold began puts the bound no further than background_wait away.
  const wake =
    now === undefined ? readWakeAt(hold, boundS) : readWaitEnd(readHoldSince(hold), readWakeAt(hold, boundS), now);
  if (timeUp < wake) return `, or it ends at ${renderClock(timeUp)} (max_duration)`;
  return `, or by itself at ${renderClock(wake)}${nameBound ? ` (background_wait ${renderDuration(boundS)})` : ""}`;
}

/** "01:23:45 UTC". */
const renderClock = (ms: number): string => `${new Date(ms).toISOString().slice(11, 19)} UTC`;

/** The one line the person sees when a Stop holds the loop; `timeUp`: when its `max_duration` passes. */
export function renderHoldMessage(
  hold: BackgroundHold,
  boundS: number,
  iteration: { n: number; max: number },
  timeUp = Number.POSITIVE_INFINITY,
): string {
  const finished = `when Claude Code reports ${hold.tasks.length === 1 ? "it" : "them"} finished`;
  return `continuation-loop: ${renderWaitingFor(hold.tasks)}; iteration ${iteration.n}/${iteration.max} is not counted. The loop goes on ${finished}${renderHoldEnd(hold, boundS, timeUp)}.`;
}

/**
 * What a continuation says of the background tasks the loop does not wait for (README "Background
 * work"): those waited out, and on the command path (`teach`) how to wait for the others. "" when none runs.
 */
export function renderNotHeld(tasks: HoldOutcome["notHeld"], boundS: number, teach: boolean): string {
  const out = tasks.filter((task) => task.waitedOut);
  const open = tasks.filter((task) => !task.waitedOut);
  const it = (list: readonly unknown[], one: string, many: string) => (list.length === 1 ? one : many);
  const lines: string[] = [];
  if (open.length && teach && boundS > 0) {
    lines.push(
      `Still running in the background: ${renderTaskNames(open)}. To wait for ${it(open, "it", "them")} instead of working on, end your reply with <loop-wait/>: the loop lets the turn end and goes on when Claude Code reports ${it(open, "it", "they")} finished.`,
    );
  } else if (open.length) lines.push(`Still running in the background: ${renderTaskNames(open)}.`);
  if (out.length) {
    lines.push(
      `Still running, no longer waited for after background_wait (${renderDuration(boundS)}): ${renderTaskNames(out)}. Check ${it(out, "its", "their")} output when it matters; do not wait for ${it(out, "it", "them")}.`,
    );
  }
  return lines.join(" ");
}
