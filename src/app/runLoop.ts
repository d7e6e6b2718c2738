// The driver of `continuation-loop run` (docs/REFERENCE.md "continuation-loop run"; docs/HEADLESS.md): runs
// `claude -p` until the loop ends, reads the loop's progress from its own files, and starts Claude Code
// again with `--resume` after its process dies, within the loop's limits.
import type { ApiFailure } from "../core/apiFailure.js";
import { type ClaudeExit, decideAfterExit, decideLoopEnd, type LoopStatus, type RunStep } from "../core/decideRun.js";
import { LoopError } from "../core/errors.js";
import type { HistoryRecord } from "../core/history.js";
import { type Env, type LoopFile, resolveConfigDir } from "../core/loopFiles.js";
import { parseState } from "../core/parseState.js";
import { readPause } from "../core/sidecar.js";
import {
  applyRecord,
  renderLiveLine,
  renderRecordLine,
  renderRestartNotice,
  renderRestartPrompt,
  type RunView,
} from "../core/renderRun.js";
import { readSessionSaved, spawnClaude } from "../io/claudeProcess.js";
import { recordRunClaude } from "./resumeLoop.js";
import { readHistorySince } from "../io/history.js";
import { readMonotonicMs } from "../io/monotonic.js";
import { readApiFailure, readSessionSize } from "../io/readApiFailure.js";
import { readStateFile } from "../io/readStateFile.js";
import { onStopSignal, type RunTerminal } from "../io/runTerminal.js";
import { readSidecar } from "../io/sidecarFile.js";
import type { Context } from "./context.js";
import { renderPlainText, renderWithoutEscapes } from "../core/plainText.js";

/** How often the history is read for new records while Claude Code runs (and the live line redrawn). */
const POLL_MS = 500;
/**
 * How long Claude Code may run on after the loop's end record: its `-p` run stays up while a task it started in
 * the background runs (a server never ends), and nothing of the loop is left for it to do.
 */
const END_GRACE_MS = 10_000;
/** The end of Claude Code's output (both streams) kept to say why it could not run: a tail, never the stream. */
const TAIL_CHARS = 2_000;

/** Decisions a Stop makes: one of them is a new iteration. */
const STOP_DECISIONS = new Set(["continue", "end", "pause"]);

export interface DriveRequest {
  claude: string;
  claudeArgs: string[];
  /** The project root: Claude Code runs there. */
  root: string;
  /** Claude Code's environment: `run`'s own, with what the loop needs added. */
  env: Env;
  file: LoopFile;
  /** The loop's `started_at` when `run` took it: another value in the file is another loop. */
  startedAt: string | undefined;
  /** This run's pid, as the loop's sidecar names its driver (`run_pid`). */
  runPid: string;
  /** The session of the first start (`--session-id`), and its prompt. */
  sessionId: string;
  prompt: string;
  maxRestarts: number;
  /** Where `run` starts reading the history: records before it are not this run's. */
  historyOffset: number;
  view: RunView;
}

export interface DriveOutcome {
  status: LoopStatus;
  step: Extract<RunStep, { kind: "exit" }> | { kind: "signal"; signal: NodeJS.Signals };
  exit: ClaudeExit;
  restartsInARow: number;
  view: RunView;
  tail: string;
}

/** stderr for `run`: permanent lines, and in a terminal one live line kept below them. */
class RunPrinter {
  private showing = false;
  private atLineStart = true;

  constructor(
    private readonly ctx: Context,
    private readonly terminal: RunTerminal,
  ) {}

  line(text: string): void {
    this.clear();
    this.ctx.err(`${renderPlainText(text)}\n`);
  }

  /** A record of the loop: its own line, or the live line redrawn. */
  record(view: RunView, r: HistoryRecord): void {
    if (this.terminal.live) this.live(view);
    else this.ctx.err(`${renderPlainText(renderRecordLine(view, r))}\n`);
  }

  /** Claude Code's own output, passed on as it comes, as text. */
  passOn(stream: "out" | "err", text: string): void {
    if (!text) return;
    this.clear();
    // A reply is a loop's data: its escape sequences are dropped (one split across two chunks leaves text only),
    // its line breaks kept: a CI log starts a line at a lone CR, and the workflow-command guard counts on it.
    const shown = renderWithoutEscapes(text);
    if (stream === "out") this.ctx.out(shown);
    else this.ctx.err(shown);
    this.atLineStart = text.endsWith("\n");
  }

