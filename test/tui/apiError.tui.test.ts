// A turn of the loop ended by an API error (README "API errors"): Claude Code runs the StopFailure
// hook in the interactive UI, and the loop records it and shows it in /loop-status.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { type MessagesServer, startMessagesServer, text } from "../e2e/support/messagesServer.js";
import { CLAUDE_VERSIONS } from "../e2e/support/runClaude.js";
import { startTui, type Tui } from "./support/tui.js";

let tmp: string | undefined;
let server: MessagesServer | undefined;
let tui: Tui | undefined;

afterEach(async () => {
  await tui?.close();
  await server?.close();
  if (tmp) fs.rmSync(tmp, { recursive: true, force: true });
  tui = server = tmp = undefined;
});

async function until(test: () => boolean, what: string, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!test()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

describe.each(CLAUDE_VERSIONS)("Claude Code %s", (version) => {
  it("records an API error that ended a turn, shows it in /loop-status, and goes on with the next prompt", async () => {
    tmp = fs.mkdtempSync(path.join(os.tmpdir(), "cl-tui-apierror-"));
    const proj = path.join(tmp, "proj");
    fs.mkdirSync(proj);
    const historyPath = path.join(proj, ".claude", "continuation-loop.history.jsonl");
    const records = () =>
      fs.existsSync(historyPath)
        ? fs
            .readFileSync(historyPath, "utf8")
            .trim()
            .split("\n")
            .map((l) => JSON.parse(l) as Record<string, unknown>)
        : [];
    // The API fails (Claude Code's retries too) until the test lets it recover.
    let recovered = false;
    let replies = 0;
    server = await startMessagesServer((_req, index) => {
      if (index === 0) return text("Outlined the chapter.");
      if (!recovered) throw new Error("scripted API failure");
      replies += 1;
      return replies <= 2 ? text(replies === 2 ? "Chapter written. FINISHED" : "Writing on.") : undefined;
    });
    tui = await startTui({ version, baseUrl: server.url, cwd: proj, home: path.join(tmp, "home"), rows: 80 });
    await tui.submit(
      '/continuation-loop:loop-start --max-iterations 8 --completion-promise "FINISHED" Write the chapter',
    );
    await until(() => records().some((r) => r.decision === "api_error"), "the API error to be recorded");
    expect(records().find((r) => r.decision === "api_error")).toMatchObject({ iteration: 2 });
    await tui.submit("/continuation-loop:loop-status");
    await tui.waitFor(/last API error: \S+ at \d{4}-/, 30_000);
    // The loop goes on with the user's next prompt, to its end.
    recovered = true;
    await tui.submit("Please go on.");
    await tui.waitFor(/continuation-loop: .*\bcompleted\b/, 60_000);
    expect(records().at(-1)).toMatchObject({ decision: "end", reason: "completed" });
  });
});
