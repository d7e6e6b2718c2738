// What the person is told about a loop left running (docs/REFERENCE.md "Leave it running"): whether the session's
// permission mode will stop it at a prompt nobody sees, and how the session goes to the background. Pure.
import type { HistoryRecord } from "./history.js";
import type { LoopState } from "./parseState.js";
import { BACKGROUND_START } from "./protocol.js";
import { readPause } from "./sidecar.js";
import { renderGoalLine } from "./renderStatus.js";
import type { Runtime } from "./sidecar.js";
import { renderPermissionWait } from "./permissionWait.js";
import { renderShellWord } from "./renderShellWord.js";
import { parseStateFileName, renderNameFlag } from "./loopFileNames.js";

/** Permission modes in which Claude Code asks a person before a tool that no rule allows (measured). */
const ASKING_MODES = new Set(["default", "acceptEdits", "plan"]);

/** One line when the permission mode will ask; undefined when it will not (or says nothing to go by). */
export function renderPermissionNote(mode: string | undefined): string | undefined {
  if (mode === undefined || !ASKING_MODES.has(mode)) return undefined;
  if (mode === "plan")
    return `continuation-loop: permission mode plan asks before each tool, and Claude cannot edit in it: the loop waits, its turns not counted, until the session leaves plan mode (you accept Claude's plan, or shift+tab), which nobody does for a loop left alone or in -p (docs/REFERENCE.md "Plan mode").`;
  return `continuation-loop: permission mode ${mode} asks before each tool your settings do not allow, and nobody answers for a loop left alone: allow what it needs (permissions.allow), or run Claude Code with --permission-mode auto or dontAsk (README "Leave it running").`;
}

/** `/loop-start --bg`: how this session goes to the background, with the companion module or without. */
export function renderGoBackground(moduleLive: boolean): string {
  return moduleLive
    ? "continuation-loop: when this first iteration ends, the session goes to the background (as /background does) and the loop goes on there; `claude agents` lists it, `claude attach` opens it."
    : "continuation-loop: type /background now to send this session to the background; the loop goes on there (`claude agents` lists it, `claude attach` opens it).";
}

/** What `start --bg` prints: the session's id and how to watch, attach and stop it. */
export function renderBackgroundStarted(started: {
  short: string;
  /** startLoop's one line: where the loop is and what ends it. */
  summary: string;
  /** The worktree the loop runs in, relative to the project; undefined: the project itself. */
  worktree: string | undefined;
  name: string;
  /** The session took the loop within the helper's wait. */
  taken: boolean;
}): string[] {
  const { short, worktree } = started;
  const where = worktree === undefined ? "" : ` in the worktree ${worktree}`;
  const project = worktree === undefined ? "" : ` --project ${worktree}`;
  const named = renderNameFlag(started.name);
  // startLoop's line names the file after "loop started in": said once, the session first.
  const file = started.summary.replace(/^continuation-loop: loop started in /, "");
  return [
    `continuation-loop: loop started in the background session ${short}${where}: ${file}`,
    `  watch   claude logs ${short}   (claude agents lists every session)`,
    `  attach  claude attach ${short}`,
    `  stop    continuation-loop stop${project}${named}   (the session itself: claude stop ${short})`,
    `  status  continuation-loop status --all`,
    ...(started.taken
      ? []
      : [
          `continuation-loop: the session has not taken the loop yet; \`claude attach ${short}\` shows what it waits for (is the plugin loaded there?).`,
        ]),
  ];
}

/** One loop of the project or of one of its worktrees, for `status --all`. */
export interface LoopEverywhere {
  /** Where its files are: `.` for the project, else the worktree's path. */
  where: string;
  name: string;
  state: LoopState | undefined;
  runtime: Runtime | undefined;
  /** Its session's background session, when it runs in one. */
  session: { id: string; status?: string; state?: string } | undefined;
}

/** The owner of a loop, with its background session's id and Claude Code's word on it. */
function renderSession(loop: LoopEverywhere): string {
  const owner = loop.state?.session_id;
  if (loop.session) {
    const status = [loop.session.status ?? "not running", loop.session.state].filter(Boolean).join(", ");
    return `background session ${loop.session.id} (${status})`;
  }
  if (owner === undefined) return "no session yet";
  return owner.startsWith(BACKGROUND_START) ? "starting in a background session" : `session ${owner.slice(0, 8)}`;
}

/** A worktree with no loop now, whose last loop ended: its history's last record. */
export interface EndedLoop {
  where: string;
  record: HistoryRecord;
}

/** "  .claude/worktrees/auth: ended (completed) at iteration 2, … — goal; its report: …". */
function renderEndedLoop({ where, record }: EndedLoop): string {
  const named = renderNameFlag(parseStateFileName(/[^/\\]*$/.exec(record.state_file ?? "")?.[0] ?? "") ?? "default");
  const time = record.time.replace("T", " ").replace(/(\.\d+)?Z$/, "Z");
  const goal = record.goal ? ` — ${renderGoalLine(record.goal, 60)}` : "";
  const report = `continuation-loop report --project ${renderShellWord(where)}${named}`;
  return `  ${where}${named}: ended (${record.reason ?? "?"}) at iteration ${record.iteration ?? "?"}, ${time}${goal}; its report: ${report}`;
}

/**
 * `continuation-loop status --all`: a row for every loop of the project and its worktrees, and for a worktree whose
 * loop has ended since (one left running overnight), how it ended.
 */
export function renderLoopsEverywhere(
  loops: LoopEverywhere[],
  sessionsKnown: boolean,
  ended: EndedLoop[] = [],
): string {
  const head =
    loops.length === 0
      ? `continuation-loop: no loop in this project or its worktrees${ended.length ? " runs now" : ""}.`
      : `continuation-loop: ${loops.length} loop${loops.length === 1 ? "" : "s"} in this project and its worktrees${sessionsKnown ? "" : " (Claude Code did not say which sessions run in the background)"}:`;
  const rows = loops.map((loop) => {
    const where = `${loop.where}${renderNameFlag(loop.name)}`;
    const { state, runtime } = loop;
    if (!state)
      return `  ${where}: the state file is not valid (continuation-loop status${loop.where === "." ? "" : ` --project ${renderShellWord(loop.where)}`}${renderNameFlag(loop.name)} says why)`;
    const held = !state.active || (runtime !== undefined && readPause(state.active, runtime) !== undefined);
    const waiting = runtime?.permission_wait ? `, ${renderPermissionWait(runtime.permission_wait)}` : "";
    return `  ${where}: ${held ? "paused" : "running"}, iteration ${state.iteration_count}/${state.max_iterations}${waiting}, ${renderSession(loop)} — ${renderGoalLine(state.body, 60)}`;
  });
  return [head, ...rows, ...ended.map(renderEndedLoop)].join("\n");
}

/** What `resume --bg` prints: where the loop goes on, and how to follow it. */
export function renderBackgroundResumed(resumed: {
  short: string;
  file: string;
  iteration: number;
  max: number;
  /** Claude Code started a copy of the session rather than the session itself. */
  copy: boolean;
}): string[] {
  const { short } = resumed;
  return [
    `continuation-loop: the loop goes on from iteration ${resumed.iteration}/${resumed.max} in the background session ${short} (${resumed.file}).`,
    `  watch   claude logs ${short}   ·   attach  claude attach ${short}   ·   status  continuation-loop status --all`,
    ...(resumed.copy
      ? [
          "continuation-loop: Claude Code went on in a copy of the session, under another id; the copy takes the loop over.",
        ]
      : []),
  ];
}
