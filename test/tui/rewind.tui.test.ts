// `/rewind` typed while a loop runs, with the companion module (docs/REFERENCE.md "Several loops"): it runs between
// two iterations, and restoring the conversation to before `/loop-start` takes the goal out of it. The loop goes on,
// each iteration counted once, and the continuation after the rewind gives Claude the loop again.
import { afterEach, describe, expect, it } from "vitest";
import { startMessagesServer, text } from "../e2e/support/messagesServer.js";
import { NEWEST } from "../e2e/support/runClaude.js";
import { HOLD, heldScript } from "./support/heldScript.js";
import { TuiScratch } from "./support/scratch.js";
import { pickMenuRow, startTui } from "./support/tui.js";

let scratch: TuiScratch | undefined;
afterEach(async () => {
  await scratch?.dispose();
  scratch = undefined;
});

const GOAL = "Rename the billing tables";

describe(`Claude Code ${NEWEST.name}: /rewind while a loop runs, with the module`, () => {
  it("the loop goes on once per iteration, and the first request after the rewind carries the goal", async () => {
    const s = (scratch = new TuiScratch("rewind"));
    const held = (s.held = heldScript([
      text("Reply 1."),
      text("Reply 2."),
      HOLD,
      ...["4", "5", "6"].map((n) => text(`Reply ${n}.`)),
    ]));
    const server = (s.server = await startMessagesServer(held.script));
    const tui = (s.tui = await startTui({ version: NEWEST, baseUrl: server.url, cwd: s.proj, home: s.home, rows: 80 }));
    await tui.submit(`/continuation-loop:loop-start --max-iterations 5 --stall-limit 0 ${GOAL}`);
    await held.arrived(2);
    // Typed while the third iteration's request is in flight: Claude Code runs it when that turn ends.
    await tui.submit("/rewind");
    held.release(text("Reply 3."));
    // The first message listed is `/loop-start`'s: restoring the conversation to before it (the first choice).
    await pickMenuRow(tui, (row) => row.includes("loop-start"));
    await pickMenuRow(tui, (row) => /❯\s*1\./.test(row), "down");
    await tui.waitFor(/continuation-loop: .*max_iterations/, 60_000);
    expect(server.mainRequests).toHaveLength(5);
    expect(JSON.stringify(server.mainRequests[3]?.body).includes(GOAL), tui.screen()).toBe(true);
    expect(s.history().map((r) => [r.iteration, r.decision])).toEqual([
      [1, "continue"],
      [2, "continue"],
      [3, "continue"],
      [4, "continue"],
      [5, "end"],
    ]);
  });
});
