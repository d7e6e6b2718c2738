// `continuation-loop run` (hooks/cli.js) started as a script or CI job would, driving the real Claude Code
// against the scripted API. Claude Code is reached through a one-line wrapper that notes each start's pid
// and execs the pinned binary, so a test can kill the very process `run` started, and count the starts.
import { spawn } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { type ClaudeVersion, cleanEnv, REPO_ROOT } from "./runClaude.js";

export const CLI = path.join(REPO_ROOT, "hooks", "cli.js");

export interface RunCommand {
  /** Resolves when `run` exits, with all it printed (a short test loop prints little). */
  done: Promise<{ code: number | null; signal: NodeJS.Signals | null; stdout: string; stderr: string }>;
  pid: number;
  /** The pids of the Claude Code processes `run` started, in order. */
  claudePids(): number[];
  stderr(): string;
  kill(): void;
}

/** Writes the wrapper `CONTINUATION_LOOP_CLAUDE` points at: it notes its pid, then becomes Claude Code. */
function writeClaudeWrapper(dir: string, version: ClaudeVersion): { wrapper: string; pids: string } {
  const wrapper = path.join(dir, "claude-wrapper.sh");
  const pids = path.join(dir, "claude-pids");
  fs.writeFileSync(wrapper, `#!/bin/sh\necho $$ >> '${pids}'\nexec '${version.bin}' "$@"\n`, { mode: 0o755 });
  return { wrapper, pids };
}

/** The environment `run` gets: the e2e harness's clean one (the scripted API), and the wrapper as Claude Code. */
export function runCommandEnv(
  version: ClaudeVersion,
  opts: { dir: string; baseUrl: string; home: string; env?: Record<string, string> },
): { env: Record<string, string>; pids: string } {
  const { wrapper, pids } = writeClaudeWrapper(opts.dir, version);
  return {
    env: { ...cleanEnv({ baseUrl: opts.baseUrl, home: opts.home }), CONTINUATION_LOOP_CLAUDE: wrapper, ...opts.env },
    pids,
  };
}

export function startRunCommand(
  version: ClaudeVersion,
  opts: { cwd: string; dir: string; baseUrl: string; home: string; args: string[]; env?: Record<string, string> },
): RunCommand {
  const { env, pids } = runCommandEnv(version, opts);
  const child = spawn(process.execPath, [CLI, "run", ...opts.args], {
    cwd: opts.cwd,
    env,
    stdio: ["ignore", "pipe", "pipe"],
  });
  let stdout = "";
  let stderr = "";
  child.stdout.setEncoding("utf8").on("data", (d: string) => {
    stdout += d;
  });
  child.stderr.setEncoding("utf8").on("data", (d: string) => {
    stderr += d;
  });
  const done = new Promise<{ code: number | null; signal: NodeJS.Signals | null; stdout: string; stderr: string }>(
    (resolve) => child.on("close", (code, signal) => resolve({ code, signal, stdout, stderr })),
  );
  return {
    done,
    pid: child.pid ?? 0,
    claudePids: () =>
      fs.existsSync(pids) ? fs.readFileSync(pids, "utf8").trim().split("\n").filter(Boolean).map(Number) : [],
    stderr: () => stderr,
    kill: () => child.kill("SIGKILL"),
  };
}
