// A turn of the loop ended by an API error (docs/REFERENCE.md "Several loops"): Claude Code runs the StopFailure
// hook in the interactive UI, and the loop records it and shows it in /loop-status.
import { afterEach, describe, expect, it } from "vitest";
import { startMessagesServer, text } from "../e2e/support/messagesServer.js";
import { CLAUDE_VERSIONS } from "../e2e/support/runClaude.js";
import { TuiScratch, until } from "./support/scratch.js";
import { startTui } from "./support/tui.js";

let scratch: TuiScratch | undefined;
afterEach(async () => {
  await scratch?.dispose();
  scratch = undefined;
});

describe.each(CLAUDE_VERSIONS)("Claude Code %s", (version) => {
  it("records an API error that ended a turn, shows it in /loop-status, and goes on with the next prompt", async () => {
    const s = (scratch = new TuiScratch("apierror"));
    const { proj, home } = s;
    // The API fails (Claude Code's retries too) until the test lets it recover.
    let recovered = false;
    let replies = 0;
    const server = (s.server = await startMessagesServer((_req, index) => {
      if (index === 0) return text("Outlined the chapter.");
      if (!recovered) throw new Error("scripted API failure");
      replies += 1;
      return replies <= 2 ? text(replies === 2 ? "Chapter written. FINISHED" : "Writing on.") : undefined;
    }));
    const tui = (s.tui = await startTui({ version, baseUrl: server.url, cwd: proj, home, rows: 80 }));
    await tui.submit(
      '/continuation-loop:loop-start --max-iterations 8 --completion-promise "FINISHED" Write the chapter',
    );
    await until(() => s.history().some((r) => r.decision === "api_error"), "the API error to be recorded");
    expect(s.history().find((r) => r.decision === "api_error")).toMatchObject({ iteration: 2 });
    await tui.submit("/continuation-loop:loop-status");
    await tui.waitFor(/last API error: \S+ at \d\d:\d\d:\d\d UTC; /, 30_000);
    // The loop goes on with the user's next prompt, to its end.
    recovered = true;
    await tui.submit("Please go on.");
    await tui.waitFor(/continuation-loop: .*\bcompleted\b/, 60_000);
    expect(s.history().at(-1)).toMatchObject({ decision: "end", reason: "completed" });
  });
});
