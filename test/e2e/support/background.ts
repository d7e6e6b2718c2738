// Claude Code's background sessions (`claude --bg`), offline: a project and a HOME in which a background
// session starts with no dialog and reaches the scripted Messages server, the helper run as a person runs it,
// and the background service stopped at the end (README.md here, "Background sessions").
import { execFileSync, spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { MessagesServer, Script } from "./messagesServer.js";
import { startMessagesServer } from "./messagesServer.js";
import { killHomeProcesses, readHistory } from "../../support/testHome.js";
import { type ClaudeVersion, cleanEnv, REPO_ROOT } from "./runClaude.js";

/** Long enough that its last 20 characters, which Claude Code remembers as approved, are its own. */
const API_KEY = "sk-ant-api03-bg-harness-0123456789abcdefghij";
const CLI = path.join(REPO_ROOT, "hooks", "cli.js");

export interface Ran {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** One entry of `claude agents --json`. */
export interface Agent {
  id: string;
  sessionId: string;
  cwd: string;
  kind: string;
  pid?: number;
  status?: string;
  state?: string;
}

/**
 * Writes a HOME in which a background session runs offline with no dialog: onboarding done, the API key
 * approved, the project trusted (`claude --bg` refuses an untrusted folder on 2.1.332), and the Messages
 * server's address in the user settings' `env`, since 2.1.197 does not pass `ANTHROPIC_BASE_URL` on to a
 * background session.
 */
function prepareBackgroundHome(home: string, trusted: string[], baseUrl: string): void {
  fs.mkdirSync(path.join(home, ".claude"), { recursive: true });
  const projects = Object.fromEntries(
    trusted.map((dir) => [fs.realpathSync(dir), { hasTrustDialogAccepted: true, hasCompletedProjectOnboarding: true }]),
  );
  const config = {
    hasCompletedOnboarding: true,
    theme: "dark",
    customApiKeyResponses: { approved: [API_KEY.slice(-20)], rejected: [] },
    projects,
  };
  fs.writeFileSync(path.join(home, ".claude.json"), JSON.stringify(config, null, 2));
  const settings = { env: { ANTHROPIC_BASE_URL: baseUrl } };
  fs.writeFileSync(path.join(home, ".claude", "settings.json"), JSON.stringify(settings, null, 2));
}

function runProcess(
  command: string,
  args: string[],
  opts: { cwd: string; env: Record<string, string>; timeoutMs: number },
): Promise<Ran> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd: opts.cwd, env: opts.env, stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout.setEncoding("utf8").on("data", (d: string) => (stdout += d));
    child.stderr.setEncoding("utf8").on("data", (d: string) => (stderr += d));
    const timer = setTimeout(() => child.kill("SIGKILL"), opts.timeoutMs);
    child.on("error", (error) => {
      clearTimeout(timer);
      reject(error);
    });
    child.on("close", (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

/** Polls a condition outside any process (a file, a list) until it holds; throws with `what` and the last look. */
export async function waitUntil<T>(
  look: () => T | Promise<T>,
  holds: (value: T) => boolean,
  what: string,
  timeoutMs = 60_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await look();
    if (holds(value)) return value;
    if (Date.now() > deadline)
      throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}; last: ${JSON.stringify(value)}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** One test's world: a git project (worktrees need one), a HOME, the scripted server, the background service. */
export class BackgroundWorld {
  readonly tmp = fs.mkdtempSync(path.join(os.tmpdir(), "cl-e2e-bg-"));
  readonly proj = path.join(this.tmp, "proj");
  readonly home = path.join(this.tmp, "home");
  /** Where `startService` starts its idle session. */
  private readonly idle = path.join(this.tmp, "idle");
  private serviceStarted: Promise<void> | undefined;
  server: MessagesServer | undefined;

  constructor(readonly version: ClaudeVersion) {
    fs.mkdirSync(path.join(this.proj, ".claude"), { recursive: true });
    // A git project with one commit, whose loop files git ignores, as `continuation-loop install` leaves it.
    fs.writeFileSync(path.join(this.proj, ".gitignore"), ".claude/\n");
    fs.writeFileSync(path.join(this.proj, "README.md"), "A project.\n");
    const git = (...args: string[]) =>
      execFileSync("git", ["-c", "user.name=Test", "-c", "user.email=test@example.com", ...args], {
        cwd: this.proj,
        env: { PATH: process.env.PATH ?? "", HOME: this.home, GIT_CONFIG_NOSYSTEM: "1" },
        stdio: "ignore",
      });
    git("init", "-q", "-b", "main");
    git("add", "-A");
    git("commit", "-q", "-m", "init");
  }

  /**
   * Starts the scripted server and writes the HOME (the project, and `trusted` folders besides, trusted; and the
   * folder of `startService`'s idle session).
   */
  async start(script: Script, trusted: string[] = [this.proj]): Promise<MessagesServer> {
    this.server = await startMessagesServer(script);
    fs.mkdirSync(this.idle);
    prepareBackgroundHome(this.home, [...trusted, this.idle], this.server.url);
    return this.server;
  }

  /**
   * Readies Claude Code's background service for this HOME, once: an idle session (`claude --bg` with no prompt,
   * in a folder of its own) starts the service and its first spare process, which the test's first session then
   * finds ready (`waitForSpare`). A `--bg` or `respawn` of `cli` or `claude` calls it first; a test whose terminal
   * hands a session over by itself (`/background`) calls it before.
   */
  startService(): Promise<void> {
    this.serviceStarted ??= (async () => {
      const env = this.env();
      const started = await runProcess(this.version.bin, ["--bg"], { cwd: this.idle, env, timeoutMs: 60_000 });
      if (started.code !== 0)
        throw new Error(
          `claude --bg (an idle session) failed (${started.code}): ${started.stderr}\n${this.describeService()}`,
        );
      await this.waitForSpare();
    })();
    return this.serviceStarted;
  }

  /** Before a session is handed to the service: the service started, its newest spare ready. */
  private async readyService(): Promise<void> {
    await this.startService();
    await this.waitForSpare();
  }

  /**
   * Waits until the service's newest spare process (the last `bg spare spawned host pid=N` of its log) listens for
   * a claim: the `<id>.claim.sock` its command line names is there. 2.1.197 hands a new session to that spare,
   * ready or not, and in one not ready yet the session may never take its first prompt (README.md here,
   * "Background sessions"). A spare whose process is gone is none: the service starts the session in a process
   * of its own.
   */
  private async waitForSpare(): Promise<void> {
    await waitUntil(
      () => this.readSpare(),
      (spare) => spare === "ready",
      "the background service's newest spare to listen for a claim",
      120_000, // a spare is a whole Claude Code starting: tens of seconds on a loaded two-core machine
    ).catch((error: Error) => {
      throw new Error(`${error.message}\n${this.describeService()}`);
    });
  }

  /** The service's newest spare: listening for a claim (or gone), starting, or none spawned yet. */
  private readSpare(): "ready" | "starting" | "none" {
    const pid = [...this.readServiceLog().matchAll(/\bbg spare spawned host pid=(\d+)/g)].at(-1)?.[1];
    if (pid === undefined) return "none";
    let args: string[];
    try {
      args = fs.readFileSync(`/proc/${pid}/cmdline`, "utf8").split("\0");
    } catch {
      return "ready";
    }
    const claim = args.find((arg) => arg.endsWith(".claim.sock"));
    return claim !== undefined && fs.existsSync(claim) ? "ready" : "starting";
  }

  /** What every process of the test runs with: the clean env, the HOME, and the helper's way to Claude Code. */
  env(extra: Record<string, string> = {}): Record<string, string> {
    if (!this.server) throw new Error("start() the world first");
    return {
      ...cleanEnv({ baseUrl: this.server.url, home: this.home }),
      ANTHROPIC_API_KEY: API_KEY,
      CONTINUATION_LOOP_CLAUDE: this.version.bin,
      ...extra,
    };
  }

  /**
   * `claude ARGS` on this world's pinned version, in the project unless `cwd` says otherwise; one that hands a
   * session to the service (`--bg`, `respawn`) waits for its spare first.
   */
  async claude(args: string[], cwd = this.proj, timeoutMs = 60_000): Promise<Ran> {
    if (args.includes("--bg") || args[0] === "respawn") await this.readyService();
    return runProcess(this.version.bin, args, { cwd, env: this.env(), timeoutMs });
  }

  /** The helper (`hooks/cli.js`) as a person runs it from a terminal; with `--bg`, once the service's spare is ready. */
  async cli(
    args: string[],
    opts: { cwd?: string; env?: Record<string, string>; timeoutMs?: number } = {},
  ): Promise<Ran> {
    if (args.includes("--bg")) await this.readyService();
    return runProcess(process.execPath, [CLI, ...args], {
      cwd: opts.cwd ?? this.proj,
      env: this.env(opts.env),
      timeoutMs: opts.timeoutMs ?? 90_000,
    });
  }

  /** What `continuation-loop statusline` prints for `session`, as Claude Code's statusLine runs it. */
  statusline(session: string): string {
    return execFileSync(process.execPath, [CLI, "statusline"], {
      cwd: this.proj,
      env: this.env(),
      input: JSON.stringify({ session_id: session, cwd: this.proj, workspace: { project_dir: this.proj } }),
      encoding: "utf8",
    });
  }

  /** `claude agents --json --all`: every background session of this HOME, running or not. */
  async agents(): Promise<Agent[]> {
    const ran = await this.claude(["agents", "--json", "--all"]);
    if (ran.code !== 0) throw new Error(`claude agents failed (${ran.code}): ${ran.stderr}`);
    return JSON.parse(ran.stdout) as Agent[];
  }

  /**
   * A background session Claude Code's own service gave up on (its `jobs/<short>/state.json` says `failed`), as
   * `<short>: <detail>`; undefined while none has.
   */
  failedSession(): string | undefined {
    const job = this.readJobs().find((j) => j.state === "failed");
    return job && `${job.short}: ${job.detail}`;
  }

  /**
   * The background session 2.1.197's service put into a spare process it had started a moment before
   * (`daemon.log`: `bg claimed-spare <short>`), as its short id; undefined when it started one of its own. On
   * a two-core machine no such session has ever run (README.md here, "Background sessions").
   */
  claimedSpare(): string | undefined {
    return /\bbg claimed-spare ([0-9a-f]+)/.exec(this.readServiceLog())?.[1];
  }

  /**
   * What Claude Code's background service said in this world, for a failure's message: its log's last lines
   * (each session it spawned or claimed, and how it settled) and each job's state.
   */
  describeService(lines = 20): string {
    const log = this.readServiceLog().trimEnd().split("\n").slice(-lines).join("\n") || "(none)";
    const jobs = this.readJobs().map((j) => `${j.short}: ${j.state} ${j.detail}`);
    return `Claude Code's service log (last ${lines} lines):\n${log}\njobs: ${jobs.join("; ") || "none"}`;
  }

  /** The service's log, `~/.claude/daemon.log`; "" before the service has started. */
  private readServiceLog(): string {
    try {
      return fs.readFileSync(path.join(this.home, ".claude", "daemon.log"), "utf8");
    } catch {
      return "";
    }
  }

  /** Each background job's `state.json` (`~/.claude/jobs/<short>/`): its state and the service's word on it. */
  private readJobs(): { short: string; state: string; detail: string }[] {
    const jobs = path.join(this.home, ".claude", "jobs");
    return (fs.existsSync(jobs) ? fs.readdirSync(jobs) : []).flatMap((short) => {
      try {
        const job: { state?: unknown; detail?: unknown } = JSON.parse(
          fs.readFileSync(path.join(jobs, short, "state.json"), "utf8"),
        );
        return [{ short, state: String(job.state), detail: String(job.detail ?? "") }];
      } catch {
        return []; // not a job's folder, or its state being written: looked at again next time
      }
    });
  }

  /** The history of the loops of `dir` (the project, or a worktree), one object per whole line. */
  history(dir = this.proj): Record<string, unknown>[] {
    return readHistory(path.join(dir, ".claude", "continuation-loop.history.jsonl"));
  }

  /**
   * Stops the background service of this HOME and its sessions (`claude daemon stop`), kills what is left
   * (the service's idle pty hosts, which ignore SIGTERM and would wait out about 5 s of their own: they are
   * this test's), waits until they are gone, then removes everything.
   */
  async dispose(): Promise<void> {
    if (this.server) {
      await this.claude(["daemon", "stop", "--any"], this.tmp, 30_000).catch(() => undefined);
      // Killed again at each look: the service may start one more while it stops.
      await waitUntil(
        () => killHomeProcesses(this.home),
        (pids) => pids.length === 0,
        "the background service's processes to end",
        15_000,
      ).catch(() => undefined);
      await this.server.close();
    }
    fs.rmSync(this.tmp, { recursive: true, force: true, maxRetries: 20, retryDelay: 100 });
  }
}
