import { LoopError } from "../core/errors.js";
import { EXIT, type Context } from "./context.js";
import { runCheckpoints, runRestore } from "./checkpointCommands.js";
import { runDoctor } from "./doctor.js";
import { runHistory } from "./historyCommand.js";
import { runInstall } from "./install.js";
import { runReport } from "./reportCommand.js";
import { runPause, runRestart, runResume, runStart, runStatus, runStop } from "./loopCommands.js";
import { runStatusline } from "./statusline.js";
import { runUninstall } from "./uninstall.js";
import { runView } from "./viewCommand.js";

type Command = (argv: string[], ctx: Context) => number;

const COMMANDS: Record<string, { run: Command; summary: string }> = {
  start: {
    run: runStart,
    summary: "start [options] GOAL…     start a loop (see `start --help`); binds to $CLAUDE_CODE_SESSION_ID when set",
  },
  restart: {
    run: runRestart,
    summary: "restart [N] [--force]     start the N-th most recent finished loop again (goal and fields; 1 = the last)",
  },
  stop: { run: runStop, summary: "stop [--name N | --all]   end a loop now (history reason: stopped)" },
  pause: { run: runPause, summary: "pause [--name N]          pause a loop (active: false); resume brings it back" },
  resume: {
    run: runResume,
    summary: "resume [--name N] [--force] resume a paused loop (--force takes over another session's)",
  },
  status: {
    run: runStatus,
    summary: "status [--name N | --all] iteration, limits used/left, elapsed, tokens, owner, last decisions",
  },
  checkpoints: {
    run: runCheckpoints,
    summary: "checkpoints [--name N]    a loop's working-tree checkpoints: iteration, time, files changed",
  },
  restore: {
    run: runRestore,
    summary:
      "restore N|best [--name N] put iteration N's (or the best metric's) checkpoint back (refused over changes no checkpoint has)",
  },
  history: { run: runHistory, summary: "history [--limit N] [--all] [--json]   past loops as a table" },
  report: {
    run: runReport,
    summary:
      "report [--name N] [--html FILE] the last (or named) loop from the history: Markdown for a pull request, or a page with charts",
  },
  statusline: {
    run: runStatusline,
    summary: "statusline                one line for Claude Code's statusLine setting (reads its JSON on stdin)",
  },
  install: {
    run: runInstall,
    summary: "install [--project DIR]   copy hooks, commands and templates into DIR/.claude and register the hooks",
  },
  uninstall: { run: runUninstall, summary: "uninstall [--project DIR] remove exactly what install added" },
  doctor: {
    run: runDoctor,
    summary: "doctor [--project DIR]    check the install, the state file and Claude Code's block cap",
  },
  view: {
    run: runView,
    summary:
      "view [--name N]           a loop's state and bookkeeping as JSON (what the companion module's band draws)",
  },
};

function renderUsage(): string {
  return [
    "Usage: continuation-loop <command> [options]",
    "",
    ...Object.values(COMMANDS).map((c) => `  ${c.summary}`),
    "",
    "Exit codes: 0 success; 1 the command failed (invalid state or settings file, a loop already running, doctor found a problem); 2 bad arguments.",
    "The project is $CLAUDE_PROJECT_DIR when set, else the current folder; CONTINUATION_LOOP_FILE moves the state file.",
  ].join("\n");
}

/** `continuation-loop …` → exit code. Errors are one line naming file, field and expected value; never a stack trace. */
export function runCli(argv: string[], ctx: Context): number {
  const [name, ...rest] = argv;
  if (name === undefined || name === "--help" || name === "-h" || name === "help") {
    ctx.out(`${renderUsage()}\n`);
    return name === undefined ? EXIT.usage : EXIT.ok;
  }
  const command = COMMANDS[name];
  if (!command) {
    ctx.err(`continuation-loop: unknown command ${JSON.stringify(name)}.\n\n${renderUsage()}\n`);
    return EXIT.usage;
  }
  try {
    return command.run(rest, ctx);
  } catch (error) {
    if (error instanceof LoopError) {
      ctx.err(`continuation-loop: ${error.describe()}.\n`);
      return error.code === "USAGE" ? EXIT.usage : EXIT.failed;
    }
    ctx.err(`continuation-loop: internal error (${error instanceof Error ? error.message : String(error)}).\n`);
    return EXIT.failed;
  }
}
