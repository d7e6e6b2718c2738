// A claude.ai usage limit in a background session (`claude --bg`) on the newest Claude Code (docs/REFERENCE.md
// "Going on after an API error"): Claude Code does not continue a background session by itself, so the companion
// module's wait is the one continuation after the reset. Signed in to a subscription (an OAuth token), the only
// way Claude Code reads the usage-limit headers (test/e2e/support/README.md).
import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { killHomeProcesses, readHistory } from "../support/testHome.js";
import { type MessagesServer, startMessagesServer, text, usageLimit } from "./support/messagesServer.js";
import { REPO_ROOT, NEWEST } from "./support/runClaude.js";

/** One test's project, HOME and server; the background service this HOME started is stopped at the end. */
class World {
  readonly tmp = fs.mkdtempSync(path.join(os.tmpdir(), "cl-e2e-bg-limit-"));
  readonly proj = path.join(this.tmp, "proj");
  readonly home = path.join(this.tmp, "home");
  server: MessagesServer | undefined;

  /** What the background session runs with: the background service passes the user settings' `env` on. */
  settingsEnv(url: string): Record<string, string> {
    return {
      ANTHROPIC_BASE_URL: url,
      CLAUDE_CODE_OAUTH_TOKEN: "sk-ant-oat01-e2e-background-subscription",
      CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: "1",
      DISABLE_AUTOUPDATER: "1",
      CLAUDE_CODE_MAX_RETRIES: "0",
      // The module's wait (reset + 30–60 s) becomes 19–34 s after the error.
      CONTINUATION_LOOP_WAIT_SCALE: "0.5",
    };
  }

  claude(args: string[], timeoutMs = 60_000): Promise<{ code: number | null; out: string }> {
    const env = { PATH: process.env.PATH ?? "", HOME: this.home, LANG: "C.UTF-8" };
    return new Promise((resolve) => {
      const child = spawn(NEWEST.bin, args, { cwd: this.proj, env, stdio: ["ignore", "pipe", "pipe"] });
      let out = "";
      child.stdout.setEncoding("utf8").on("data", (d: string) => (out += d));
      child.stderr.setEncoding("utf8").on("data", (d: string) => (out += d));
      const timer = setTimeout(() => child.kill("SIGKILL"), timeoutMs);
      child.on("close", (code) => {
        clearTimeout(timer);
        resolve({ code, out });
      });
    });
  }

  history(): Record<string, unknown>[] {
    return readHistory(path.join(this.proj, ".claude", "continuation-loop.history.jsonl"));
  }

  async dispose(): Promise<void> {
    await this.claude(["daemon", "stop", "--any"], 30_000).catch(() => undefined);
    killHomeProcesses(this.home);
    await this.server?.close();
    fs.rmSync(this.tmp, { recursive: true, force: true });
  }
}

async function until(test: () => boolean, what: string, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!test()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

let world: World | undefined;
afterEach(async () => {
  await world?.dispose();
  world = undefined;
});

describe(`Claude Code ${NEWEST.name}: a usage limit in a background session`, () => {
  it("the module's wait goes on once after the reset, with autoContinueAtUsageLimit on", async () => {
    const w = (world = new World());
    fs.mkdirSync(path.join(w.proj, ".claude"), { recursive: true });
    fs.mkdirSync(path.join(w.home, ".claude"), { recursive: true });
    fs.writeFileSync(
      path.join(w.proj, ".claude", "continuation-loop.local.md"),
      "---\nmax_iterations: 4\ncompletion_promise: NEVER\nstall_limit: 0\n---\n\nWrite the summary.\n",
    );
    // A background session names itself with requests of its own (no tools: not scripted turns).
    const server = (w.server = await startMessagesServer((_req, i) =>
      i === 1 ? usageLimit(Date.now() + 8_000) : text(`Reply ${i + 1}.`),
    ));
    const config = {
      hasCompletedOnboarding: true,
      theme: "dark",
      projects: { [fs.realpathSync(w.proj)]: { hasTrustDialogAccepted: true, hasCompletedProjectOnboarding: true } },
    };
    fs.writeFileSync(path.join(w.home, ".claude.json"), JSON.stringify(config, null, 2));
    fs.writeFileSync(
      path.join(w.home, ".claude", "settings.json"),
      JSON.stringify({ autoContinueAtUsageLimit: true, env: w.settingsEnv(server.url) }, null, 2),
    );

    const started = await w.claude(["--bg", "--plugin-dir", REPO_ROOT, "go"]);
    expect(started.code, started.out).toBe(0);
    await until(() => w.history().some((r) => r.decision === "end"), "the loop's end", 100_000);
    expect(w.history().map((r) => r.decision)).toEqual([
      "continue",
      "api_error",
      "wait",
      "resume",
      "continue",
      "continue",
      "end",
    ]);
    expect(w.history().find((r) => r.decision === "wait")).toMatchObject({ basis: "reset" });
    // The limit's turn, the module's resume, iterations 3 and 4: no other turn of the session's.
    expect(server.mainRequests).toHaveLength(5);
  });
});
