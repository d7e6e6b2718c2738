// A Claude Code session that stays up between turns, as an interactive one does: `-p` with
// `--input-format stream-json`, prompts written to stdin, the process ending when stdin closes. Plain `-p`
// exits when its one turn ends (or fails), so a timer of the companion module could never fire there.
import { spawn } from "node:child_process";
import fs from "node:fs";
import { cleanEnv, type RunClaudeOptions, type StreamEvent } from "./runClaude.js";

export interface LiveSession {
  /** Parsed stream-json lines so far. */
  readonly events: StreamEvent[];
  /** Sends a prompt as a person would type it (a slash command too). */
  send(text: string): void;
  /** Closes stdin and waits for the process to end (killed after `ms`). */
  close(ms?: number): Promise<{ code: number | null; stderr: string }>;
}

export function startLiveSession(
  opts: Omit<RunClaudeOptions, "prompt" | "resume" | "timeoutMs">,
  first: string,
): LiveSession {
  fs.mkdirSync(opts.home, { recursive: true });
  const args = ["-p", "--input-format", "stream-json", "--output-format", "stream-json", "--verbose"];
  for (const dir of opts.pluginDirs ?? []) args.push("--plugin-dir", dir);
  if (opts.sessionId) args.push("--session-id", opts.sessionId);
  if (opts.includeHookEvents ?? true) args.push("--include-hook-events");
  args.push(...(opts.extraArgs ?? []));
  const child = spawn(opts.version.bin, args, {
    cwd: opts.cwd,
    env: cleanEnv(opts),
    stdio: ["pipe", "pipe", "pipe"],
    detached: true,
  });
  const events: StreamEvent[] = [];
  let pending = "";
  let stderr = "";
  child.stdout.setEncoding("utf8").on("data", (d: string) => {
    pending += d;
    const lines = pending.split("\n");
    pending = lines.pop() ?? "";
    for (const line of lines) {
      try {
        const v: unknown = JSON.parse(line);
        if (v !== null && typeof v === "object") events.push(v as StreamEvent);
      } catch {
        // not JSON: ignored
      }
    }
  });
  child.stderr.setEncoding("utf8").on("data", (d: string) => {
    stderr += d;
  });
  const ended = new Promise<number | null>((resolve) => child.on("close", (code) => resolve(code)));
  const send = (text: string) =>
    child.stdin.write(`${JSON.stringify({ type: "user", message: { role: "user", content: text } })}\n`);
  send(first);
  return {
    events,
    send,
    async close(ms = 20_000) {
      child.stdin.end();
      const timer = setTimeout(() => {
        try {
          if (child.pid !== undefined) process.kill(-child.pid, "SIGKILL");
        } catch {
          child.kill("SIGKILL");
        }
      }, ms);
      const code = await ended;
      clearTimeout(timer);
      return { code, stderr };
    },
  };
}
