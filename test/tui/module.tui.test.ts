// The companion module in a real terminal on the newest Claude Code (README "The companion module"): an
// ordinary iteration in a few neutral rows, the band above the prompt, and /loop-stop, /loop-pause and
// /loop-status acting while Claude works.
import fs from "node:fs";
import { afterEach, describe, expect, it } from "vitest";
import { startMessagesServer, text } from "../e2e/support/messagesServer.js";
import { CLAUDE_VERSIONS } from "../e2e/support/runClaude.js";
import { HOLD, heldScript } from "./support/heldScript.js";
import { iterationRows } from "./support/screen.js";
import { TuiScratch, until } from "./support/scratch.js";
import { startTui } from "./support/tui.js";

const NEWEST = CLAUDE_VERSIONS.at(-1)!;
const REPLIES = ["Drafted the summary.", "Tightened the wording.", "Checked the facts.", "Translated it."];
/** The band: the plugin's sign and name, then `loop n/max`. */
const BAND = /⟳ continuation-loop .*loop (paused )?(\d+)\/(\d+)/;

let scratch: TuiScratch | undefined;
afterEach(async () => {
  await scratch?.dispose();
  scratch = undefined;
});

describe(`Claude Code ${NEWEST.name}: the module in the terminal`, () => {
  it("shows an ordinary iteration in a few neutral rows at 140 columns, without the hook's command", async () => {
    const s = (scratch = new TuiScratch("module-rows"));
    const server = (s.server = await startMessagesServer(REPLIES.map((r) => text(r))));
    const tui = (s.tui = await startTui({
      version: NEWEST,
      baseUrl: server.url,
      cwd: s.proj,
      home: s.home,
      cols: 140,
      rows: 100,
    }));
    await tui.submit("/continuation-loop:loop-start --max-iterations 4 Write the summary");
    await tui.waitFor(/continuation-loop: .*max_iterations/, 60_000);
    expect(server.mainRequests).toHaveLength(4);
    const rows = tui.history();
    for (const n of [1, 2]) {
      const between = iterationRows(rows, REPLIES[n]!, REPLIES[n + 1]!);
      expect(between, rows.join("\n")).toBeDefined();
      // An ordinary iteration: a prompt from the plugin, not the hook's command and its problem report.
      // Claude Code's turn summary, a blank row, `› Prompt from the … plugin`, and the reminder (which
      // wraps to two rows at 140 columns when it names a limit): five rows, against six before.
      expect(between!.length, between!.join("\n")).toBeLessThanOrEqual(5);
      expect(between!.join("\n")).not.toContain("stop.js");
      expect(between!.join("\n")).toContain(`iteration ${n + 2}/4`);
    }
  });

  it("draws the band while the loop runs; /loop-status and /loop-pause act mid-turn, /loop-stop ends loop and turn", async () => {
    const s = (scratch = new TuiScratch("module-control"));
    const stateFile = s.claude("continuation-loop.local.md");
    const held = (s.held = heldScript([HOLD, HOLD, HOLD, HOLD, text("never sent")]));
    const server = (s.server = await startMessagesServer(held.script));
    const tui = (s.tui = await startTui({ version: NEWEST, baseUrl: server.url, cwd: s.proj, home: s.home, rows: 60 }));

    await tui.submit("/continuation-loop:loop-start --max-iterations 5 Tidy the docs");
    await held.arrived(0);
    held.release(text("Tidied the first page."));
    await held.arrived(1);
    // Iteration 2 in flight: the band shows it.
    await tui.waitFor((screen) => BAND.exec(screen)?.[2] === "2", 30_000);

    // /loop-status runs while the turn goes on (Claude Code shows its row when the turn ends); then
    // /loop-pause mid-turn pauses the loop at once and ends the turn, with no request after it.
    await tui.submit("/loop-status");
    await tui.submit("/loop-pause");
    await until(() => fs.readFileSync(stateFile, "utf8").includes("active: false"), "the pause", 10_000);
    await tui.waitFor(/continuation-loop: loop running, iteration 2\/5/, 30_000);
    await tui.waitFor(/paused at iteration 2\/5/, 30_000);
    await tui.waitFor((screen) => BAND.exec(screen)?.[1] === "paused ", 30_000);
    await new Promise((resolve) => setTimeout(resolve, 2_000));
    expect(server.mainRequests).toHaveLength(2);

    // Resumed, the next iteration runs; /loop-stop typed while it works ends the loop and the turn.
    await tui.submit("/continuation-loop:loop-resume");
    await held.arrived(2);
    const typed = Date.now();
    await tui.submit("/loop-stop");
    await until(() => !fs.existsSync(stateFile), "the loop's end", 10_000);
    const stoppedAfterMs = Date.now() - typed;
    await tui.waitFor((screen) => !BAND.test(screen), 30_000);
    await new Promise((resolve) => setTimeout(resolve, 3_000));
    expect(server.mainRequests).toHaveLength(3);
    expect(s.history().at(-1)).toMatchObject({ decision: "end", reason: "stopped" });
    console.log(`/loop-stop typed mid-turn → loop ended after ${stoppedAfterMs} ms`);
  });
});
