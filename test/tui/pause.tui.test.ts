// Pausing (docs/REFERENCE.md "Pausing"): Esc pauses a loop, and neither /loop-status nor an ordinary prompt sends Claude back
// into it; /loop-resume does. Read from the screen, counted at the scripted model.
import fs from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { startMessagesServer, text } from "../e2e/support/messagesServer.js";
import { lastUserText } from "../e2e/support/requestText.js";
import { CLAUDE_VERSIONS } from "../e2e/support/runClaude.js";
import { HOLD, heldScript, interruptRecorded } from "./support/heldScript.js";
import { TuiScratch } from "./support/scratch.js";
import { startTui, type Tui } from "./support/tui.js";

let scratch: TuiScratch | undefined;
afterEach(async () => {
  await scratch?.dispose();
  scratch = undefined;
});

const MARKER = "[SYSTEM REMINDER - CONTINUATION LOOP ACTIVE]";
/** How often `text` shows in the terminal (scrollback and screen). */
const count = (tui: Tui, text: string) => tui.history().join("\n").split(text).length - 1;

describe.each(CLAUDE_VERSIONS)("Claude Code %s", (version) => {
  it("Esc pauses the loop; /loop-status and an ordinary prompt do not continue it; /loop-resume does", async () => {
    const s = (scratch = new TuiScratch("pause"));
    const { proj, home } = s;
    const stateFile = path.join(proj, ".claude", "continuation-loop.local.md");
    const held = (s.held = heldScript([
      text("Outlined the report."),
      HOLD, // iteration 2: the user presses Esc while the model works
      text("Only the conclusion is left."),
      text("Wrote the conclusion."),
      text("The report is complete. ALL DONE"),
    ]));
    const server = (s.server = await startMessagesServer(held.script));
    const tui = (s.tui = await startTui({ version, baseUrl: server.url, cwd: proj, home, rows: 100 }));

    await tui.submit(
      '/continuation-loop:loop-start --max-iterations 5 --completion-promise "ALL DONE" Write the report',
    );
    await held.arrived(1);
    tui.press("escape");
    await interruptRecorded(home);

    // /loop-status: the loop pauses first, the user is told, and no model turn runs.
    await tui.submit("/continuation-loop:loop-status");
    await tui.waitFor(/continuation-loop: loop paused at iteration 2\/5/, 30_000);
    expect(fs.readFileSync(stateFile, "utf8")).toMatch(/^active: false$/m);

    // An ordinary prompt is answered, and its Stop leaves the paused loop alone.
    await tui.submit("What is left?");
    await tui.waitFor((s) => s.includes("Only the conclusion is left."), 60_000);
    // A known step after that turn: /loop-status runs no model turn and waits behind any turn the
    // Stop started, so once it answers, a continuation would have been asked for.
    await tui.submitAnswered(
      "/continuation-loop:loop-status",
      () => count(tui, "paused: you interrupted the turn (Esc)") >= 2,
    );
    expect(server.mainRequests).toHaveLength(3);
    // The model was asked the user's question, not sent back into the loop.
    expect(lastUserText(server.mainRequests[2]!).trimEnd().endsWith("What is left?")).toBe(true);

    // /loop-resume: the loop goes on from where it was, to its end.
    await tui.submit("/continuation-loop:loop-resume");
    await tui.waitFor(/continuation-loop: .*\bcompleted\b/, 60_000);
    expect(server.mainRequests).toHaveLength(5);
    expect(lastUserText(server.mainRequests[4]!).trimEnd().endsWith("Wrote the conclusion.")).toBe(false);
    expect(lastUserText(server.mainRequests[4]!)).toContain(MARKER);
    expect(server.exhausted).toBe(false);
    expect(fs.existsSync(stateFile)).toBe(false);
  });

  it("<loop-pause>: the question shows in one line with a bell; the next typed prompt answers it and the loop goes on", async () => {
    const s = (scratch = new TuiScratch("ask"));
    const { proj, home } = s;
    const server = (s.server = await startMessagesServer([
      text("Read the old schema."),
      text("Two ways to go. <loop-pause>Keep the old column names?</loop-pause>"),
      text("Keeping them."),
      text("Migration written. ALL DONE"),
    ]));
    const tui = (s.tui = await startTui({ version, baseUrl: server.url, cwd: proj, home, rows: 80 }));
    await tui.submit(
      '/continuation-loop:loop-start --max-iterations 6 --completion-promise "ALL DONE" Write the migration',
    );
    await tui.waitFor(/continuation-loop: Claude asks: Keep the old column names\?/, 60_000);
    // The loop waits: no continuation (checked after /loop-status, which waits behind any turn the
    // Stop started and does not answer the question), and the terminal rang once.
    await tui.submit("/continuation-loop:loop-status");
    await tui.waitFor(
      /loop paused, iteration 2\/6[\s\S]*paused, Claude's question: Keep the old column names\?/,
      30_000,
    );
    expect(server.mainRequests).toHaveLength(2);
    expect(tui.bells()).toBe(1);
    await tui.submit("Yes, keep them.");
    await tui.waitFor(/continuation-loop: .*\bcompleted\b/, 60_000);
    expect(server.mainRequests).toHaveLength(4);
    expect(lastUserText(server.mainRequests[2]!).trimEnd().endsWith("Yes, keep them.")).toBe(true);
    expect(lastUserText(server.mainRequests[3]!)).toContain(MARKER);
    expect(tui.bells()).toBe(2);
  });
});
