import { FIELD_NAMES, FIELD_RULES, type LoopState } from "./fields.js";
import { BOOLEAN_FIELDS, flagOf } from "./parseStartArgs.js";
import { renderFinish, renderLimits } from "./renderStop.js";

/** Marks text this plugin adds when a loop starts, stops or is inspected (never the loop marker). */
export const COMMAND_MARKER = "[continuation-loop]";

const quoteList = (phrases: string[]) => phrases.map((p) => JSON.stringify(p)).join(" or ");

/** What Claude reads when /loop-start succeeded: begin now, here is the goal, the finish line and the limits. */
export function renderStartContext(state: LoopState, shown: string, now: number): string {
  const owner = state.session_id
    ? "bound to this session"
    : "not bound to a session yet (the first session that stops claims it)";
  return [
    `${COMMAND_MARKER} The user started a continuation loop (${shown}, ${owner}). Begin working on the goal now.`,
    "Each time you stop, the Stop hook sends you back to this goal until the loop ends.",
    `Goal:\n${state.body.trim()}`,
    `How to finish:\n${renderFinish(state)}`,
    `Limits: ${renderLimits(state, state.runtime, state.iteration_count, now)}`,
    "The user steers the loop by editing the state file and ends it with /loop-stop.",
  ].join("\n\n");
}

/** One line for the user (systemMessage or terminal). */
export function renderStartSummary(state: LoopState, shown: string): string {
  const promise = state.completion_promise.length
    ? `promise ${quoteList(state.completion_promise)}`
    : "no promise (runs until a limit or /loop-stop)";
  return `continuation-loop: loop started in ${shown}: up to ${state.max_iterations} iterations, ${promise}.`;
}

/** The options, one per line, for `--help`. */
export function renderStartUsage(): string {
  const lines = [
    "Usage: /loop-start [options] GOAL…   (or: continuation-loop start [options] GOAL…)",
    "Options come first; values may be quoted. From the first word that is not an option, the rest is the goal, verbatim.",
    'Use "--" before a goal that starts with "--".',
    "",
    "  --template NAME           start from templates/NAME.md (default, tdd, feature, debug)",
    "  --force                   replace a loop that is already running",
  ];
  for (const field of FIELD_NAMES) {
    const flag = BOOLEAN_FIELDS.has(field) ? `--${flagOf(field)}[=false]` : `--${flagOf(field)} VALUE`;
    const repeat = field === "completion_promise" ? " (repeatable: any one completes)" : "";
    lines.push(`  ${flag.padEnd(26)}${FIELD_RULES[field].expected}${repeat}`);
  }
  return lines.join("\n");
}
