// The command table's rows the prompt hook may run: the slash commands, and what they share with the
// helper. The same runner answers `/loop-stop` in a session and `continuation-loop stop` in a terminal.
import { LoopError } from "../core/errors.js";
import { chooseSessionLoop, type LoopFile, loopFileAt, renderHistoryShown } from "../core/loopFiles.js";
import { renderSiblingCommand } from "../core/loopCommand.js";
import { renderGoBackground, renderPermissionNote } from "../core/renderBackground.js";
import { parseStartArgs, parseStartArgv } from "../core/parseStartArgs.js";
import { decideRestart } from "../core/restartRequest.js";
import { renderPreparedSummary, renderStartCard, renderStartUsage } from "../core/renderStart.js";
import { readPastRecords } from "../io/readReportHistory.js";
import { scanLoops } from "../io/listLoops.js";
import { readClaudeProcess } from "../io/processes.js";
import { renderCutShort, renderHooksOffRow } from "../core/hooksOff.js";
import { readLeftLock } from "../io/lock.js";
import {
  ALL,
  type CommandCall,
  type CommandRow,
  chooseTargetLoop,
  NAME,
  PROJECT,
  readAnswerColumns,
  say,
  stringOption,
} from "./commandTable.js";
import { EXIT } from "./context.js";
import { type ArgsSpec, type OptionSpec, parseCliArgs, parseWholeNumber } from "./parseCliArgs.js";
import { readModuleLive } from "./moduleBridge.js";
import { resumeInBackground } from "./backgroundResume.js";
import { startInBackground } from "./backgroundStart.js";
import { pauseLoop } from "./pauseLoop.js";
import { readHooksOff } from "./readHooksOff.js";
import { readStatus } from "./readStatus.js";
import { runReport } from "./reportCommand.js";
import { resumeLoop } from "./resumeLoop.js";
import { startLoop } from "./startLoop.js";
import { readStatusEverywhere } from "./statusEverywhere.js";
import { stopLoop } from "./stopLoop.js";

/** The Claude Code process of the session typing the command (a slash command, or a `!` line), when there is one. */
const readOwnerPid = (call: CommandCall) => (call.session ? readClaudeProcess(call.ctx.env) : "");

function runStart(call: CommandCall): number {
  if (call.argv.slice(0, 2).includes("--again"))
    return runRestart({ ...call, ...parseCliArgs(call.command, call.argv, AGAIN) });
  // From a terminal, `start --bg … GOAL -- CLAUDE_ARGS…`: the first `--` starts Claude Code's own arguments.
  const cut = call.argv.indexOf("--");
  const before =
    call.line === undefined && cut >= 0 ? parseStartArgv(call.argv.slice(0, cut), call.command) : undefined;
  if (before?.background && !before.help && !before.card)
    return startInBackground(before, readClaudeArgs(call.argv.slice(cut + 1), call.command), call);
  const request =
    call.line === undefined ? parseStartArgv(call.argv, call.command) : parseStartArgs(call.line, call.command);
  if (request.background && !call.slash && !request.help && !request.card) return startInBackground(request, [], call);
  if (request.help) return say(call, renderStartUsage(call.command, readAnswerColumns(call)));
  if (request.card) {
    call.ctx.err(`continuation-loop: a goal is required.\n${renderStartCard(call.command, readAnswerColumns(call))}\n`);
    return EXIT.usage;
  }
  if (request.worktree !== undefined)
    throw new LoopError("USAGE", "--worktree starts the loop in a new background session", {
      file: call.command,
      field: "--worktree",
      expected: call.slash
        ? "continuation-loop start --bg --worktree NAME GOAL, run in a terminal"
        : "--bg --worktree NAME GOAL",
    });
  const started = startLoop(request, call.ctx, call.root, call.session, readOwnerPid(call));
  if (!started.state.active) return say(call, renderPreparedSummary(started.state, started.file, call.command));
  const told = [
    started.summary,
    request.background && renderGoBackground(readModuleLive(call.ctx.env)),
    renderPermissionNote(call.permissionMode),
  ];
  return call.tell(told.filter(Boolean).join("\n"), started.context);
}

