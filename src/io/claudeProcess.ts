// Claude Code as `continuation-loop run` starts it (docs/REFERENCE.md "continuation-loop run"): found, started
// with its output read as it comes (never kept whole: docs/HEADLESS.md), and its saved sessions.
import { accessSync, constants, existsSync, readdirSync, statSync } from "node:fs";
import { delimiter, join, resolve } from "node:path";
import type { ClaudeExit } from "../core/decideRun.js";
import type { Env } from "../core/loopFiles.js";
import { loadChildProcess } from "./loadChildProcess.js";

function isExecutable(path: string): boolean {
  try {
    if (!statSync(path).isFile()) return false;
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/** Claude Code's executable: `$CONTINUATION_LOOP_CLAUDE` (a path, or a name looked up on PATH), else `claude` on PATH. */
export function findClaude(env: Env, cwd: string): { path: string } | { missing: string } {
  const given = env.CONTINUATION_LOOP_CLAUDE;
  const name = given || "claude";
  if (name.includes("/")) {
    const path = resolve(cwd, name);
    return isExecutable(path)
      ? { path }
      : {
          missing: `CONTINUATION_LOOP_CLAUDE=${given}: ${existsSync(path) ? "not an executable file" : "no such file"}`,
        };
  }
  for (const dir of (env.PATH ?? "").split(delimiter)) {
    if (dir && isExecutable(join(dir, name))) return { path: join(dir, name) };
  }
  return { missing: `${given ? `CONTINUATION_LOOP_CLAUDE=${given}: ` : ""}\`${name}\` is not on PATH` };
}

export interface ClaudeRun {
  pid: number | undefined;
  exited: Promise<ClaudeExit>;
  kill(signal: NodeJS.Signals): void;
}

/**
 * Starts Claude Code with no stdin; each chunk of its stdout and stderr goes to the callbacks as it comes,
 * so nothing buffers the whole stream (a 1 MiB buffer kills a long loop: docs/HEADLESS.md).
 */
export function spawnClaude(
  path: string,
  args: string[],
  options: { cwd: string; env: Env; onStdout: (text: string) => void; onStderr: (text: string) => void },
): ClaudeRun {
  const child = loadChildProcess().spawn(path, args, {
    cwd: options.cwd,
    env: options.env,
    stdio: ["ignore", "pipe", "pipe"],
  });
  child.stdout.setEncoding("utf8").on("data", options.onStdout);
  child.stderr.setEncoding("utf8").on("data", options.onStderr);
  const exited = new Promise<ClaudeExit>((settle) => {
    child.once("error", (error: NodeJS.ErrnoException) =>
      settle({ code: null, signal: null, error: error.code ?? error.message }),
    );
    child.once("close", (code, signal) => settle({ code, signal }));
  });
  return {
    pid: child.pid,
    exited,
    kill: (signal) => {
      child.kill(signal);
    },
  };
}

/** Where Claude Code saved this session (its transcript under `<config>/projects/`), if it has. */
export function findSessionTranscript(configDir: string, sessionId: string): string | undefined {
  const projects = join(configDir, "projects");
  try {
    const dir = readdirSync(projects).find((name) => existsSync(join(projects, name, `${sessionId}.jsonl`)));
    return dir === undefined ? undefined : join(projects, dir, `${sessionId}.jsonl`);
  } catch {
    return undefined;
  }
}

/** Has Claude Code saved this session, so `--resume` finds it? */
export const readSessionSaved = (configDir: string, sessionId: string): boolean =>
  findSessionTranscript(configDir, sessionId) !== undefined;
