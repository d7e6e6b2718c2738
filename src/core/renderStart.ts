import { renderTarget } from "./metric.js";
import type { FieldSpec } from "./fields.js";
import { expectedOf, FIELD_NAMES, FIELDS, flagOf, isBooleanField, USER_FIELDS } from "./fields.js";
import type { LoopState } from "./parseState.js";
import { makeRuntime } from "./sidecar.js";
import { renderFinish, renderLimits } from "./renderStop.js";

/** Marks text this plugin adds when a loop starts, stops or is inspected (never the loop marker). */
const COMMAND_MARKER = "[continuation-loop]";

const quoteList = (phrases: string[]) => phrases.map((p) => JSON.stringify(p)).join(" or ");

/** What Claude reads when /loop-start succeeded: begin now, here is the goal, the finish line and the limits. */
export function renderStartContext(state: LoopState, shown: string, now: number): string {
  const owner = state.session_id
    ? "bound to this session"
    : "not bound to a session yet (the first session that stops claims it)";
  return [
    `${COMMAND_MARKER} The user started a continuation loop (${shown}, ${owner}). Begin working on the goal now.`,
    "Each time you stop, the Stop hook sends you back to this goal until the loop ends.",
    ...(state.fresh_context
      ? [
          `fresh_context: each iteration after this one starts from a cleared context, with this goal sent again. Keep what the next iteration needs in ${state.notes_file ?? "the project's files"}.`,
        ]
      : []),
    `Goal:\n${state.body.trim()}`,
    `How to finish:\n${renderFinish(state)}`,
    `Limits: ${renderLimits(state, makeRuntime(), state.iteration_count, now)}`,
    "The user steers the loop by editing the state file and ends it with /loop-stop.",
  ].join("\n\n");
}

/** One line for the user (systemMessage or terminal). */
export function renderStartSummary(state: LoopState, shown: string): string {
  const promise = state.completion_promise.length
    ? `promise ${quoteList(state.completion_promise)}`
    : state.metric_target
      ? "no promise"
      : "no promise (runs until a limit or /loop-stop)";
  const metric =
    state.metric === undefined
      ? ""
      : `, metric \`${state.metric}\`${state.metric_target ? ` until ${renderTarget(state.metric_target)}` : ""}`;
  return `continuation-loop: loop started in ${shown}: up to ${state.max_iterations} iterations, ${promise}${metric}.`;
}

/** The placeholder after a flag, from the field's type. */
function argOf(type: string): string {
  if (type.startsWith("int")) return "N";
  if (type.includes("90s") || type.startsWith("duration")) return "DURATION";
  if (type.startsWith("path")) return "PATH";
  return "TEXT";
}

/** `--help`: the user fields' flags from the field table, aligned, under the command name as typed. */
export function renderStartUsage(command = "/loop-start"): string {
  const rows: [string, string][] = [
    ["--name NAME", "a named loop: .claude/continuation-loop.NAME.local.md (a-z, 0-9, -)"],
    ["--template NAME", "start from templates/NAME.md (default, tdd, feature, debug)"],
    ["--force", "replace the loop this session already runs"],
    ["--again [N]", "start the N-th most recent finished loop again, with its goal and fields (1 = the last)"],
  ];
  for (const field of USER_FIELDS) {
    const flag = isBooleanField(field)
      ? `--${flagOf(field)}[=false]`
      : `--${flagOf(field)} ${argOf(FIELDS[field].type)}`;
    rows.push([flag, `${expectedOf(field)}${field === "completion_promise" ? "; repeat it for several" : ""}`]);
  }
  const width = Math.max(...rows.map(([flag]) => flag.length)) + 2;
  return [
    `Usage: ${command} [options] GOAL…`,
    "Options come first; values may be quoted. From the first word that is not an option, the rest is the goal,",
    'verbatim. Put "--" before a goal that starts with "--".',
    "",
    ...rows.map(([flag, text]) => `  ${flag.padEnd(width)}${text}`),
  ].join("\n");
}

/** docs/REFERENCE.md's field table, made from FIELDS (test/unit/fields.test.ts compares the two). */
export function renderFieldTable(): string {
  const rows = FIELD_NAMES.map((field) => {
    const spec: FieldSpec = FIELDS[field];
    return `| \`${field}\` | ${spec.type} | ${spec.meaning} | \`${spec.example}\` |`;
  });
  return ["| field | type, default | meaning | example |", "|---|---|---|---|", ...rows].join("\n");
}
