// Spawns the real Claude Code CLI fully offline against a test Messages server.
import { spawn, spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

export const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../..");

/** One pinned Claude Code release: `name` is its exact version, `bin` its native binary. */
export interface ClaudeVersion {
  name: string;
  bin: string;
  toString(): string;
}

// Both are devDependencies (package.json): the oldest supported release and the newest, installed by
// `npm ci` as `@anthropic-ai/claude-code` and its alias `claude-code-latest`. The .bin/claude link is
// only one of them, so each binary is named by its package folder. `npm run test:newest`
// (scripts/test-newest.mjs) names the registry's newest release's folder in
// CONTINUATION_LOOP_CLAUDE_NEWEST, which then runs in place of the pinned newest.
const NEWEST_DIR = process.env.CONTINUATION_LOOP_CLAUDE_NEWEST;
const modules = (packageDir: string) => path.join(REPO_ROOT, "node_modules", packageDir);
export const CLAUDE_VERSIONS: readonly ClaudeVersion[] = [
  claudeVersion("2.1.197", modules(path.join("@anthropic-ai", "claude-code"))),
  NEWEST_DIR
    ? claudeVersion(readPackageVersion(NEWEST_DIR), NEWEST_DIR)
    : claudeVersion("2.1.332", modules("claude-code-latest")),
];

/** The oldest supported release, and the newest: pinned, or the registry's newest under `npm run test:newest`. */
export const [OLDEST, NEWEST] = CLAUDE_VERSIONS as [ClaudeVersion, ClaudeVersion];

function claudeVersion(name: string, dir: string): ClaudeVersion {
  const bin = path.join(dir, "bin", "claude.exe");
  // toString: `describe.each(CLAUDE_VERSIONS)("Claude Code %s", …)` titles read "Claude Code 2.1.330".
  return { name, bin, toString: () => name };
}

/** The version a package folder holds; "missing" when it holds none (checkClaudeVersions then fails the run). */
function readPackageVersion(dir: string): string {
  try {
    const { version } = JSON.parse(fs.readFileSync(path.join(dir, "package.json"), "utf8")) as { version?: unknown };
    return typeof version === "string" ? version : "missing";
  } catch {
    return "missing";
  }
}

/**
 * Throws unless every pinned binary is installed and reports its version: a missing Claude Code
 * fails the run (vitest globalSetup), it never skips tests.
 */
export function checkClaudeVersions(versions: readonly ClaudeVersion[] = CLAUDE_VERSIONS): void {
  for (const v of versions) {
    const r = spawnSync(v.bin, ["--version"], {
      encoding: "utf8",
      timeout: 30_000,
      env: { PATH: process.env.PATH ?? "" },
    });
    const out = `${r.stdout ?? ""}${r.stderr ?? ""}`.trim();
    if (r.error || r.status !== 0 || !out.startsWith(`${v.name} `))
      throw new Error(
        `Claude Code ${v.name} is not installed as expected at ${v.bin} (run ${NEWEST_DIR ? "npm run test:newest" : "npm ci"}): ${r.error?.message ?? out}`,
      );
  }
}

export interface RunClaudeOptions {
  /** Which Claude Code runs (one of {@link CLAUDE_VERSIONS}). */
  version: ClaudeVersion;
  /** The `-p` prompt (a slash command like `/foo bar` works too). */
  prompt: string;
  /** Base URL of the messages server, e.g. `server.url`. */
  baseUrl: string;
  /** Project directory the CLI runs in. */
  cwd: string;
  /** Throwaway HOME; reuse it across runs of one test so `--resume` finds the session. */
  home: string;
  pluginDirs?: string[];
  /** e.g. `['Bash(echo:*)', 'Edit']`. */
  allowedTools?: string[];
  resume?: string;
  /** Fix the session id (must be a UUID); measured to work with 2.1.197. */
  sessionId?: string;
  extraArgs?: string[];
  /** Pass `--include-hook-events` (default true): hook runs show up in `events`. */
  includeHookEvents?: boolean;
  /** Added on top of the clean env; wins over the defaults. */
  env?: Record<string, string>;
  /** Kill the whole process group after this many ms (default 90 s). */
  timeoutMs?: number;
}

export type StreamEvent = { type: string; subtype?: string; session_id?: string; [k: string]: unknown };

export interface RunClaudeResult {
  code: number | null;
  signal: NodeJS.Signals | null;
  timedOut: boolean;
  stdout: string;
  stderr: string;
  /** Parsed stream-json lines (lines that are not JSON are skipped). */
  events: StreamEvent[];
  sessionId: string | undefined;
  /** Where the transcript is (or would be) for this session. */
  transcriptPath: string | undefined;
  /** The final `result` event, if any. */
  result: StreamEvent | undefined;
  durationMs: number;
}

/**
 * Claude Code stores a project's sessions under a folder named after the cwd with
 * every non-alphanumeric character turned into `-` (e.g. `/tmp/a.b` → `-tmp-a-b`).
 */
function projectDirName(cwd: string): string {
  return cwd.replace(/[^a-zA-Z0-9]/g, "-");
}

function claudeConfigDir(home: string): string {
  return path.join(home, ".claude");
}

/** The transcript file of a session; falls back to searching all projects for it. */
function transcriptPathFor(home: string, cwd: string, sessionId: string): string {
  const projects = path.join(claudeConfigDir(home), "projects");
  const expected = path.join(projects, projectDirName(fs.realpathSync(cwd)), `${sessionId}.jsonl`);
  if (fs.existsSync(expected)) return expected;
  if (fs.existsSync(projects)) {
    for (const dir of fs.readdirSync(projects)) {
      const p = path.join(projects, dir, `${sessionId}.jsonl`);
      if (fs.existsSync(p)) return p;
    }
  }
  return expected;
}

/** Folder holding a session's task files (`<n>.json`). */
export function taskDirFor(home: string, sessionId: string): string {
  return path.join(claudeConfigDir(home), "tasks", sessionId);
}

export function readJsonl(file: string): Record<string, unknown>[] {
  if (!fs.existsSync(file)) return [];
  return parseJsonLines(fs.readFileSync(file, "utf8")) as Record<string, unknown>[];
}

function parseJsonLines(textIn: string): StreamEvent[] {
  const out: StreamEvent[] = [];
  for (const line of textIn.split("\n")) {
    if (!line.trim()) continue;
    try {
      const v: unknown = JSON.parse(line);
      if (v !== null && typeof v === "object") out.push(v as StreamEvent);
    } catch {
      // non-JSON noise on stdout is ignored; the raw stdout is kept for debugging
    }
  }
  return out;
}

/**
 * A clean environment: nothing inherited except PATH, so CLAUDE_* / ANTHROPIC_*
 * from an outer Claude Code session (tests may run inside one) cannot leak in.
 */
export function cleanEnv(opts: Pick<RunClaudeOptions, "baseUrl" | "home" | "env">): Record<string, string> {
  return {
    PATH: process.env.PATH ?? "/usr/local/bin:/usr/bin:/bin",
    HOME: opts.home,
    LANG: "C.UTF-8",
    ANTHROPIC_BASE_URL: opts.baseUrl,
    ANTHROPIC_API_KEY: "test",
    CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: "1",
    DISABLE_AUTOUPDATER: "1",
    ...opts.env,
  };
}

function buildArgs(opts: RunClaudeOptions): string[] {
  const args = ["-p", opts.prompt, "--output-format", "stream-json", "--verbose"];
  for (const dir of opts.pluginDirs ?? []) args.push("--plugin-dir", dir);
  // One space-separated value so a pattern like "Bash(echo:*)" stays one tool.
  if (opts.allowedTools?.length) args.push("--allowedTools", opts.allowedTools.join(" "));
  if (opts.resume) args.push("--resume", opts.resume);
  if (opts.sessionId) args.push("--session-id", opts.sessionId);
  if (opts.includeHookEvents ?? true) args.push("--include-hook-events");
  args.push(...(opts.extraArgs ?? []));
  return args;
}

export function runClaude(opts: RunClaudeOptions): Promise<RunClaudeResult> {
  const started = Date.now();
  fs.mkdirSync(opts.home, { recursive: true });
  const child = spawn(opts.version.bin, buildArgs(opts), {
    cwd: opts.cwd,
    env: cleanEnv(opts),
    stdio: ["ignore", "pipe", "pipe"],
    // Own process group, so the timeout also kills hook processes it spawned.
    detached: true,
  });
  let stdout = "";
  let stderr = "";
  child.stdout.setEncoding("utf8").on("data", (d: string) => {
    stdout += d;
  });
  child.stderr.setEncoding("utf8").on("data", (d: string) => {
    stderr += d;
  });

  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    try {
      if (child.pid !== undefined) process.kill(-child.pid, "SIGKILL");
    } catch {
      child.kill("SIGKILL");
    }
  }, opts.timeoutMs ?? 90_000);

  return new Promise((resolve, reject) => {
    child.on("error", (err) => {
      clearTimeout(timer);
      reject(err);
    });
    child.on("close", (code, signal) => {
      clearTimeout(timer);
      const events = parseJsonLines(stdout);
      const sessionId =
        opts.sessionId ?? events.find((e) => typeof e.session_id === "string")?.session_id ?? opts.resume;
      resolve({
        code,
        signal,
        timedOut,
        stdout,
        stderr,
        events,
        sessionId,
        transcriptPath: sessionId ? transcriptPathFor(opts.home, opts.cwd, sessionId) : undefined,
        result: [...events].reverse().find((e) => e.type === "result"),
        durationMs: Date.now() - started,
      });
    });
  });
}

