// `/model` typed while a loop runs, with the companion module (docs/REFERENCE.md "Several loops"): it runs between
// two iterations, and the loop's output tokens are counted per model as each turn was answered, once each.
import { afterEach, describe, expect, it } from "vitest";
import { type RecordedRequest, startMessagesServer, text } from "../e2e/support/messagesServer.js";
import { NEWEST } from "../e2e/support/runClaude.js";
import { HOLD, heldScript } from "./support/heldScript.js";
import { TuiScratch } from "./support/scratch.js";
import { pickMenuRow, startTui } from "./support/tui.js";

let scratch: TuiScratch | undefined;
afterEach(async () => {
  await scratch?.dispose();
  scratch = undefined;
});

const tokensOf = (index: number) => 100 + index;

describe(`Claude Code ${NEWEST.name}: /model while a loop runs, with the module`, () => {
  it("the turns after the switch are tallied under the new model; the per-model tally sums to the loop's tokens", async () => {
    const s = (scratch = new TuiScratch("model"));
    const replies = [0, 1, 2, 3, 4].map((i) => text(`Reply ${i}.`, { output_tokens: tokensOf(i) }));
    const held = (s.held = heldScript([replies[0]!, replies[1]!, HOLD, replies[3]!, replies[4]!]));
    const server = (s.server = await startMessagesServer(held.script));
    const tui = (s.tui = await startTui({ version: NEWEST, baseUrl: server.url, cwd: s.proj, home: s.home, rows: 80 }));
    await tui.submit("/continuation-loop:loop-start --max-iterations 5 --stall-limit 0 Write the summary");
    await held.arrived(2);
    // Typed while the third iteration's request is in flight: Claude Code runs it when that turn ends.
    await tui.submit("/model sonnet");
    held.release(replies[2]);
    // Claude Code asks before a switch that re-reads the conversation: its first choice switches.
    await pickMenuRow(tui, (row) => /❯\s*1\./.test(row), "down");
    await tui.waitFor(/continuation-loop: .*max_iterations/, 60_000);
    const modelOf = (req: RecordedRequest) => String(req.body?.model);
    const asked = server.mainRequests.map(modelOf);
    expect(asked).toHaveLength(5);
    expect(new Set(asked).size).toBe(2);
    const expected: Record<string, number> = {};
    for (const [i, model] of asked.entries()) expected[model] = (expected[model] ?? 0) + tokensOf(i);
    const end = s.history().at(-1);
    expect(end).toMatchObject({ iteration: 5, decision: "end", reason: "max_iterations" });
    expect(end?.tokens_by_model).toEqual(expected);
    expect(end?.output_tokens).toBe(Object.values(expected).reduce((a, b) => a + b, 0));
  });
});
