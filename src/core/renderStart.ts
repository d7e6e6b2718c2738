import { renderGoal } from "./lineBreaks.js";
import { renderPromisePhrase } from "./matchPromise.js";
import { DEFAULT_PROMISE } from "./composeState.js";
import { renderDuration } from "./duration.js";
import { renderTarget } from "./metric.js";
import { FIELDS, flagOf, isBooleanField, isRepeatedField, USER_FIELDS } from "./fields.js";
import type { LoopState } from "./parseState.js";
import { makeRuntime, type Runtime } from "./sidecar.js";
import { LOOP_MARKER } from "./protocol.js";
import { cellWidth, wrapToCells } from "./cellWidth.js";
import { renderPlainText } from "./plainText.js";
import { renderOptionRows, renderParagraph } from "./renderHelp.js";
import { summaryOf } from "./renderFields.js";
import { renderFinish, renderLimits, renderScopeRule } from "./renderStop.js";
import { renderSiblingCommand } from "./loopCommand.js";
import type { LoopFile } from "./loopFiles.js";

/** Marks text this plugin adds when a loop starts, stops or is inspected (never the loop marker). */
const COMMAND_MARKER = "[continuation-loop]";

/** "Claude writes <promise>DONE</promise> or `npm test` exits 0": what ends the loop before a limit, or "". */
export function renderEndConditions(state: LoopState): string {
  const phrases = state.completion_promise.map((p) => renderPromisePhrase(p, state.promise_format));
  const ways = [
    ...(phrases.length ? [`Claude ${state.promise_format === "tag" ? "writes" : "says"} ${phrases.join(" or ")}`] : []),
    ...(state.until ? [`\`${state.until}\` exits 0`] : []),
    ...(state.checklist ? [`every box of ${state.checklist} is checked`] : []),
    ...(state.metric && state.metric_target
      ? [`\`${state.metric}\` reaches ${renderTarget(state.metric_target)}`]
      : []),
  ];
  const gates = [
    ...(state.verify ? [`\`${state.verify}\` must pass`] : []),
    ...(state.require_todos_done ? ["the todos must be done"] : []),
  ];
  if (ways.length === 0) return "";
  return `${ways.join(" or ")}${gates.length ? ` (${gates.join("; ")})` : ""}`;
}

/** The default end (README "Quick start"): the promise DONE in a tag, and nothing that proves the work. */
const endsOnDefaultPromise = (state: LoopState): boolean =>
  state.completion_promise.length === 1 &&
  state.completion_promise[0] === DEFAULT_PROMISE &&
  state.until === undefined &&
  state.verify === undefined &&
  state.checklist === undefined &&
  state.metric_target === undefined;

/** "It ends when … , or at a limit (…), or with `stop`": the sentence every start message carries. */
function renderEndSentence(state: LoopState, stop: string): string {
  const conditions = renderEndConditions(state);
  const limit = `${state.max_iterations} iteration${state.max_iterations === 1 ? "" : "s"}${state.max_duration !== undefined ? `, ${renderDuration(state.max_duration)}` : ""}${state.max_cost !== undefined ? `, $${state.max_cost}` : ""}`;
  return conditions
    ? `It ends when ${conditions}, or at a limit (${limit}), or with ${stop}.`
    : `It has no completion condition: it runs to a limit (${limit}) or ${stop}.`;
}

/**
 * What Claude reads when /loop-start succeeded: begin now, here is the goal, the finish line and the limits. A loop
 * that goes on (resumed, after compaction, a restarted `run`) gives its bookkeeping, so the limits say what is left.
 * Text only: it also reaches Claude Code as a prompt (`run`, `--bg`), where no hook's output cleans it.
 */
export function renderStartContext(state: LoopState, shown: string, now: number, runtime = makeRuntime()): string {
  const owner = state.session_id
    ? "bound to this session"
    : "not bound to a session yet (the first session that stops claims it)";
  const scope = renderScopeRule(state);
  const parts = [
    `${COMMAND_MARKER} The user started a continuation loop (${shown}, ${owner}). Begin working on the goal now.`,
    "Each time you stop, the Stop hook sends you back to this goal until the loop ends.",
    ...(state.fresh_context
      ? [
          `fresh_context: each iteration after this one starts from a cleared context, with this goal sent again. Keep what the next iteration needs in ${state.notes_file ?? "the project's files"}.`,
        ]
      : []),
    `Goal:\n${renderGoal(state.body)}`,
    `How to finish:\n${renderFinish(state)}`,
    `Limits: ${renderLimits(state, runtime, state.iteration_count, now)}`,
    ...(scope === undefined ? [] : [scope]),
    "The user steers the loop by editing the state file and ends it with /loop-stop.",
  ];
  return renderPlainText(parts.join("\n\n"));
}

/**
 * The loop given again to a Claude whose conversation lost it (compacted, rewound): the marker, the iteration, and
 * the start context from the goal on, with what is left of each limit.
 */
export function renderContextAgain(
  what: "compacted" | "rewound",
  state: LoopState,
  shown: string,
  now: number,
  runtime: Runtime,
): string {
  const rest = renderStartContext(state, shown, now, runtime).split("\n\n").slice(2).join("\n\n");
  return `${LOOP_MARKER} The conversation was ${what}; the continuation loop goes on (iteration ${state.iteration_count}/${state.max_iterations}).\n\n${rest}`;
}

/**
 * One line for the user (systemMessage or terminal): where the loop is (and beside which, when the default file was
 * taken), and what will end it.
 */