  live(view: RunView): void {
    if (!this.terminal.live || !this.atLineStart) return;
    // The line's own escapes redraw it; the loop's data in it (goal, name) never may.
    this.ctx.err(`\r\x1b[2K${renderPlainText(renderLiveLine(view, this.ctx.now(), this.terminal.columns()))}`);
    this.showing = true;
  }

  clear(): void {
    if (this.showing) this.ctx.err("\r\x1b[2K");
    this.showing = false;
  }
}

/** The loop now: ended (its end record, or gone), paused, invalid or running. */
function readLoopStatus(
  file: LoopFile,
  startedAt: string | undefined,
  end: HistoryRecord | undefined,
  takenBy: string | undefined,
): LoopStatus {
  if (takenBy !== undefined && end === undefined) return { kind: "taken", session: takenBy };
  const ended = (): LoopStatus => ({ kind: "ended", reason: end?.reason ?? "vanished", record: end });
  try {
    const read = readStateFile(file.statePath, file.shown);
    if (read.kind === "missing") return ended();
    const state = parseState(read.text, file.shown);
    // Another loop in the same file: this one ended, and whoever started the new one runs it.
    if (startedAt !== undefined && state.started_at !== undefined && state.started_at !== startedAt) return ended();
    const runtime = readSidecar(file.sidecarPath, state);
    const pause = readPause(state.active, runtime);
    if (!state.active || pause) return { kind: "paused", state, why: pause?.text ?? `active: false in ${file.shown}` };
    // In -p nobody can leave plan mode: a loop waiting there waits for a person (docs/REFERENCE.md "Plan mode").
    if (runtime.plan_hold)
      return {
        kind: "paused",
        state,
        why: "the session is in plan mode, where Claude cannot edit; run again in another mode (-- --permission-mode acceptEdits, say)",
      };
    const wait = Date.parse(runtime.api_wait_until);
    return { kind: "running", state, runtime, waitUntil: Number.isFinite(wait) ? wait : undefined };
  } catch (error) {
    return { kind: "invalid", message: error instanceof LoopError ? error.describe() : String(error) };
  }
}

/**
 * The API error Claude Code's last turn ended on: as its transcript records it (the session that owns the loop
 * now; a /clear during the start moved it to a new one), else the kind the StopFailure hook recorded, when its
 * record landed before Claude Code exited (docs/HEADLESS.md "An API error that no restart mends").
 */
function readTurnFailure(
  configDir: string,
  status: LoopStatus,
  started: { session: string; transcriptFrom: number },
  hookKind: string | undefined,
): ApiFailure | undefined {
  const owner = (status.kind === "running" && status.state.session_id) || started.session;
  const found = readApiFailure(configDir, owner, owner === started.session ? started.transcriptFrom : 0);
  if (found !== undefined) return found ?? undefined;
  return hookKind ? { kind: hookKind } : undefined;
}

