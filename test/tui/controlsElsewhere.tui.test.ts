// /loop-stop typed mid-turn through the companion module when it stops nothing of this session's
// (docs/REFERENCE.md "The companion module"): the running turn is not ended. A session with no loop keeps
// its turn and its reply; a loop's session that stops another session's loop by --name keeps its own loop
// going. Counted at the scripted model.
import fs from "node:fs";
import { afterEach, describe, expect, it } from "vitest";
import { startMessagesServer, text } from "../e2e/support/messagesServer.js";
import { NEWEST } from "../e2e/support/runClaude.js";
import { HOLD, heldScript } from "./support/heldScript.js";
import { TuiScratch, until } from "./support/scratch.js";
import { startTui } from "./support/tui.js";

/** The band: the plugin's sign and name, then `loop n/max`. */
const BAND = /⟳ continuation-loop .*loop (paused )?(\d+)\/(\d+)/;

let scratch: TuiScratch | undefined;
afterEach(async () => {
  await scratch?.dispose();
  scratch = undefined;
});

describe(`Claude Code ${NEWEST.name}: loop controls that stop nothing of this session's`, () => {
  it("in a session with no loop, /loop-stop mid-turn says so and the turn goes on to its reply", async () => {
    const s = (scratch = new TuiScratch("controls-none"));
    const held = (s.held = heldScript([HOLD, text("never sent")]));
    const server = (s.server = await startMessagesServer(held.script));
    const tui = (s.tui = await startTui({ version: NEWEST, baseUrl: server.url, cwd: s.proj, home: s.home, rows: 60 }));

    await tui.submit("Tidy the docs");
    await held.arrived(0);
    await tui.submit("/loop-stop");
    await tui.waitFor(/no loop is running.*nothing to stop/, 15_000);
    held.release(text("Tidied the first page."));
    await tui.waitFor(/Tidied the first page/, 30_000);
    expect(server.mainRequests).toHaveLength(1);
  });

  it("a loop's session that stops another session's loop by --name mid-turn keeps its own loop going", async () => {
    const s = (scratch = new TuiScratch("controls-other"));
    const other = s.claude("continuation-loop.other.local.md");
    const ours = s.claude("continuation-loop.local.md");
    const held = (s.held = heldScript([HOLD, HOLD, text("never sent")]));
    const server = (s.server = await startMessagesServer(held.script));
    const tui = (s.tui = await startTui({ version: NEWEST, baseUrl: server.url, cwd: s.proj, home: s.home, rows: 60 }));

    await tui.submit("/continuation-loop:loop-start --max-iterations 5 Tidy the docs");
    await held.arrived(0);
    fs.writeFileSync(
      other,
      '---\nmax_iterations: 9\nsession_id: "0c0ffee0-0000-4000-8000-000000000000"\n---\nAnother session\'s goal\n',
    );
    await tui.submit("/loop-stop --name other");
    await until(() => !fs.existsSync(other), "the other loop's end", 15_000);
    // This session's iteration 1 goes on: its reply, then the continuation to iteration 2.
    held.release(text("Tidied the first page."));
    await held.arrived(1);
    await tui.waitFor((screen) => BAND.exec(screen)?.[2] === "2", 30_000);
    expect(fs.readFileSync(ours, "utf8")).toMatch(/^active: true$/m);
  });
});
