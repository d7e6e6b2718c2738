// A permission prompt Claude Code waits on while a loop runs (docs/REFERENCE.md "Leave it running"). Pure.

/** The calls a permission prompt may be for, as the transcripts show them when the Notification comes. */
export interface PendingCalls {
  /** The tool the main thread's last reply calls. */
  main?: string | undefined;
  /** The tool a subagent's last reply calls (its own transcript). */
  subagent?: string | undefined;
}

/** The main thread's calls that run a subagent: such a call asks nothing itself, its subagent's tools may. */
const AGENT_TOOLS = new Set(["Agent", "Task"]);

/**
 * The tool a permission prompt is for. 2.1.332's message names the main thread's tool ("… permission to use Bash");
 * neither version's names a subagent's, nor 2.1.197's any. Then the main thread's pending call, unless it runs a
 * subagent; then a subagent's pending call, said to be one; else a subagent's or any tool, unnamed, never a wrong one.
 */
export function parsePermissionTool(message: string | undefined, pending: PendingCalls = {}): string {
  const named = /permission to use ([^\s]+)/.exec(message ?? "")?.[1]?.replace(/[.,:;]+$/, "");
  if (named) return named;
  const runsSubagent = pending.main !== undefined && AGENT_TOOLS.has(pending.main);
  if (pending.main && !runsSubagent) return pending.main;
  if (pending.subagent) return `${pending.subagent}, from a subagent`;
  return runsSubagent ? "a subagent's tool" : "a tool";
}

/** A call a reply ends on: its tool, its id, and the transcript that holds it. */
export interface PendingCall {
  name: string;
  id: string;
  transcript: string;
}

/**
 * The call a permission prompt is for, by the rule parsePermissionTool names its tool, or undefined when that is
 * unsure (the message names another tool than the main thread's pending call): never a wrong call.
 */
export function choosePendingCall(
  message: string | undefined,
  main: PendingCall | undefined,
  subagent: PendingCall | undefined,
): PendingCall | undefined {
  const named = parsePermissionTool(message);
  const call = main && !AGENT_TOOLS.has(main.name) ? main : subagent;
  if (call && named !== "a tool" && (call !== main || named !== call.name)) return undefined;
  return call;
}

/** What status and the band say while Claude Code waits for a permission answer. */
export const renderPermissionWait = (wait: { tool: string }): string => `waiting for your permission (${wait.tool})`;

/** What a loop that stalled on tools Claude Code refused tells the person: which, and how to let them run. */
export function renderRefusedStall(tools: readonly string[]): string {
  return `Claude Code refused ${tools.join(", ")} in the last turn: allow what the goal needs (permissions.allow, or the PreToolUse hook that denies it) or change the goal.`;
}
