// `continuation-loop run` (docs/REFERENCE.md "continuation-loop run"): a loop for CI and scripts, driven in
// the foreground through `claude -p`, with the report at the end.
import { appendFileSync, existsSync, mkdirSync, statSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { constants } from "node:os";
import { findRootRefusedArgs, RUN_EXIT, type LoopStatus } from "../core/decideRun.js";
import { LoopError } from "../core/errors.js";
import { acceptsNodeVersion, NODE_MIN, renderNodeNeeded } from "../core/nodeSupport.js";
import { type LoopFile, loopFileAt, pinnedLoopFile, resolveProjectRoot } from "../core/loopFiles.js";
import { renderNameFlag } from "../core/loopFileNames.js";
import { parseRunArgs, type RunRequest } from "../core/parseRunArgs.js";
import type { LoopState } from "../core/parseState.js";
import { parseState } from "../core/parseState.js";
import { readPause } from "../core/sidecar.js";
import {
  renderLeftInPlace,
  renderRefusedTools,
  renderRunEnd,
  renderRunUsage,
  type RunView,
} from "../core/renderRun.js";
import { renderReportMarkdown } from "../core/renderReport.js";
import { fitReportToSummary, STEP_SUMMARY_LIMIT } from "../core/fitSummary.js";
import { renderReportHtml } from "../core/renderReportHtml.js";
import { findClaude } from "../io/claudeProcess.js";
import { readHistorySize } from "../io/history.js";
import { readPathNode } from "../io/readPathNode.js";
import { pidOf } from "../core/processRef.js";
import { readProcessRef, readProcessRunning } from "../io/processes.js";
import { readStateFile } from "../io/readStateFile.js";
import { readRunTerminal } from "../io/runTerminal.js";
import { readSidecar } from "../io/sidecarFile.js";
import { writeFileAtomic } from "../io/writeFileAtomic.js";
import { describeError } from "./commandTable.js";
import { type Context, plainOutput } from "./context.js";
import { readSettingsSources } from "../io/readSettingsFiles.js";
import { readPermissionMode, readStopHookRegistered } from "./doctorChecks.js";
import { renderPermissionNote } from "../core/renderBackground.js";
import { readLoopReport } from "./reportCommand.js";
import {
  readClaudeLeftByRun,
  readDriverRunning,
  refuseDriven,
  refuseTrackedStateFile,
  resumeLoop,
} from "./resumeLoop.js";
import { type DriveOutcome, driveClaude } from "./runLoop.js";
import { startLoop } from "./startLoop.js";

/** This run, as the loop's sidecar names its driver (`run_pid`) and Claude Code's hooks see it. */
const readRunRef = (): string => readProcessRef(process.pid);

/** The loop `run` drives, and what Claude Code is first told. */
interface Begun {
  file: LoopFile;
  state: LoopState;
  prompt: string;
  /** A loop taken over while paused: `run` ends there (exit 3), Claude Code is not started. */
  paused?: LoopStatus;
}

/** A new loop, as `start` makes it, bound to the session `run` starts Claude Code with. */
function beginNewLoop(request: RunRequest, ctx: Context, root: string, sessionId: string): Begun {
  const started = startLoop(request.start as NonNullable<RunRequest["start"]>, ctx, root, sessionId, "", readRunRef());
  ctx.err(`${started.summary}\n`);
  return { file: started.file, state: started.state, prompt: started.context };
}

/**
 * No goal: the project's loop (`--name`'s, else the default file) is taken over when it is free: not paused,
 * not tracked by git, and no Claude Code process of its session still running. It is bound to the new
 * session, its counters and goal kept.
 */
function takeOverLoop(request: RunRequest, ctx: Context, root: string, sessionId: string): Begun {
  const file =
    pinnedLoopFile(root, ctx.env) ??
    // start's parser has checked the name (it cannot leave .claude/).
    loopFileAt(root, request.name ?? "default");
  const read = readStateFile(file.statePath, file.shown);
  if (read.kind === "missing")
    throw new LoopError("USAGE", "there is no loop to take over", {
      file: file.shown,
      expected: "a GOAL to start one (continuation-loop run [loop flags] GOAL), or --name NAME of a loop that runs",
    });
  const state = parseState(read.text, file.shown);
  refuseTrackedStateFile(file);
  const runtime = readSidecar(file.sidecarPath, state);
  const pause = readPause(state.active, runtime);
  if (!state.active || pause)
    return {
      file,
      state,
      prompt: "",
      paused: { kind: "paused", state, why: pause?.text ?? `active: false in ${file.shown}` },
    };
  const driver = readDriverRunning(runtime, readRunRef());
  if (driver) throw refuseDriven(file, driver, "a GOAL to start another loop beside it");
  const left = readClaudeLeftByRun(runtime, readRunRef());
  if (left)
    throw new LoopError(
      "LOOP_RUNNING",
      `a Claude Code process that continuation-loop run (pid ${pidOf(runtime.run_pid)}) started still runs (pid ${left}): that run has ended, and it stops at the end of its turn`,
      {
        file: file.shown,
        expected: `that process to end first (kill ${left} ends it now), or a GOAL to start another loop beside it`,
      },
    );
  if (runtime.owner_pid !== "" && readProcessRunning(runtime.owner_pid))
    throw new LoopError(
      "LOOP_RUNNING",
      `the loop ${state.session_id ? `belongs to session ${state.session_id}, whose` : "is run by a"} Claude Code process still runs (pid ${pidOf(runtime.owner_pid)})`,
      {
        file: file.shown,
        expected: "that session to end first, or a GOAL to start another loop beside it",
      },
    );
  const resumed = resumeLoop(file, {
    sessionId,
    now: ctx.now(),
    force: true,
    claudePid: "",
    env: ctx.env,
    command: "continuation-loop run",
    runPid: readRunRef(),
  });
  ctx.err(`${resumed.message}\n`);
  return { file, state: { ...state, session_id: sessionId }, prompt: resumed.context };
}

/** What Claude Code runs with: the plugin from this package unless the settings load it already. */
function renderClaudeArgs(request: RunRequest, ctx: Context, root: string): string[] {
  const loaded = request.claudeArgs.includes("--plugin-dir") || readStopHookRegistered(root, ctx.env, ctx.home);
  return [...(loaded ? [] : ["--plugin-dir", ctx.packageRoot]), ...request.claudeArgs];
}

/** The report at the end: `--report`, `--html`, and appended to `$GITHUB_STEP_SUMMARY` when set. */
function writeReports(request: RunRequest, file: LoopFile, ctx: Context): void {
  const summary = ctx.env.GITHUB_STEP_SUMMARY;
  if (!request.report && !request.html && !summary) return;
  const written: string[] = [];
  const attempt = (what: string, write: () => void) => {
    try {
      write();
      written.push(what);
    } catch (error) {
      const why =
        error instanceof LoopError ? error.describe() : ((error as NodeJS.ErrnoException).code ?? String(error));
      ctx.err(`continuation-loop: the report could not be written to ${what} (${why}).\n`);
    }
  };
  let markdown: string;
  let html: () => string;
  try {
    const model = readLoopReport(file, file.shown);
    markdown = renderReportMarkdown(model);
    html = () => renderReportHtml(model, ctx.now());
  } catch (error) {
    ctx.err(`continuation-loop: no report: ${error instanceof LoopError ? error.describe() : String(error)}.\n`);
    return;
  }
  // `--report reports/loop.md`: the folder is made, as a script expects; the job summary's is the runner's own.
  const writeTo = (target: string, text: () => string) =>
    attempt(target, () => {
      const path = resolve(ctx.cwd, target);
      mkdirSync(dirname(path), { recursive: true });
      writeFileAtomic(path, text(), { durable: false });
    });
  if (request.report) writeTo(request.report, () => markdown);
  if (request.html) writeTo(request.html, html);
  if (summary) writeSummary(summary, `${markdown}\n`, renderWholeReportAt(request, file), ctx, written);
  if (written.length) ctx.err(`continuation-loop: the loop's report is in ${written.join(", ")}.\n`);
}

/** Where the whole report is, for a job summary that holds a shortened one. */
function renderWholeReportAt(request: RunRequest, file: LoopFile): string {
  const files = [
    ...(request.report ? [`\`${request.report}\` (--report)`] : []),
    ...(request.html ? [`\`${request.html}\` (--html)`] : []),
  ];
  return files.length
    ? files.join(", ")
    : `\`continuation-loop report${renderNameFlag(file.name)}\` where the loop ran (\`run --report FILE\` keeps it as a file)`;
}

/**
 * The report appended to the job summary, shortened when the file, with what it already holds, would pass
 * GitHub's limit (which would lose the step's whole summary); nothing when not even a shortened one fits.
 */
function writeSummary(summary: string, markdown: string, whole: string, ctx: Context, written: string[]): void {
  const shown = `$GITHUB_STEP_SUMMARY (${summary})`;
  try {
    const held = existsSync(summary) ? statSync(summary).size : 0;
    const text = fitReportToSummary(markdown, STEP_SUMMARY_LIMIT - held, whole);
    if (text === undefined) {
      ctx.err(
        `continuation-loop: the report was not added to ${shown}: it holds ${Math.ceil(held / 1024)} KiB already, and GitHub drops a step's summary past ${STEP_SUMMARY_LIMIT / 1024} KiB.\n`,
      );
      return;
    }
    appendFileSync(summary, text);
    written.push(text === markdown ? shown : `${shown}, shortened to fit GitHub's ${STEP_SUMMARY_LIMIT / 1024} KiB`);
  } catch (error) {
    ctx.err(
      `continuation-loop: the report could not be written to ${shown} (${(error as NodeJS.ErrnoException).code ?? String(error)}).\n`,
    );
  }
}

/** The exit code of a run stopped by a signal: 128 + its number, as a shell reports it. */
const signalCode = (signal: NodeJS.Signals): number => 128 + (constants.signals[signal] ?? 0);

/** Prints how the run ended and returns its exit code. */
function finish(outcome: DriveOutcome, state: LoopState, file: LoopFile, ctx: Context): number {
  const { status, step } = outcome;
  if (step.kind === "signal") {
    ctx.err(`continuation-loop: stopped by ${step.signal}. ${renderLeftInPlace(file)}\n`);
    return signalCode(step.signal);
  }
  const reason =
    status.kind === "ended"
      ? status.reason
      : status.kind === "paused"
        ? status.why
        : status.kind === "invalid"
          ? status.message
          : status.kind === "taken"
            ? status.session
            : "";
  const current = status.kind === "running" || status.kind === "paused" ? status.state : state;
  const line = renderRunEnd({
    step,
    view: outcome.view,
    now: ctx.now(),
    reason,
    exit: outcome.exit,
    restartsInARow: outcome.restartsInARow,
    tail: outcome.tail,
    session: current.session_id,
    maxDuration: current.max_duration,
  });
  const refused = renderRefusedTools(outcome.view);
  ctx.err(`${line}\n${refused ? `${refused}\n` : ""}`);
  return step.code;
}

/**
 * `continuation-loop run [options] [loop flags] [GOAL…] [-- CLAUDE_ARGS…]` → exit code (docs/REFERENCE.md).
 * In GitHub Actions the runner takes a line of the step's output that starts with `::` for a workflow command,
 * and Claude Code's output is Claude's text: the runner's commands are stopped for the run, with a token
 * nobody else sees, and started again at its end.
 */
export async function runRun(argv: string[], ctx: Context): Promise<number> {
  const plain = plainOutput(ctx);
  if (ctx.env.GITHUB_ACTIONS !== "true") return runDriven(argv, plain, ctx);
  const token = `continuation-loop-${globalThis.crypto.randomUUID()}`;
  ctx.out(`::stop-commands::${token}\n`);
  try {
    return await runDriven(argv, plain, ctx);
  } finally {
    ctx.out(`::${token}::\n`);
  }
}

/** `ctx` cleans what it prints; `terminal` writes as it is given, for Claude Code's output and the live line. */
async function runDriven(argv: string[], ctx: Context, terminal: Context): Promise<number> {
  const refuse = (error: unknown): number => {
    if (!(error instanceof LoopError)) throw error;
    ctx.err(`${describeError(error)}\n`);
    return RUN_EXIT.usage;
  };
  let request: RunRequest;
  try {
    request = parseRunArgs(argv);
  } catch (error) {
    return refuse(error);
  }
  if (request.help) {
    ctx.out(`${renderRunUsage()}\n`);
    return 0;
  }
  const claude = findClaude(ctx.env, ctx.cwd);
  if ("missing" in claude) {
    ctx.err(
      `continuation-loop: Claude Code cannot run: ${claude.missing}. Install it (npm install -g @anthropic-ai/claude-code), or set CONTINUATION_LOOP_CLAUDE to its path. No loop was started.\n`,
    );
    return RUN_EXIT.claude;
  }
  // The hooks run the first `node` on Claude Code's PATH: without a usable one no loop could go on.
  const node = readPathNode(ctx.env);
  if (!node?.version || !acceptsNodeVersion(node.version)) {
    const line = node?.version
      ? renderNodeNeeded(node.version)
      : node
        ? `continuation-loop: ${node.path} on PATH does not run (node --version ${node.failure ?? "printed no version"}); the hooks need Node.js ${NODE_MIN} or later.`
        : renderNodeNeeded();
    ctx.err(`${line} No loop was started.\n`);
    return RUN_EXIT.claude;
  }
  const refused = findRootRefusedArgs(request.claudeArgs, process.getuid?.(), ctx.env);
  if (refused) {
    ctx.err(
      `continuation-loop: Claude Code refuses ${refused} when it runs as root, as here (uid 0), and would exit at each start. Drop it and allow what the loop needs (-- --permission-mode acceptEdits --allowedTools "Bash(npm test) Edit"), run as another user, or set IS_SANDBOX=1 if this container is the sandbox. No loop was started.\n`,
    );
    return RUN_EXIT.claude;
  }
  const root = resolveProjectRoot(ctx.env, undefined, ctx.cwd);
  const sessionId = globalThis.crypto.randomUUID();
  let begun: Begun;
  try {
    begun = request.start ? beginNewLoop(request, ctx, root, sessionId) : takeOverLoop(request, ctx, root, sessionId);
  } catch (error) {
    return refuse(error);
  }
  const { file, state } = begun;
  const startedAt = state.started_at ? Date.parse(state.started_at) : ctx.now();
  const view: RunView = {
    shown: file.shown,
    name: file.name,
    iteration: state.iteration_count,
    max: state.max_iterations,
    startedAt,
    spend: undefined,
    detail: "working",
  };
  const claudeArgs = renderClaudeArgs(request, ctx, root);
  if (!begun.paused)
    ctx.err(
      `continuation-loop: running ${claude.path} -p in ${root}, session ${sessionId}${claudeArgs[0] === "--plugin-dir" ? `, with the plugin from ${ctx.packageRoot}` : ""}; its output follows.\n`,
    );
  // In -p nobody answers a permission prompt: a tool no rule allows is refused, turn after turn.
  const asks = renderPermissionNote(
    readPermissionMode(readSettingsSources(root, ctx.env, ctx.home), request.claudeArgs),
  );
  if (asks && !begun.paused) ctx.err(`${asks}\n`);
  const outcome: DriveOutcome = begun.paused
    ? {
        status: begun.paused,
        step: { kind: "exit", code: RUN_EXIT.paused, why: "paused" },
        exit: { code: null, signal: null },
        restartsInARow: 0,
        view,
        tail: "",
      }
    : await driveClaude(
        {
          claude: claude.path,
          claudeArgs,
          root,
          // A loop whose turns run no tool would hit Claude Code's 8-block cap (README "Troubleshooting").
          // The Stop hook continues the loop only while this run lives: a Claude Code left behind by a killed run stops.
          env: {
            ...ctx.env,
            CLAUDE_CODE_STOP_HOOK_BLOCK_CAP: ctx.env.CLAUDE_CODE_STOP_HOOK_BLOCK_CAP ?? "0",
            CONTINUATION_LOOP_RUN_PID: readRunRef(),
          },
          file,
          startedAt: state.started_at,
          runPid: readRunRef(),
          sessionId,
          prompt: begun.prompt,
          maxRestarts: request.maxRestarts,
          historyOffset: readHistorySize(file.historyPath),
          view,
        },
        terminal,
        readRunTerminal(ctx.env),
      );
  const code = finish(outcome, state, file, ctx);
  writeReports(request, file, ctx);
  return code;
}
