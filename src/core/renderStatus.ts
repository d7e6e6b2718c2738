import { elapsedSeconds, readTimeUpAt, renderDuration } from "./duration.js";
import type { LoopState } from "./parseState.js";
import { renderLimits } from "./renderStop.js";
import { readLoopSpend, readPause, type Runtime } from "./sidecar.js";
import { formatCount } from "./formatCount.js";
import type { HistoryRecord } from "./history.js";
import { renderMetricStatus } from "./renderMetric.js";
import { renderEndConditions } from "./renderStart.js";
import { renderHoldEnd, renderWaitingFor } from "./background.js";
import { renderPermissionWait } from "./permissionWait.js";
import { renderPlanWait } from "./planMode.js";
import { renderMistypedRow } from "./mistypedFields.js";
import { renderWaitStatus } from "./renderApiWait.js";
import { clipToCells, clipToChars, wrapToCells } from "./cellWidth.js";
import { renderSiblingCommand } from "./loopCommand.js";

const fmt = formatCount;
// A lone CR ends a line too: a CI log reader (GitHub's runner) starts a new line there.
export const firstLine = (text: string, max = 100): string => {
  const line = text.trim().split(/\r\n?|\n/, 1)[0] ?? "";
  return clipToChars(line, max);
};
/**
 * A goal in one line: its first line that is not a Markdown heading, since a template opens the goal with one
 * (`## Goal`, `## Feature`), which says nothing of this loop; a goal of headings only gives its first.
 */
