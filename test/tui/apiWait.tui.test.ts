// Going on after an API error in a real terminal on the newest Claude Code (docs/REFERENCE.md "Going on after an API error"): a
// rate limit ends a turn of the loop, the band and one line say what the loop waits for and until when,
// and after the (shortened) wait the loop goes on by itself.
import { afterEach, describe, expect, it } from "vitest";
import { apiError, startMessagesServer, text } from "../e2e/support/messagesServer.js";
import { NEWEST } from "../e2e/support/runClaude.js";
import { TuiScratch, until } from "./support/scratch.js";
import { startTui } from "./support/tui.js";

/** The band while the loop waits: what for, and until when. */
const WAIT_BAND = /⟳ continuation-loop .*waits for the rate or usage limit until \d\d:\d\d:\d\d UTC \(\d+s\)/;

let scratch: TuiScratch | undefined;
afterEach(async () => {
  await scratch?.dispose();
  scratch = undefined;
});

describe(`Claude Code ${NEWEST.name}: the wait after an API error in the terminal`, () => {
  it("shows the wait in the band and in one line, then goes on by itself", async () => {
    const s = (scratch = new TuiScratch("apiwait"));
    const server = (s.server = await startMessagesServer([
      text("Outlined the chapter."),
      apiError(429),
      text("Wrote the chapter."),
      text("Checked the chapter."),
    ]));
    // 1 minute becomes 9.6–12 s: long enough to read the band, short enough for a test.
    const env = { CONTINUATION_LOOP_WAIT_SCALE: "0.2", CLAUDE_CODE_MAX_RETRIES: "0" };
    const tui = (s.tui = await startTui({
      version: NEWEST,
      baseUrl: server.url,
      cwd: s.proj,
      home: s.home,
      rows: 80,
      env,
    }));
    await tui.submit("/continuation-loop:loop-start --max-iterations 3 Write the chapter");
    await tui.waitFor(WAIT_BAND, 60_000);
    // The one line, wrapped as the terminal wraps it.
    expect(tui.screen().replace(/\s+/g, " ")).toMatch(
      /continuation-loop: an API error \(rate_limit\) ended the turn; the loop waits for the rate or usage limit and goes on by itself at \d\d:\d\d:\d\d UTC \(in \d+s;/,
    );
    expect(server.mainRequests).toHaveLength(2);
    // After the wait, with nothing typed: the loop goes on to its end, and the band no longer waits.
    await tui.waitFor(/continuation-loop: .*max_iterations/, 60_000);
    expect(tui.screen()).not.toMatch(WAIT_BAND);
    expect(server.mainRequests).toHaveLength(4);
    await until(() => s.history().some((r) => r.decision === "end"), "the loop's end");
    expect(s.history().map((r) => r.decision)).toEqual(["continue", "api_error", "wait", "resume", "continue", "end"]);
  });

  it("rings the terminal once when errors in a row pause the loop", async () => {
    const s = (scratch = new TuiScratch("apipause"));
    s.server = await startMessagesServer([text("Outlined the chapter."), apiError(429), text("never sent")]);
    const env = { CONTINUATION_LOOP_WAIT_SCALE: "0.2", CLAUDE_CODE_MAX_RETRIES: "0" };
    const tui = (s.tui = await startTui({
      version: NEWEST,
      baseUrl: s.server.url,
      cwd: s.proj,
      home: s.home,
      rows: 80,
      env,
    }));
    await tui.submit("/continuation-loop:loop-start --max-iterations 3 --max-api-failures 1 Write the chapter");
    await until(() => s.history().some((r) => r.decision === "pause"), "the pause");
    // The module's line says why; the bell comes with the StopFailure hook's answer (notify's default).
    await tui.waitFor(/loop paused: 1 API errors in a row/, 60_000);
    await until(() => tui.bells() === 1, "the bell");
    expect(s.history().map((r) => r.decision)).toEqual(["continue", "api_error", "pause"]);
  });
});