/**
 * `hook_response` events (needs `--include-hook-events`), optionally for one hook
 * event; each has `stdout`, `stderr`, `exit_code`, `outcome` (`success`|`error`).
 */
export function hookResponses(r: Pick<RunClaudeResult, "events">, hookEvent?: string): StreamEvent[] {
  return r.events.filter(
    (e) =>
      e.type === "system" && e.subtype === "hook_response" && (hookEvent === undefined || e.hook_event === hookEvent),
  );
}

/**
 * `systemMessage`s that hooks showed the user. stream-json has no event of its
 * own for them (only the raw hook stdout in `hook_response`), but the transcript
 * records each as a `hook_system_message` attachment, flushed before the CLI exits.
 */
export function hookSystemMessages(transcriptPath: string | undefined, hookEvent?: string): string[] {
  if (!transcriptPath) return [];
  const out: string[] = [];
  for (const line of readJsonl(transcriptPath)) {
    const a = line.attachment as { type?: string; content?: unknown; hookEvent?: string } | undefined;
    if (
      a?.type === "hook_system_message" &&
      typeof a.content === "string" &&
      (hookEvent === undefined || a.hookEvent === hookEvent)
    )
      out.push(a.content);
  }
  return out;
}

/**
 * Every tool the session has, from the `system/init` event: tools sent up front and tools deferred
 * behind ToolSearch (2.1.330) alike. A request's own `tools` holds only the first kind.
 */
export function initTools(r: RunClaudeResult): string[] {
  const init = r.events.find((e) => e.type === "system" && e.subtype === "init");
  return Array.isArray(init?.tools) ? (init.tools as string[]) : [];
}

/** Short diagnostic for assertion messages when a run misbehaves. */
export function describeRun(r: RunClaudeResult): string {
  return `code=${String(r.code)} signal=${String(r.signal)} timedOut=${r.timedOut}\nstderr:\n${r.stderr.slice(-2000)}\nstdout tail:\n${r.stdout.slice(-2000)}`;
}
