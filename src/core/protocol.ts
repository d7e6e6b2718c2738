// What the command hooks and the companion module say to each other (docs/REFERENCE.md "The companion module";
// docs/ARCHITECTURE.md "The companion module"): the markers that open the texts Claude is sent, the lines the Stop
// hook ends a continuation with for the module, and the environment variables the module sets for the
// command hooks. Both sides import this file. No imports: the idle prompt hook loads it.

/** The first words of every continuation prompt (docs/REFERENCE.md "What you see while a loop runs"). */
export const LOOP_MARKER = "[SYSTEM REMINDER - CONTINUATION LOOP ACTIVE]";

/** The first words of the todo reminder (docs/REFERENCE.md "Todo reminder"). */
export const TODO_MARKER = "[SYSTEM REMINDER - TODO CONTINUATION]";

/** The line before the module's id line that asks it to clear the context first (docs/REFERENCE.md "Fresh context"). */
export const FRESH_LINE = "[continuation-loop fresh context]\n";

/**
 * The line before the module's id line that asks it to send the session to the background with the prompt, as
 * Claude Code's `/background PROMPT` does (`/loop-start --bg`; docs/REFERENCE.md "Leave it running").
 */
export const BACKGROUND_LINE = "[continuation-loop background]\n";

/** The line the Stop hook ends its continuation with when the module handed it the Stop's `id`. */
export const renderStopLine = (id: string): string => `[continuation-loop stop ${id}]`;

/** The ids the Stop hook accepts from the module: anything else is not the module's, and gets no id line. */
export const STOP_ID_PATTERN = /^[A-Za-z0-9-]{8,64}$/;

/**
 * The environment the module sets for the command hooks. The module spells these names as literals in its
 * `$.env` calls (Claude Code reads its source); test/unit/protocol.test.ts checks they are these.
 */
export const MODULE_ENV = {
  /** Set by the user: `0` turns the module off. */
  off: "CONTINUATION_LOOP_MODULE",
  /** Set at session start: the Claude Code version the module runs in. */
  live: "CONTINUATION_LOOP_MODULE_LIVE",
  /** Claude Code's session cost (USD), set before each Stop hook runs. */
  cost: "CONTINUATION_LOOP_COST_USD",
  /** The session's cost figure when the running turn started. */
  turnCost: "CONTINUATION_LOOP_TURN_COST_USD",
  /** A fresh id per Stop: the continuation that ends with it came from this hook, this Stop. */
  stopId: "CONTINUATION_LOOP_STOP_ID",
  /** For a StopFailure only: `1`, the module goes on by itself after the wait. */
  resume: "CONTINUATION_LOOP_RESUME",
  /** For a StopFailure only: Claude Code's reset time of the limit hit (ISO time). */
  resetsAt: "CONTINUATION_LOOP_RESETS_AT",
  /** `1` for the continuation after a `/rewind`: the prompt hook gives Claude the loop again. */
  rewound: "CONTINUATION_LOOP_REWOUND",
  /** Tests only: the module throws at one step (load|stop|turn|draw|clear). */
  fault: "CONTINUATION_LOOP_MODULE_FAULT",
} as const;

/**
 * Set by the module for a command hook whose answer it shows between turns: the cells a row of that answer has
 * (the terminal's width less Claude Code's indent), so rows wrap at words instead of back to the left edge.
 */
export const ANSWER_COLUMNS_ENV = "CONTINUATION_LOOP_COLUMNS";

/**
 * A prompt the companion module submitted for the loop: the Stop hook's own continuation text, so it
 * begins with the marker. It is not a person's prompt: it never resumes a paused loop, never answers
 * Claude's question and gets no todo reminder.
 */
export function isLoopContinuation(prompt: string | undefined): boolean {
  return prompt?.startsWith(LOOP_MARKER) === true;
}

/**
 * `continuation-loop start --bg` (docs/REFERENCE.md "Leave it running"): the loop's file names this owner, which is
 * no session's, until the background session the helper started takes the loop at its first prompt.
 */
export const BACKGROUND_START = "background-start-";
const TAKE_OVER_LINE = /^\[SYSTEM REMINDER - CONTINUATION LOOP ACTIVE\] [^\n]*\(takes over from ([A-Za-z0-9-]{8,64})\)/;

/**
 * The first prompt of a background session the helper starts (`start --bg`, `resume --bg`): the marker, what
 * happened, and the owner whose loop this session takes: the placeholder of a start, or the session whose
 * process ended (Claude Code may go on in a copy of it, under another id).
 */
export const renderTakeOverPrompt = (owner: string, opening: string, context: string): string =>
  `${LOOP_MARKER} ${opening} (takes over from ${owner}).\n\n${context}`;

/** The owner such a first prompt names, or undefined for any other prompt. */
export function parseTakeOver(prompt: string | undefined): string | undefined {
  return prompt === undefined ? undefined : TAKE_OVER_LINE.exec(prompt)?.[1];
}

/** The words after the marker that open the prompt the module sends when the loop goes on after an API error. */
export const API_RESUME_OPENING = `${LOOP_MARKER} The wait after an API error is over`;

/** That prompt (README "Leave it running"): recorded as the loop's resume, and refused when the loop no longer runs. */
export function isApiResume(prompt: string | undefined): boolean {
  return prompt?.startsWith(API_RESUME_OPENING) === true;
}

/** The words after the marker that open the prompt the module sends when `background_wait` has passed. */
export const BACKGROUND_WAKE_OPENING = `${LOOP_MARKER} The wait for background work is over`;

/** That prompt (docs/REFERENCE.md "Background work"): recorded as the loop's resume, refused when the loop no longer runs. */
export function isBackgroundWake(prompt: string | undefined): boolean {
  return prompt?.startsWith(BACKGROUND_WAKE_OPENING) === true;
}

/**
 * The prompt of the turn Claude Code starts by itself when a background task finishes: a
 * `<task-notification>` block, on every version measured (docs/REFERENCE.md "Background work"). No person
 * sent it: it answers no question, resumes no loop and gets no todo reminder.
 */
export function isTaskNotification(prompt: string | undefined): boolean {
  return prompt?.trimStart().startsWith("<task-notification>") === true;
}

/**
 * Does this notification prompt say one of these tasks finished? Claude Code names the task in a `<task-id>` line
 * of the block, on both pinned versions (docs/REFERENCE.md "Background work").
 */
export function namesFinishedTask(prompt: string, ids: readonly string[]): boolean {
  if (!isTaskNotification(prompt)) return false;
  const id = /<task-id>([^<]*)<\/task-id>/.exec(prompt)?.[1]?.trim();
  return id !== undefined && ids.includes(id);
}
