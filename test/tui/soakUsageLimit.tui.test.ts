// A claude.ai usage limit in a real terminal on the newest Claude Code, beside Claude Code's own
// `autoContinueAtUsageLimit` (docs/REFERENCE.md "Going on after an API error"): whatever the setting and with or
// without the companion module, exactly one continuation follows the reset. Claude Code reads the usage-limit
// headers only for a subscriber, so these sessions sign in with an OAuth token (test/e2e/support/README.md).
import { afterEach, describe, expect, it } from "vitest";
import { lastUserText } from "../e2e/support/requestText.js";
import { NEWEST } from "../e2e/support/runClaude.js";
import { CLAUDE_CODE_CONTINUE_MS, startLimitedLoop } from "./support/limitedLoop.js";
import { TuiScratch, until } from "./support/scratch.js";
import { startTui } from "./support/tui.js";

const MARKER = "[SYSTEM REMINDER - CONTINUATION LOOP ACTIVE]";

let scratch: TuiScratch | undefined;
afterEach(async () => {
  await scratch?.dispose();
  scratch = undefined;
});

describe(`Claude Code ${NEWEST.name}, signed in to a subscription: one continuation after a usage limit`, () => {
  it("autoContinueAtUsageLimit on, with the module: the module goes on; Claude Code's own continue, once the loop is done, is dropped", async () => {
    // The module's wait, scaled, ends 11–26 s after the reset: always before Claude Code's (30–90 s after it).
    const { s, server, tui, decisions } = await startLimitedLoop((scratch = new TuiScratch("usage-limit")), {
      setting: true,
      module: true,
      resetInMs: 8_000,
      waitScale: "0.5",
    });
    await until(() => decisions().includes("end"), "the loop's end", 90_000);
    expect(decisions()).toEqual(["continue", "api_error", "wait", "resume", "continue", "continue", "end"]);
    // Claude Code's own continue comes once the session is idle after the loop's end: dropped, or a sixth turn.
    const dropped = (screen: string) =>
      screen.replace(/\s+/g, " ").includes("the loop already went on after the usage limit");
    await tui.waitFor((screen) => dropped(screen) || server.mainRequests.length > 5, CLAUDE_CODE_CONTINUE_MS);
    expect(server.mainRequests).toHaveLength(5);
    expect(dropped(tui.screen())).toBe(true);
    // Every request after the limit is the loop's own: the resume, then iterations 3 and 4.
    const after = server.mainRequests.slice(2).map((req) => lastUserText(req));
    expect(after).toHaveLength(3);
    for (const sent of after) expect(sent).toContain(MARKER);
    expect(s.history().filter((r) => r.decision === "resume")).toHaveLength(1);
  });

  it("autoContinueAtUsageLimit off: Claude Code asks the person; the module's prompt waits for the answer, then goes on once", async () => {
    // The module's wait, scaled, ends 7–13 s after the error.
    const { s, server, tui, decisions } = await startLimitedLoop((scratch = new TuiScratch("usage-limit")), {
      setting: false,
      module: true,
      resetInMs: 5_000,
      waitScale: "0.2",
    });
    // The wait is over, but Claude Code's dialog holds the prompt: the person is told.
    await tui.waitFor(
      (screen) => screen.replace(/\s+/g, " ").includes("Claude Code is not taking prompts yet"),
      60_000,
    );
    expect(server.mainRequests).toHaveLength(2);
    expect(decisions()).not.toContain("resume");
    // The person answers the dialog (Esc leaves it): the loop goes on at once, once.
    tui.press("escape");
    await until(() => decisions().includes("end"), "the loop's end", 60_000);
    expect(decisions()).toEqual(["continue", "api_error", "wait", "resume", "continue", "continue", "end"]);
    expect(server.mainRequests).toHaveLength(5);
    expect(s.history().filter((r) => r.decision === "resume")).toHaveLength(1);
  });

  it("Claude Code relaunched during the wait (its own continue is then off): the module keeps the wait from the loop's files and goes on once", async () => {
    const { s, server, tui, decisions } = await startLimitedLoop((scratch = new TuiScratch("usage-limit")), {
      setting: true,
      module: true,
      resetInMs: 10_000,
      waitScale: "0.4",
    });
    await until(() => decisions().includes("wait"), "the module's wait", 30_000);
    const session = String(s.history()[0]?.session);
    await tui.close();
    // The same session, started again: nothing is typed.
    const again = (s.tui = await startTui({
      version: NEWEST,
      baseUrl: server.url,
      cwd: s.proj,
      home: s.home,
      rows: 80,
      env: { CLAUDE_CODE_MAX_RETRIES: "0", CONTINUATION_LOOP_WAIT_SCALE: "0.4" },
      subscription: true,
      prepareHome: false,
      extraArgs: ["--resume", session],
    }));
    await again.waitFor(
      (screen) => screen.replace(/\s+/g, " ").includes("when Claude Code started again; it goes on by itself at"),
      30_000,
    );
    await until(() => decisions().includes("end"), "the loop's end", 90_000);
    expect(decisions()).toEqual(["continue", "api_error", "wait", "resume", "continue", "continue", "end"]);
    expect(server.mainRequests).toHaveLength(5);
  });
});
