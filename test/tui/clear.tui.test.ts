// /clear starts a new session in the same Claude Code process: the loop carries over to it
// (docs/REFERENCE.md "Several loops"). Esc first, so /clear can be typed mid-loop.
import fs from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { startMessagesServer, text } from "../e2e/support/messagesServer.js";
import { lastUserText } from "../e2e/support/requestText.js";
import { CLAUDE_VERSIONS } from "../e2e/support/runClaude.js";
import { HOLD, heldScript, interruptRecorded } from "./support/heldScript.js";
import { TuiScratch, until } from "./support/scratch.js";
import { startTui } from "./support/tui.js";

let scratch: TuiScratch | undefined;
afterEach(async () => {
  await scratch?.dispose();
  scratch = undefined;
});

const MARKER = "[SYSTEM REMINDER - CONTINUATION LOOP ACTIVE]";
const ownerOf = (file: string) => /^session_id: "?([^"\n]+)"?$/m.exec(fs.readFileSync(file, "utf8"))?.[1];

describe.each(CLAUDE_VERSIONS)("Claude Code %s", (version) => {
  it("carries the loop over /clear to the new session, which goes on with it to the end", async () => {
    const s = (scratch = new TuiScratch("clear"));
    const { proj, home } = s;
    const stateFile = path.join(proj, ".claude", "continuation-loop.local.md");
    const held = (s.held = heldScript([
      text("Read the old notes."),
      HOLD, // iteration 2: Esc, then /clear
      text("Picked the work up again."),
      text("The notes are merged. ALL DONE"),
    ]));
    const server = (s.server = await startMessagesServer(held.script));
    const tui = (s.tui = await startTui({ version, baseUrl: server.url, cwd: proj, home, rows: 80 }));

    await tui.submit(
      '/continuation-loop:loop-start --max-iterations 6 --completion-promise "ALL DONE" Merge the notes',
    );
    await held.arrived(1);
    const before = ownerOf(stateFile);
    expect(before).toBeDefined();
    tui.press("escape");
    await interruptRecorded(home);

    await tui.submit("/clear");
    // The new session owns the loop now; it kept its place, paused by the interruption.
    await until(() => ownerOf(stateFile) !== before, "the loop to move to the new session");
    const state = fs.readFileSync(stateFile, "utf8");
    expect(state).toMatch(/^iteration_count: 2$/m);
    expect(state).toMatch(/^active: false$/m);
    await tui.waitFor(/continuation-loop: the loop carries over \/clear/, 30_000);

    // Resumed in the new session without --force, it runs to its end there.
    await tui.submit("/continuation-loop:loop-resume");
    await tui.waitFor(/continuation-loop: .*\bcompleted\b/, 60_000);
    expect(server.mainRequests).toHaveLength(4);
    // The new session's first request starts afresh (the old conversation is gone) yet has the goal.
    const afterClear = server.mainRequests[2]!;
    expect(afterClear.body?.messages?.some((m) => JSON.stringify(m).includes("Read the old notes."))).toBe(false);
    expect(JSON.stringify(afterClear.body?.messages)).toContain("Merge the notes");
    expect(lastUserText(server.mainRequests[3]!)).toContain(MARKER);
    expect(fs.existsSync(stateFile)).toBe(false);
  });
});
