// A loop that meets a claude.ai usage limit in a real terminal, signed in to a subscription (an OAuth token:
// only then does Claude Code read the usage-limit headers; test/e2e/support/README.md), with the user setting
// `autoContinueAtUsageLimit` on or off (test/tui/usageLimit*.tui.test.ts).
import fs from "node:fs";
import path from "node:path";
import { startMessagesServer, text, usageLimit } from "../../e2e/support/messagesServer.js";
import { NEWEST } from "../../e2e/support/runClaude.js";
import { type TuiScratch, until } from "./scratch.js";
import { startTui } from "./tui.js";

/** Claude Code's own continue comes 30 to 90 s after the reset, once the session is idle (docs/REFERENCE.md). */
export const CLAUDE_CODE_CONTINUE_MS = 130_000;

/**
 * A loop of 4 iterations whose second turn meets a usage limit resetting `resetInMs` later, in a session whose
 * user settings say `autoContinueAtUsageLimit`. `waitScale` shortens the module's own wait (reset + 30–60 s).
 */
export async function startLimitedLoop(
  s: TuiScratch,
  opts: { setting: boolean; module: boolean; resetInMs: number; waitScale: string },
) {
  fs.mkdirSync(s.claude(""), { recursive: true });
  fs.writeFileSync(
    s.claude("continuation-loop.local.md"),
    "---\nmax_iterations: 4\ncompletion_promise: NEVER\nstall_limit: 0\n---\n\nWrite the summary.\n",
  );
  fs.mkdirSync(path.join(s.home, ".claude"), { recursive: true });
  fs.writeFileSync(
    path.join(s.home, ".claude", "settings.json"),
    JSON.stringify({ autoContinueAtUsageLimit: opts.setting }),
  );
  const server = (s.server = await startMessagesServer((_req, i) =>
    i === 1 ? usageLimit(Date.now() + opts.resetInMs) : text(`Reply ${i + 1}.`),
  ));
  const env: Record<string, string> = {
    CLAUDE_CODE_MAX_RETRIES: "0",
    CONTINUATION_LOOP_WAIT_SCALE: opts.waitScale,
    ...(!opts.module && { CONTINUATION_LOOP_MODULE: "0" }),
  };
  const tui = (s.tui = await startTui({
    version: NEWEST,
    baseUrl: server.url,
    cwd: s.proj,
    home: s.home,
    rows: 80,
    env,
    subscription: true,
  }));
  await tui.submit("go");
  await until(() => s.history().some((r) => r.decision === "api_error"), "the usage limit", 60_000);
  const decisions = () => s.history().map((r) => r.decision);
  return { s, server, tui, decisions };
}