export const renderGoalLine = (goal: string, max = 100): string => {
  const line = goal.split(/\r\n?|\n/).find((row) => row.trim() !== "" && !/^\s{0,3}#{1,6}(\s|$)/.test(row));
  return firstLine(line ?? goal, max);
};
export const shortId = (id: string | undefined): string => (id ? id.slice(0, 8) : "-");

/** Columns a status row may take: Claude Code indents the answer (5 columns at most), and a row wider than 140 wraps. */
const ROW_WIDTH = 128;
/** Cut a row to `width` cells, with "…" where it was cut. */
export const clipRow = (row: string, width = ROW_WIDTH): string => clipToCells(row, width);

/** "12:03:05 iteration 2 continue" / "… end (completed, promise "x")": one line of `history`. */
function renderDecision(record: HistoryRecord): string {
  const time = record.time ? record.time.replace("T", " ").replace(/\.\d+Z$/, "Z") : "?";
  return `${time}  iteration ${record.iteration ?? "?"}  ${renderDecisionBrief(record)}`;
}

/** "continued" / "ended: completed" / "continued (until: `npm test` exited with status 1)". */
function renderDecisionBrief(record: HistoryRecord): string {
  const what =
    record.decision === "end"
      ? `ended: ${record.reason ?? "?"}`
      : record.decision === "continue"
        ? "continued"
        : record.decision === "waiting_background" && Array.isArray(record.tasks)
          ? renderWaitingFor(record.tasks)
          : record.decision === "waiting_permission"
            ? renderPermissionWait({ tool: record.tool ?? "a tool" })
            : record.decision === "waiting_plan"
              ? "waiting: plan mode"
              : `${record.decision.replace("_", " ")}: ${record.reason ?? "?"}`;
  const extra = [
    record.promise ? `promise "${record.promise}"` : "",
    record.refusal ? `refused: ${firstLine(record.refusal, 60)}` : "",
    record.until_failure && !record.refusal ? `until ${firstLine(record.until_failure, 60)}` : "",
  ].filter(Boolean);
  return `${what}${extra.length ? ` (${extra.join("; ")})` : ""}`;
}

function renderOwner(state: LoopState, sessionId: string | undefined): string {
  if (!state.session_id) return "no owner yet";
  if (state.session_id === sessionId) return "this session's";
  return sessionId
    ? `session ${shortId(state.session_id)}'s, not this one's`
    : `session ${shortId(state.session_id)}'s`;
}

const BARS = "▁▂▃▄▅▆▇█";

/**
 * Output tokens of each iteration, as a sparkline ("▁▃█▅"), from the loop's history: each record
 * holds the loop's running total, so an iteration's share is the step from the record before.
 */
export function renderTokenSparkline(records: HistoryRecord[]): string {
  const totals = records.map((r) => r.output_tokens).filter((n): n is number => typeof n === "number");
  const steps = totals.map((total, i) => Math.max(0, total - (i > 0 ? (totals[i - 1] ?? 0) : 0)));
  const top = Math.max(...steps, 0);
  if (steps.length === 0 || top === 0) return "";
  return steps.map((n) => BARS[Math.min(BARS.length - 1, Math.floor((n / top) * (BARS.length - 1)))]).join("");
}

/** What /loop-status shows besides the state: the checklist's progress, when the loop has one. */
export interface StatusExtras {
  /** "3/5 done · next: …", or why the checklist cannot be read. */
  checklist?: string;
  /** The loop's history records since its start, for the per-iteration sparkline. */
  records?: HistoryRecord[];
  /** The project's other loops, in a few words (one loop's row, or their names). */
  others?: string;
  /** The permission prompt the loop waited at was closed by Esc or "No": the turn ended without a Stop. */
  permissionClosed?: boolean;
  /** The turn after a hold for background work was interrupted (Esc): no Stop came to decide again. */
  holdInterrupted?: boolean;
  /** The cells a row has where the answer shows, when something measured them: rows wrap at words to fit. */
  columns?: number;
  /** The status command as the person typed it (`/loop-status` when not given): the commands named are its siblings. */
  command?: string;
  /** The loop's name, for the commands named (`--name NAME`). */
  name?: string;
}

/** Rows a full status may take (README "Commands"). */
const MAX_ROWS = 8;

/** Who set `active: false`, from the loop's last record: Esc, /loop-pause, or a hand edit of the file. */
function renderPausedBy(recent: HistoryRecord[]): string {
  const last = recent.at(-1);
  const before = recent.at(-2);
  // The turn a person's "No" or Esc at a permission prompt ended: the prompt, not an Esc mid-work, paused it.
  if (last?.decision === "pause" && last.reason === "interrupted" && before?.decision === "waiting_permission")
    return `you said No or pressed Esc at the permission prompt (${before.tool ?? "a tool"})`;
  if (last?.decision === "pause" && last.reason === "interrupted") return "you interrupted the turn (Esc)";
  if (last?.decision === "pause" && last.reason === "paused") return "by /loop-pause or continuation-loop pause";
  return "active is false";
}

/** Why the loop is paused or waiting, in one row; undefined while it simply runs. */
function renderHold(
  state: LoopState,
  runtime: Runtime,
  recent: HistoryRecord[],
  now: number,
  /** The command that resumes the loop, as the person would type it here. */
  resume: string,
  permissionClosed = false,
  holdInterrupted = false,
): string | undefined {
  const pause = readPause(state.active, runtime);
  if (pause?.reason === "question") return `paused, Claude's question: ${pause.text} (your next prompt answers it)`;
  if (pause?.reason === "scope") return `paused for scope: ${pause.text} (${resume} accepts the tree)`;
  if (pause?.reason === "api_errors") return `paused: ${pause.text} (${resume} goes on)`;
  if (!state.active) return `paused: ${renderPausedBy(recent)} (${resume} or active: true resumes it)`;
  if (runtime.permission_wait && permissionClosed)
    return `the permission prompt (${runtime.permission_wait.tool}) was refused or cancelled (Esc), so the turn ended; your next prompt in the session pauses the loop (${resume} goes on)`;
  if (runtime.permission_wait)
    return `${renderPermissionWait(runtime.permission_wait)} since ${runtime.permission_wait.since.slice(11, 19)} UTC: answer it in the session (claude attach for a background one); the loop goes on once the turn does`;
  if (holdInterrupted)
    return `the turn after the wait was interrupted (Esc): your next prompt in the session pauses the loop (${resume} goes on)`;
  if (runtime.plan_hold) return renderPlanWait(runtime.plan_hold);
  const hold = runtime.background_hold;
  if (hold) {
    // The row has no room for the bound's value: the time it falls is enough.
    const end = renderHoldEnd(hold, state.background_wait, readTimeUpAt(state), false, now);
    const rest = ` since ${hold.since.slice(11, 19)} UTC; it goes on when ${hold.tasks.length === 1 ? "it finishes" : "they finish"}${end}`;
    // The row's indent, then the tasks' names cut so that what ends the wait fits.
    return `${renderWaitingFor(hold.tasks, ROW_WIDTH - 2 - rest.length)}${rest}`;
  }
  if (runtime.last_api_error) return renderWaitStatus(runtime.last_api_error, runtime.api_wait_until, now);
  return undefined;
}

/** " · scope src, test · ≤ 10 files per iteration": what the loop may change, when it says. */
function renderScope(state: LoopState): string {
  const paths = state.scope ? ` · scope ${state.scope.map((p) => p || ".").join(", ")}` : "";
  const most = state.max_files_changed !== undefined ? ` · ≤ ${state.max_files_changed} files per iteration` : "";
  return paths + most;
}

/** "tokens 12,345 ▁▃█▅ · spend $0.12 (status line)": what the loop used, per iteration too. */
function renderUsage(state: LoopState, runtime: Runtime, records: HistoryRecord[]): string {
  // The metric has a row of its own (docs/REFERENCE.md "Improvement loops").
  const spark = renderTokenSparkline(records.slice(-40));
  const spent = readLoopSpend(runtime);
  const spend =
    spent === undefined
      ? `spend: no figure yet${state.max_cost === undefined ? "" : " (needs the module or the status line)"}`
      : `spend $${spent.toFixed(2)}${runtime.spend?.source ? ` (${runtime.spend.source})` : ""}`;
  return `tokens ${fmt(runtime.output_tokens)} output${spark ? ` ${spark}` : ""} · ${spend}`;
}

/**
 * The /loop-status text, at a glance (README "Commands"): at most eight rows, none wider than a 140-column
 * terminal shows with Claude Code's indent — state, n/max, elapsed and owner; why it is paused; the state file
 * and the goal it holds; keys that read like fields, and the other loops; what ends it; limits used and left;
 * tokens, spend and sparklines; the metric; last decisions.
 */
export function renderStatus(
  state: LoopState,
  runtime: Runtime,
  shown: string,
  recent: HistoryRecord[],
  now: number,
  sessionId?: string,
  extras: StatusExtras = {},
): string {
  const elapsed = elapsedSeconds(state, now);
  const held = !state.active || readPause(state.active, runtime) !== undefined;
  const command = extras.command ?? "/loop-status";
  const stop = renderSiblingCommand(command, "stop", extras.name);
  const ends = renderEndConditions(state) || `no completion condition: it runs to a limit or ${stop}`;
  const checklist = state.checklist ? ` · checklist ${state.checklist} ${extras.checklist ?? "not read"}` : "";
  const last = recent
    .slice(-3)
    .reverse()
    .map((r) => `#${r.iteration ?? "?"} ${renderDecisionBrief(r)}`);
  // Keys that read like a field and are none (a limit the person meant to set is not in force), and the other loops.
  const notes = [state.mistyped.length ? renderMistypedRow(state.mistyped) : "", extras.others ?? ""]
    .filter(Boolean)
    .join(" · ");
  const resume = renderSiblingCommand(command, "resume", extras.name);
  let hold = renderHold(state, runtime, recent, now, resume, extras.permissionClosed, extras.holdInterrupted);
  // A loop held, with notes and a metric, would take a row more than a glance: the notes follow why it is held.
  const optional = [hold, notes, state.metric].filter((row) => row !== undefined && row !== "").length;
  const folded = hold !== undefined && notes !== "" && 6 + optional > MAX_ROWS;
  if (folded) hold = `${hold} · ${notes}`;
  const rows = [
    clipRow(
      `continuation-loop: loop ${held ? "paused" : runtime.background_hold || runtime.plan_hold || runtime.api_wait_until ? "waiting" : "running"}, iteration ${state.iteration_count}/${state.max_iterations} · ${elapsed === undefined ? "not started" : `${renderDuration(elapsed)} elapsed`} · ${renderOwner(state, sessionId)}`,
    ),
    ...(hold ? [clipRow(`  ${hold}`)] : []),
    // The file the person edits to steer the loop, before the goal's first line, which gives way to it.
    clipRow(`  goal in ${shown}: ${renderGoalLine(state.body, ROW_WIDTH)}`),
    ...(notes && !folded ? [clipRow(`  ${notes}`)] : []),
    clipRow(`  ends when: ${ends}${checklist}`),
    clipRow(`  limits: ${renderLimits(state, runtime, state.iteration_count, now)}${renderScope(state)}`),
    clipRow(`  ${renderUsage(state, runtime, extras.records ?? [])}`),
    ...(state.metric === undefined ? [] : [clipRow(`  ${renderMetricStatus(state, runtime, extras.records ?? [])}`)]),
    clipRow(`  last: ${last.length ? last.join(" · ") : "no decision yet"}`),
  ];
  // A narrow terminal would wrap a row back to its left edge, under the rows it is not part of.
  return (extras.columns ? rows.flatMap((row) => wrapToCells(row, extras.columns ?? 0)) : rows).join("\n");
}

/** When there is no loop: say so, what the last one did, and the start command beside `command` (as typed). */
export function renderNoLoop(shown: string, last: HistoryRecord | undefined, command: string): string {
  const lines = [`continuation-loop: no loop is running (no ${shown}).`];
  // The project's last loop may be another file's (another session's loop): it is named then.
  const other = last?.state_file && last.state_file !== shown ? ` (${last.state_file})` : "";
  if (last)
    lines.push(
      clipRow(
        `  last loop${other}: ${renderDecision(last)}${last.goal ? ` — goal: ${renderGoalLine(last.goal)}` : ""}`,
      ),
    );
  lines.push(`  start one with ${renderSiblingCommand(command, "start")} [options] GOAL`);
  return lines.join("\n");
}

/** One line about another loop of the project, under the status `command` (as typed). */
export function renderOtherLoop(
  name: string,
  state: LoopState | undefined,
  sessionId: string | undefined,
  command: string,
): string {
  if (!state) return `  other loop ${name}: state file invalid (${command} --name ${name} says why)`;
  const owner = !state.session_id
    ? "unclaimed"
    : state.session_id === sessionId
      ? "this session"
      : `session ${shortId(state.session_id)}`;
  return clipRow(
    `  other loop ${name}: ${state.active ? "running" : "paused"}, iteration ${state.iteration_count}/${state.max_iterations}, ${owner} — ${renderGoalLine(state.body, 60)}`,
  );
}
