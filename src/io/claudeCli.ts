// Claude Code's own commands, as the helper runs them for a loop left running (docs/REFERENCE.md "Leave it
// running"): `claude --bg`, `claude agents --json`, `claude stop`. Each is short; none may hang the helper.
import type { Env } from "../core/loopFiles.js";
import { loadChildProcess } from "./loadChildProcess.js";

export interface ClaudeAnswer {
  /** The exit status; null when it did not end by itself (killed at the time limit) or could not start. */
  code: number | null;
  stdout: string;
  stderr: string;
  /** Why it could not run, when it could not. */
  error?: string;
}

/** Runs one of Claude Code's short commands to its end (killed after `timeoutMs`), its output kept. */
export function runClaudeCommand(
  path: string,
  args: string[],
  options: { cwd: string; env: Env; timeoutMs?: number },
): ClaudeAnswer {
  const result = loadChildProcess().spawnSync(path, args, {
    cwd: options.cwd,
    env: options.env,
    encoding: "utf8",
    stdio: ["ignore", "pipe", "pipe"],
    timeout: options.timeoutMs ?? 60_000,
    maxBuffer: 16 * 1024 * 1024,
  });
  const error = result.error ? ((result.error as NodeJS.ErrnoException).code ?? result.error.message) : undefined;
  return { code: result.status, stdout: result.stdout ?? "", stderr: result.stderr ?? "", ...(error && { error }) };
}

/** A background session as `claude agents --json --all` lists it (docs/REFERENCE.md "Leave it running"). */
export interface BackgroundSession {
  /** The short id `claude attach` takes. */
  id: string;
  sessionId: string;
  /** `busy`, `idle`; absent while its process does not run. */
  status?: string;
  /** Claude Code's word on it: `working`, `blocked`, `stopped`… */
  state?: string;
}

/** Every background session Claude Code knows of, running or not; undefined when it cannot say. */
export function readBackgroundSessions(claude: string, env: Env, cwd: string): BackgroundSession[] | undefined {
  const ran = runClaudeCommand(claude, ["agents", "--json", "--all"], { cwd, env, timeoutMs: 20_000 });
  if (ran.code !== 0) return undefined;
  try {
    const list: unknown = JSON.parse(ran.stdout);
    if (!Array.isArray(list)) return undefined;
    return list.flatMap((entry: Record<string, unknown>) =>
      typeof entry?.id === "string" && typeof entry.sessionId === "string"
        ? [
            {
              id: entry.id,
              sessionId: entry.sessionId,
              ...(typeof entry.status === "string" && { status: entry.status }),
              ...(typeof entry.state === "string" && { state: entry.state }),
            },
          ]
        : [],
    );
  } catch {
    return undefined;
  }
}
