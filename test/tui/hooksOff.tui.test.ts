// Hooks turned off mid-loop in the interactive UI (docs/REFERENCE.md "When the hooks do not run"): on the newest
// Claude Code the companion module still answers /loop-status when `disableAllHooks` is set while the loop runs,
// and its answer says the hooks are off and where, instead of a loop shown as running.
import fs from "node:fs";
import { afterEach, describe, expect, it } from "vitest";
import { startMessagesServer, text } from "../e2e/support/messagesServer.js";
import { NEWEST } from "../e2e/support/runClaude.js";
import { HOLD, heldScript } from "./support/heldScript.js";
import { TuiScratch } from "./support/scratch.js";
import { startTui } from "./support/tui.js";

let scratch: TuiScratch | undefined;
afterEach(async () => {
  await scratch?.dispose();
  scratch = undefined;
});

describe(`Claude Code ${NEWEST.name}: disableAllHooks set while a loop runs`, () => {
  it("/loop-status from the companion module says the hooks are off, naming the file", async () => {
    const s = (scratch = new TuiScratch("hooksoff"));
    const held = (s.held = heldScript([HOLD, HOLD, text("third"), text("fourth"), text("fifth")]));
    const server = (s.server = await startMessagesServer(held.script));
    const tui = (s.tui = await startTui({ version: NEWEST, baseUrl: server.url, cwd: s.proj, home: s.home, rows: 60 }));

    await tui.submit("/continuation-loop:loop-start --max-iterations 5 Tidy the docs");
    await held.arrived(0);
    held.release(text("Tidied the first page."));
    await held.arrived(1);
    // Iteration 2 in flight: the person turns every hook off in the project's local settings.
    fs.writeFileSync(s.claude("settings.local.json"), JSON.stringify({ disableAllHooks: true }));
    held.release(text("Tidied the second page."));
    await tui.submit("/loop-status");
    await tui.waitFor(/hooks off: disableAllHooks is true in \.claude\/settings\.local\.json/, 30_000);
    expect(fs.existsSync(s.claude("continuation-loop.local.md"))).toBe(true);
  }, 120_000);
});
