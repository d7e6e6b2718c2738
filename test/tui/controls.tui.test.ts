// Controls that act mid-turn through the companion module (docs/REFERENCE.md "The companion module"): on the newest
// Claude Code, /loop-status answers while Claude works, /loop-pause pauses the loop and ends the turn, and
// /loop-stop ends the loop and the turn within seconds, with no request after. Counted at the scripted model.
import fs from "node:fs";
import { afterEach, describe, expect, it } from "vitest";
import { startMessagesServer, text } from "../e2e/support/messagesServer.js";
import { NEWEST } from "../e2e/support/runClaude.js";
import { HOLD, heldScript } from "./support/heldScript.js";
import { TuiScratch, until } from "./support/scratch.js";
import { startTui } from "./support/tui.js";

/** The band: the plugin's sign and name, then `loop n/max`. */
const BAND = /⟳ continuation-loop .*loop (paused )?(\d+)\/(\d+)/;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

let scratch: TuiScratch | undefined;
afterEach(async () => {
  await scratch?.dispose();
  scratch = undefined;
});

describe(`Claude Code ${NEWEST.name}: loop controls mid-turn`, () => {
  it("/loop-status answers and /loop-pause pauses and ends the turn mid-turn; /loop-stop ends loop and turn", async () => {
    const s = (scratch = new TuiScratch("controls"));
    const stateFile = s.claude("continuation-loop.local.md");
    const held = (s.held = heldScript([HOLD, HOLD, HOLD, text("never sent")]));
    const server = (s.server = await startMessagesServer(held.script));
    const tui = (s.tui = await startTui({ version: NEWEST, baseUrl: server.url, cwd: s.proj, home: s.home, rows: 60 }));

    await tui.submit("/continuation-loop:loop-start --max-iterations 5 Tidy the docs");
    await held.arrived(0);
    held.release(text("Tidied the first page."));
    await held.arrived(1);
    await tui.waitFor((screen) => BAND.exec(screen)?.[2] === "2", 30_000);

    // Iteration 2 in flight: /loop-status runs at once and leaves the turn running.
    await tui.submit("/loop-status");
    await tui.waitFor(/loop running, iteration 2\/5/, 15_000);
    expect(fs.readFileSync(stateFile, "utf8")).toMatch(/^active: true$/m);
    // /loop-pause: paused at once, the turn ended, and no request after it.
    await tui.submit("/loop-pause");
    await until(() => fs.readFileSync(stateFile, "utf8").includes("active: false"), "the pause", 10_000);
    await tui.waitFor(/paused at iteration 2\/5/, 15_000);
    await tui.waitFor((screen) => BAND.exec(screen)?.[1] === "paused ", 15_000);
    // A known step after the pause: /continuation-loop:loop-status runs no model turn and waits
    // behind any turn still running, so once it answers, a continuation would have been asked for.
    await tui.submit("/continuation-loop:loop-status");
    await tui.waitFor(/loop paused, iteration 2\/5/, 15_000);
    expect(server.mainRequests).toHaveLength(2);

    // Resumed, the next iteration runs; /loop-stop typed while it works ends the loop and the turn.
    await tui.submit("/continuation-loop:loop-resume");
    await held.arrived(2);
    await tui.waitFor((screen) => BAND.exec(screen)?.[1] === undefined, 30_000);
    // Typed as a person would; the time runs from Enter to the state file's removal, polled every 10 ms.
    tui.type("/loop-stop");
    await tui.waitFor((screen) => screen.includes("❯ /loop-stop"), 15_000);
    await sleep(300);
    const entered = Date.now();
    tui.press("enter");
    while (fs.existsSync(stateFile) && Date.now() - entered < 10_000) await sleep(10);
    const stoppedAfterMs = Date.now() - entered;
    expect(fs.existsSync(stateFile)).toBe(false);
    await tui.waitFor(/continuation-loop: .*stopped/, 15_000);
    await tui.waitFor((screen) => !BAND.test(screen), 15_000);
    expect(s.history().at(-1)).toMatchObject({ decision: "end", reason: "stopped", iteration: 2 });
    // The turn ended: an ordinary prompt is answered now, not queued behind a running turn; it is
    // the 4th request, so none came after the stop.
    await tui.submit("Anything left?");
    await tui.waitFor(/never sent/, 15_000);
    expect(server.mainRequests).toHaveLength(4);
    expect(stoppedAfterMs).toBeLessThan(5_000);
    console.log(`/loop-stop typed mid-turn → loop ended ${stoppedAfterMs} ms after Enter`);
  });
});
