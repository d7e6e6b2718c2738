// The status line from the loop's first iteration, ticking with refreshInterval, and /loop-stop
// answered by the hook itself (README "Commands").
import fs from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { startMessagesServer, text } from "../e2e/support/messagesServer.js";
import { CLAUDE_VERSIONS, REPO_ROOT } from "../e2e/support/runClaude.js";
import { HOLD, heldScript, interruptRecorded } from "./support/heldScript.js";
import { TuiScratch } from "./support/scratch.js";
import { startTui } from "./support/tui.js";

let scratch: TuiScratch | undefined;
afterEach(async () => {
  await scratch?.dispose();
  scratch = undefined;
});

/** The status line's row: the loop sign, then `loop n/max` (README "Commands"). */
const STATUS_ROW = /⟳ loop (paused )?\d+\/\d+.*$/m;
const statusRow = (screen: string) => STATUS_ROW.exec(screen)?.[0];

describe.each(CLAUDE_VERSIONS)("Claude Code %s", (version) => {
  it("shows the loop in the status line during iteration 1, ticking; /loop-stop ends it without a model turn", async () => {
    const s = (scratch = new TuiScratch("control"));
    const { proj, home } = s;
    fs.mkdirSync(path.join(home, ".claude"), { recursive: true });
    // The setting the README shows.
    const statusLine = {
      type: "command",
      command: `node "${path.join(REPO_ROOT, "hooks", "cli.js")}" statusline`,
      refreshInterval: 1,
    };
    fs.writeFileSync(path.join(home, ".claude", "settings.json"), JSON.stringify({ statusLine }));
    const stateFile = path.join(proj, ".claude", "continuation-loop.local.md");
    const held = (s.held = heldScript([HOLD, HOLD, text("never sent")]));
    const server = (s.server = await startMessagesServer(held.script));
    const tui = (s.tui = await startTui({ version, baseUrl: server.url, cwd: proj, home, rows: 60 }));

    await tui.submit('/continuation-loop:loop-start --max-iterations 5 --completion-promise "ALL DONE" Tidy the docs');
    await held.arrived(0);
    // Iteration 1 is in flight: the status line already shows the loop, and its elapsed time moves.
    const first = statusRow(await tui.waitFor((s) => /⟳ loop 1\/5/.test(s), 30_000));
    await tui.waitFor((s) => statusRow(s) !== undefined && statusRow(s) !== first, 30_000);
    expect(server.mainRequests).toHaveLength(1);
    held.release(text("Tidied the first page."));

    // Iteration 2 in flight: Esc, then /loop-stop.
    await held.arrived(1);
    await tui.waitFor((s) => /⟳ loop 2\/5/.test(s), 30_000);
    tui.press("escape");
    await interruptRecorded(home);
    await tui.submit("/continuation-loop:loop-stop");
    await tui.waitFor(/continuation-loop: .*stopped/, 30_000);
    expect(fs.existsSync(stateFile)).toBe(false);
    // The status line no longer shows a loop, and no model turn ran for the command.
    await tui.waitFor((s) => statusRow(s) === undefined, 30_000);
    expect(server.mainRequests).toHaveLength(2);
  });
});
