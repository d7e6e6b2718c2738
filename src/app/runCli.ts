import { LoopError } from "../core/errors.js";
import { readMeantName } from "../core/readMeantName.js";
import { renderOptionRows, renderParagraph } from "../core/renderHelp.js";
import { CHECKPOINTS_SHOWN, runCheckpoints, runRestore } from "./checkpointCommands.js";
import { type CommandRow, describeError, NAME, PROJECT, runRow, say } from "./commandTable.js";
import { type Context, EXIT, plainOutput } from "./context.js";
import { renderArgsUsage } from "./parseCliArgs.js";
import { runDoctor } from "./doctor.js";
import { runHistory } from "./historyCommand.js";
import { runInstall } from "./install.js";
import { packageVersion, refuseUnwritable } from "./installFiles.js";
import { LOOP_COMMANDS, SLASH_NAMES } from "./loopCommands.js";
import { runStatusline } from "./statusline.js";
import { runUninstall } from "./uninstall.js";
import { runView } from "./viewCommand.js";
import { runRun } from "./runCommand.js";

/** The command table: the loop's commands (loopCommands.ts), then the project's, which no hook loads. */
export const COMMANDS: Record<string, CommandRow> = {
  ...LOOP_COMMANDS,
  checkpoints: {
    summary: "a loop's working-tree checkpoints: iteration, time, files changed",
    options: {
      name: NAME,
      limit: { value: "N", help: `the last N checkpoints (default ${CHECKPOINTS_SHOWN})` },
      all: { help: "every checkpoint" },
      project: PROJECT,
    },
    run: runCheckpoints,
  },
  restore: {
    summary: "put iteration N's (or the best metric's) checkpoint back; refused over changes none holds",
    words: { usage: "N|best", max: 1 },
    options: { name: NAME, project: PROJECT },
    run: runRestore,
  },
  history: {
    summary: "past loops as a table, newest last",
    options: {
      limit: { value: "N", help: "the last N loops (default 20)" },
      all: { help: "every decision, not only each loop's end" },
      json: { help: "one JSON line per record" },
      project: PROJECT,
    },
    run: runHistory,
  },
  statusline: { summary: "one line for Claude Code's statusLine (its JSON on stdin)", run: runStatusline },
  install: {
    summary: "copy hooks, commands and templates into the project's .claude and register the hooks",
    options: { project: PROJECT },
    run: (call) => refuseUnwritable(() => runInstall(call)),
  },
  uninstall: {
    summary: "remove exactly what install added",
    options: { project: PROJECT },
    run: (call) => refuseUnwritable(() => runUninstall(call)),
  },
  doctor: {
    summary: "check the install, the state files and Claude Code's block cap",
    options: { project: PROJECT },
    run: runDoctor,
  },
  run: {
    summary: "start a loop and drive `claude -p` until it ends, for CI and scripts",
    own: { usage: "[options] [loop flags] GOAL… [-- CLAUDE_ARGS…]" },
    run: (call) => runRun(call.argv, call.ctx),
  },
  view: {
    summary: "a loop's state and bookkeeping as JSON (what the companion module's band draws)",
    options: { name: NAME, project: PROJECT },
    run: runView,
  },
};

/** `continuation-loop --help`: a line per row of the table. */
function renderUsage(columns?: number): string {
  const lines = Object.entries(COMMANDS).map(([name, row]) => {
    const usage = row.own?.usage ?? renderArgsUsage(row);
    return [`${name} ${usage}`.trimEnd(), row.summary] as const;
  });
  return [
    ...renderParagraph(
      "Usage: continuation-loop <command> [options]   (continuation-loop <command> --help for one; --version)",
      columns,
    ),
    "",
    ...renderOptionRows(lines, columns),
    "",
    `In Claude Code, ${SLASH_NAMES.map((name) => `/loop-${name}`).join(", ")} run the same commands.`,
    "Exit codes: 0 success; 1 the command failed (invalid state or settings file, a loop already running, doctor found a problem); 2 bad arguments. run has its own (run --help).",
    "The project is $CLAUDE_PROJECT_DIR when set, else the current folder; CONTINUATION_LOOP_FILE moves the state file.",
  ].join("\n");
}

/** `continuation-loop …` → exit code. Errors are one line naming file, field and expected value; never a stack trace. */
export async function runCli(argv: string[], given: Context): Promise<number> {
  const [name, ...rest] = argv;
  // `run` draws its live line with escapes of its own: it cleans the rest itself (src/app/runLoop.ts).
  const ctx = name === "run" ? given : plainOutput(given);
  if (name === undefined || name === "--help" || name === "-h" || name === "help") {
    ctx.out(`${renderUsage(ctx.columns)}\n`);
    return name === undefined ? EXIT.usage : EXIT.ok;
  }
  // The number alone, for scripts (`doctor` names it too).
  if (name === "--version" || name === "-v" || name === "version") {
    ctx.out(`${packageVersion(ctx.packageRoot)}\n`);
    return EXIT.ok;
  }
  const row = Object.hasOwn(COMMANDS, name) ? COMMANDS[name] : undefined;
  if (!row) {
    const meant = readMeantName(name, Object.keys(COMMANDS));
    const hint = meant ? ` (did you mean ${meant}?)` : "";
    ctx.err(`continuation-loop: unknown command ${JSON.stringify(name)}${hint}.\n\n${renderUsage()}\n`);
    return EXIT.usage;
  }
  try {
    return await runRow(row, {
      command: `continuation-loop ${name}`,
      slash: false,
      argv: rest,
      // Inside Claude Code (a `!` line) the session is known; in a plain terminal it is not.
      session: ctx.env.CLAUDE_CODE_SESSION_ID || undefined,
      ctx,
      tell: (user, context) => {
        ctx.err(`${user}\n`);
        return say({ ctx }, context);
      },
    });
  } catch (error) {
    ctx.err(`${describeError(error)}\n`);
    return error instanceof LoopError && error.code === "USAGE" ? EXIT.usage : EXIT.failed;
  }
}