/** Claude Code's arguments that choose the session or the mode: `start --bg` sets them itself. */
const SESSION_ARGS = new Set([
  "-p",
  "--print",
  "--session-id",
  "-r",
  "--resume",
  "-c",
  "--continue",
  "--fork-session",
  "--bg",
  "--background",
  "-w",
  "--worktree",
]);

/** The words after `--`, passed to `claude --bg` unchanged; those that choose the session are refused. */
function readClaudeArgs(args: string[], command: string): string[] {
  const chosen = args.find((arg) => SESSION_ARGS.has(arg.split("=")[0] ?? arg));
  if (chosen !== undefined)
    throw new LoopError("USAGE", `${chosen} is start --bg's to set`, {
      file: command,
      field: "-- CLAUDE_ARGS",
      expected:
        "Claude Code options such as --permission-mode, --allowedTools or --model (--worktree NAME is start's own)",
    });
  return args;
}

/**
 * `restart [N] [--name NAME] [--force]`, `/loop-start --again …` (docs/REFERENCE.md "History"): the N-th last
 * finished loop (of that name) again, in the file of its name.
 */
function runRestart(call: CommandCall): number {
  const back = parseWholeNumber(call.words[0], "N", call.command, 1);
  const name = stringOption(call, "name");
  const file = loopFileAt(call.root, name ?? "default");
  const { historyPath } = file;
  const history = renderHistoryShown(file);
  const records = readPastRecords(historyPath, history);
  const retry = call.options.again === true ? `${call.command} --again` : call.command;
  const request = decideRestart(records, back, call.options.force === true, history, name && file.shown, retry);
  const started = startLoop(request, call.ctx, call.root, call.session, readOwnerPid(call));
  return call.tell(started.summary, started.context);
}

/**
 * The loop `stop` and `pause` act on: the command's target (`chooseTargetLoop`), but from a session that runs no
 * loop, another live session's loop only when `--name` names it (docs/REFERENCE.md "Which loop a command acts on").
 */
function chooseOwnLoop(call: CommandCall, verb: string): LoopFile {
  if (call.session === undefined || stringOption(call, "name") !== undefined) return chooseTargetLoop(call);
  const { loops } = scanLoops(call.root, call.ctx.env);
  const other = chooseSessionLoop(loops, call.session) ? undefined : loops[0];
  if (other)
    throw new LoopError("LOOP_RUNNING", `this session runs no loop; ${other.file.name} is session ${other.owner}'s`, {
      file: other.file.shown,
      expected: `${call.command} --name ${other.file.name} to ${verb} it`,
    });
  return chooseTargetLoop(call);
}

function runStop(call: CommandCall): number {
  const files = call.options.all
    ? scanLoops(call.root, call.ctx.env).loops.map((l) => l.file)
    : [chooseOwnLoop(call, "stop")];
  const lines = files.map((file) => stopLoop(file, call.ctx.now(), call.session).message);
  return say(call, lines.join("\n") || "continuation-loop: no loop is running; nothing to stop.");
}

/** A session runs one loop at most: it takes over another only once its own has ended (docs/REFERENCE.md "Several loops"). */
function refuseSecondLoop(call: CommandCall, file: LoopFile): void {
  if (call.session === undefined) return;
  const own = scanLoops(call.root, call.ctx.env).loops.find(
    (loop) => loop.owner === call.session && loop.file.statePath !== file.statePath,
  );
  if (own)
    throw new LoopError("LOOP_RUNNING", `this session already runs a loop (${own.file.name})`, {
      file: file.shown,
      expected: `${renderSiblingCommand(call.command, "stop")} --name ${own.file.name} first, then resume this one`,
    });
}

function runResume(call: CommandCall): number {
  const { ctx, session } = call;
  const file = chooseTargetLoop(call);
  if (call.options.bg === true) return resumeInBackground(file, call);
  refuseSecondLoop(call, file);
  const force = call.options.force === true;
  const resumed = resumeLoop(file, {
    sessionId: session,
    now: ctx.now(),
    force,
    claudePid: readClaudeProcess(ctx.env),
    env: ctx.env,
    command: call.command,
  });
  return call.tell(resumed.message, resumed.context);
}