export function renderStartSummary(
  state: LoopState,
  file: Pick<LoopFile, "shown" | "name">,
  /** The command as the person typed it: the stop command named is its sibling. */
  command: string,
  beside?: string,
): string {
  const proof = endsOnDefaultPromise(state)
    ? ' To require proof instead: --until "npm test" (ends when the command passes) or --verify CMD (checks the promise).'
    : "";
  const where = beside ? `${file.shown}, beside the loop in ${beside}` : file.shown;
  return `continuation-loop: loop started in ${where}. ${renderEndSentence(state, renderSiblingCommand(command, "stop", file.name))}${proof}`;
}

/**
 * One line for a loop started paused (`--active=false`): it waits for `/loop-resume`, and Claude is given no turn on
 * it (the command's prompt is answered in the hook), as a loop paused by hand waits.
 */
export function renderPreparedSummary(
  state: LoopState,
  file: Pick<LoopFile, "shown" | "name">,
  command: string,
): string {
  return `continuation-loop: loop prepared in ${file.shown}, paused (active: false): Claude does not start on it now; ${renderSiblingCommand(command, "resume", file.name)} starts it. ${renderEndSentence(state, renderSiblingCommand(command, "stop", file.name))}`;
}

/** Where the card is fitted when the width is not known: any terminal's width (renderHelp.ts). */
const CARD_WIDTH = 80;

/**
 * The card's examples: the arguments, shorter ones for a row too narrow for them (a namespaced command in a
 * session's answer), and what ends the loop.
 */
const EXAMPLES: readonly (readonly [string, string, string])[] = [
  ['--until "npm test" Fix the failing tests', '--until "npm test" Fix the tests', "ends when `npm test` exits 0"],
  [
    "--checklist PLAN.md --max-iterations 30 Do the plan",
    "--checklist PLAN.md Do the plan",
    "ends when every box is checked",
  ],
  [
    '--verify "npm run build" --max-cost 5 Add a dark mode',
    '--verify "npm run build" Add dark mode',
    "ends on DONE once the build passes",
  ],
];

/**
 * The usage card (README "Quick start"): `/loop-start` with no goal, and the head of `--help`. `columns`: the
 * width when known. An example row that does not fit puts its explanation on a row of its own under the command,
 * and a command too long for the row takes the example's shorter arguments, so that a person copies a whole
 * command from one row; a command is never cut. When the width is not known (a pipe) the card is fitted to 80
 * columns, like `--help`.
 */
export function renderStartCard(command = "/loop-start", columns?: number): string {
  const width = (columns ?? CARD_WIDTH) - 1;
  // Each explanation follows its command, never padded into a column: a terminal narrower than the
  // longest example would wrap the padding into a gap across the row.
  const rows = EXAMPLES.flatMap(([args, shorter, why]) => {
    const row = `  ${command} ${args}  — ${why}`;
    if (cellWidth(row) <= width) return [row];
    const whole = cellWidth(`  ${command} ${args}`) <= width ? args : shorter;
    return [`  ${command} ${whole}`, `      — ${why}`];
  });
  // The head and the last row wrap at word breaks under themselves when the width is known.
  const wrapRow = (row: string) => (columns === undefined ? [row] : wrapToCells(row, width, 9));
  return [
    ...wrapRow(
      `Usage: ${command} [options] GOAL…  — Claude works on GOAL until it writes <promise>DONE</promise> or a limit (10 iterations).`,
    ),
    ...rows,
    ...wrapRow(
      `${command} --help lists every option; ${renderSiblingCommand(command, "status")} shows the loop, ${renderSiblingCommand(command, "stop")} ends it.`,
    ),
  ].join("\n");
}

/** The placeholder after a flag, from the field's type. */
function argOf(type: string): string {
  if (type.startsWith("int")) return "N";
  if (type === "USD") return "USD";
  if (type === "shell command") return "COMMAND";
  if (type.includes("90s") || type.startsWith("duration")) return "DURATION";
  if (type.startsWith("path")) return "PATH";
  return "TEXT";
}

/**
 * `--help`: the user fields' flags from the field table, what each does and its default, under the command
 * name as typed. `columns`: the terminal's width when the output is one.
 */
export function renderStartUsage(command = "/loop-start", columns?: number): string {
  const rows: [string, string][] = [
    ["--name NAME", "a named loop: .claude/continuation-loop.NAME.local.md (a-z, 0-9, -)"],
    ["--template NAME", "start from templates/NAME.md (default, tdd, feature, debug)"],
    ["--force", "replace the loop this session already runs"],
    ["--bg", "in a Claude Code background session: typed here, this session goes there; from a terminal, a new one"],
    ["--worktree NAME", "with --bg from a terminal: in the git worktree .claude/worktrees/NAME, a loop of its own"],
    ["--again [N]", "start the N-th most recent finished loop again, with its goal and fields (1 = the last)"],
    ["--again --name NAME", "the last finished loop of that name, again in its own file"],
  ];
  for (const field of USER_FIELDS) {
    const flag = isBooleanField(field)
      ? `--${flagOf(field)}[=false]`
      : `--${flagOf(field)} ${argOf(FIELDS[field].type)}`;
    rows.push([flag, `${summaryOf(field)}${isRepeatedField(field) ? "; repeat it for several" : ""}`]);
  }
  return [
    renderStartCard(command, columns),
    "",
    ...renderParagraph(
      'Options come first; values may be quoted. From the first word that is not an option, the rest is the goal, verbatim. Put "--" before a goal that starts with "--".',
      columns,
    ),
    "",
    ...renderOptionRows(rows, columns),
  ].join("\n");
}