/** Runs Claude Code until the loop ends, pauses, or Claude Code cannot go on (docs/REFERENCE.md "continuation-loop run"). */
export async function driveClaude(request: DriveRequest, ctx: Context, terminal: RunTerminal): Promise<DriveOutcome> {
  const printer = new RunPrinter(ctx, terminal);
  const { file } = request;
  let view = request.view;
  let offset = request.historyOffset;
  let startedAt = request.startedAt;
  let end: HistoryRecord | undefined;
  // The session that took the loop over from this run, when one did.
  let takenBy: string | undefined;
  let iterations = 0;
  // The kind of API error the StopFailure hook recorded during this start, after its last Stop.
  let hookKind: string | undefined;
  const readNews = () => {
    const news = readHistorySince(file.historyPath, offset);
    offset = news.offset;
    for (const r of news.records) {
      // After this loop's end, what the file's records say is another loop's (a `/loop-start --force` replaced it).
      if (r.state_file !== file.shown || end !== undefined) continue;
      if (STOP_DECISIONS.has(r.decision)) {
        iterations++;
        hookKind = undefined;
      }
      if (r.decision === "api_error") hookKind = r.reason;
      if (r.decision === "end") end = r;
      if (r.decision === "resume" && r.reason === "taken over") takenBy = r.session ?? "";
      view = applyRecord(view, r);
      printer.record(view, r);
    }
  };

  let stopping: NodeJS.Signals | undefined;
  let child: ReturnType<typeof spawnClaude> | undefined;
  // A wait before a restart, cut short by a signal.
  let wake: (() => void) | undefined;
  const stopSignals = onStopSignal((signal) => {
    stopping ??= signal;
    child?.kill(signal);
    wake?.();
  });
  try {
    let args = ["--session-id", request.sessionId];
    let prompt = request.prompt;
    let restartsInARow = 0;
    const configDir = resolveConfigDir(request.env, ctx.home);
    let session = request.sessionId;
    for (;;) {
      const before = iterations;
      const started = { session, transcriptFrom: readSessionSize(configDir, session) };
      hookKind = undefined;
      let tail = "";
      child = spawnClaude(request.claude, ["-p", prompt, ...args, ...request.claudeArgs], {
        cwd: request.root,
        env: request.env,
        onStdout: (text) => {
          tail = (tail + text).slice(-TAIL_CHARS);
          printer.passOn("out", text);
        },
        onStderr: (text) => {
          tail = (tail + text).slice(-TAIL_CHARS);
          printer.passOn("err", text);
        },
      });
      // Until its Stop records it, nothing else says this Claude Code works on the loop (a killed run leaves it).
      recordRunClaude(file, request.runPid, child.pid);
      printer.live(view);
      const running = child;
      let endSeenAt: number | undefined;
      let termed = false;
      let killed = false;
      const timer = setInterval(() => {
        readNews();
        printer.live(view);
        if (end === undefined) return;
        endSeenAt ??= readMonotonicMs();
        const after = readMonotonicMs() - endSeenAt;
        if (after >= 2 * END_GRACE_MS && !killed) {
          killed = true;
          running.kill("SIGKILL");
        } else if (after >= END_GRACE_MS && !termed) {
          termed = true;
          printer.line(
            `continuation-loop: the loop has ended and Claude Code still runs ${END_GRACE_MS / 1000}s later (a task it started in the background, such as a server, keeps it up): stopping it.`,
          );
          running.kill("SIGTERM");
        }
      }, POLL_MS);
      const exited = await child.exited;
      clearInterval(timer);
      const failed = exited.code !== null && exited.code !== 0;
      const exit = failed && !readSessionSaved(configDir, session) ? { ...exited, refusedAtStart: true } : exited;
      child = undefined;
      readNews();
      const status = readLoopStatus(file, startedAt, end, takenBy);
      if (stopping) return { status, step: { kind: "signal", signal: stopping }, exit, restartsInARow, view, tail };
      if (iterations > before) restartsInARow = 0;
      const failure = readTurnFailure(configDir, status, started, hookKind);
      const step = decideAfterExit(status, exit, restartsInARow, request.maxRestarts, ctx.now(), failure);
      if (step.kind === "exit") return { status, step, exit, restartsInARow, view, tail };
      printer.line(renderRestartNotice(exit, step, view, request.maxRestarts));
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, step.delayMs);
        wake = () => {
          clearTimeout(timer);
          resolve();
        };
      });
      wake = undefined;
      restartsInARow = step.attempt;
      // The loop as it is now: it may have been stopped, paused or edited during the wait.
      const now = readLoopStatus(file, startedAt, end, takenBy);
      if (stopping)
        return { status: now, step: { kind: "signal", signal: stopping }, exit, restartsInARow, view, tail };
      if (now.kind !== "running") return { status: now, step: decideLoopEnd(now), exit, restartsInARow, view, tail };
      startedAt ??= now.state.started_at;
      // The session that owns the loop now (a /clear moves it), resumed when Claude Code saved it.
      session = now.state.session_id ?? request.sessionId;
      args = readSessionSaved(configDir, session) ? ["--resume", session] : ["--session-id", session];
      prompt = renderRestartPrompt(now.state, now.runtime, file.shown, ctx.now());
    }
  } finally {
    stopSignals();
    printer.clear();
  }
}