const runPause = (call: CommandCall) =>
  say(call, pauseLoop(chooseOwnLoop(call, "pause"), call.session, call.ctx.now(), call.command));

function runStatus(call: CommandCall): number {
  const { ctx, session, options } = call;
  // From a terminal, --all reaches the project's worktrees and Claude Code's background sessions too.
  if (options.all === true && !call.slash) return say(call, readStatusEverywhere(call.root, ctx));
  const file = chooseTargetLoop(call);
  const status = readStatus(file, ctx.env, ctx.now(), session, options.all === true, call.command, ctx.columns);
  // Settings that turn the hooks off are said under the loop: from a terminal, and from the companion module,
  // which answers /loop-status itself where Claude Code took the hooks away mid-session.
  const off = readHooksOff(call.root, ctx.env, ctx.home);
  const rows = [
    ...(off ? [renderHooksOffRow(off)] : []),
    ...(readLeftLock(file.statePath) !== undefined ? [renderCutShort(file.shown)] : []),
  ];
  return say(call, [status, ...rows.map((row) => `  ${row}`)].join("\n"));
}

const REPLACE: OptionSpec = { help: "replace the loop this session already runs" };
const LAST_OF: OptionSpec = { ...NAME, help: "the last finished loop of that name (its file), not the last of all" };
/** `start --again [N] [--name NAME] [--force]` is `restart [N] [--name NAME] [--force]`. */
const AGAIN: ArgsSpec = {
  words: { usage: "[N]", max: 1 },
  options: { again: { help: "restart" }, name: LAST_OF, force: REPLACE },
};
const TAKE_OVER: OptionSpec = { help: "take over a loop whose session still runs" };
const LAST: OptionSpec = { ...NAME, help: "that loop's report rather than the last loop's" };
const HTML: OptionSpec = { value: "FILE", help: "write the page with charts to FILE", terminalOnly: true };

/** In the order the helper's usage lists them. */
export const LOOP_COMMANDS: Record<string, CommandRow> = {
  start: {
    summary: "start a loop; inside Claude Code (a ! line) it is bound to the session",
    own: { usage: "[options] GOAL…" },
    slash: true,
    run: runStart,
  },
  restart: {
    summary: "start the N-th most recent finished loop again, with its goal and fields (1 = the last)",
    words: { usage: "[N]", max: 1 },
    options: { name: LAST_OF, force: REPLACE, project: PROJECT },
    run: runRestart,
  },
  stop: {
    summary: "end a loop now (history reason: stopped)",
    options: { name: NAME, all: ALL, project: PROJECT },
    slash: true,
    run: runStop,
  },
  pause: {
    summary: "pause a loop (active: false)",
    options: { name: NAME, project: PROJECT },
    slash: true,
    run: runPause,
  },
  resume: {
    summary: "resume a paused loop, or take over one whose session has ended",
    options: {
      name: NAME,
      force: TAKE_OVER,
      bg: {
        help: "in its Claude Code background session again, after the session's process was killed or restarted",
        terminalOnly: true,
      },
      project: PROJECT,
    },
    slash: true,
    run: runResume,
  },
  status: {
    summary: "a loop's iteration, limits used and left, elapsed time, tokens, spend, owner, last decisions",
    options: {
      name: NAME,
      all: {
        help: "every loop of the project (from a terminal: and of its worktrees, with their background sessions)",
      },
      project: PROJECT,
    },
    slash: true,
    run: runStatus,
  },
  report: {
    summary: "the last (or named) loop's story: Markdown for a pull request, or a page with charts",
    options: { name: LAST, html: HTML, project: PROJECT },
    slash: true,
    run: runReport,
  },
};

/** The slash commands: the rows `/loop-NAME` runs too, each with its file in .claude/commands. */
export const SLASH_NAMES = Object.keys(LOOP_COMMANDS).filter((name) => LOOP_COMMANDS[name]?.slash);
export const SLASH_COMMAND_FILES = SLASH_NAMES.map((name) => `loop-${name}.md`);
