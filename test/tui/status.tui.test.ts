// /loop-status at a glance (README "Commands"): at most 8 rows at 140 columns, typed while Claude works
// (2.1.332: the companion module answers at once; 2.1.197: queued until Esc ends the turn) and between
// turns, on both pinned versions. Read from the screen.
import { afterEach, describe, expect, it } from "vitest";
import { startMessagesServer, text } from "../e2e/support/messagesServer.js";
import { CLAUDE_VERSIONS, NEWEST } from "../e2e/support/runClaude.js";
import { HOLD, heldScript, interruptRecorded } from "./support/heldScript.js";
import { TuiScratch } from "./support/scratch.js";
import { startTui } from "./support/tui.js";

let scratch: TuiScratch | undefined;
afterEach(async () => {
  await scratch?.dispose();
  scratch = undefined;
});

/** The status's first row (or the Esc pause's line above it) and its last row. */
const HEAD = /loop (running|paused), iteration \d+\/5/;
const PAUSED_AT = /loop paused at iteration \d+\/5/;
const LAST = /last: (#\d|no decision)/;

/**
 * The rows the last status on screen takes: from its first row (searched from the bottom) to its
 * `last:` row, blank rows between included. Undefined while it is not all on screen.
 */
function statusRows(rows: string[]): string[] | undefined {
  let end = -1;
  for (let i = rows.length - 1; i >= 0; i--)
    if (LAST.test(rows[i] ?? "")) {
      end = i;
      break;
    }
  if (end < 0) return undefined;
  let start = -1;
  for (let i = end; i >= 0 && start < 0; i--) if (HEAD.test(rows[i] ?? "")) start = i;
  if (start < 0) return undefined;
  // The Esc pause's line, when the prompt hook paused the loop first, is part of the answer.
  if (PAUSED_AT.test(rows[start - 1] ?? "")) start--;
  return rows.slice(start, end + 1);
}

describe.each(CLAUDE_VERSIONS)("Claude Code %s: /loop-status", (version) => {
  it("takes at most 8 rows at 140 columns, mid-turn and between turns, the state file's path whole", async () => {
    const s = (scratch = new TuiScratch("status"));
    const held = (s.held = heldScript([text("Outlined the report."), HOLD, text("never sent")]));
    const server = (s.server = await startMessagesServer(held.script));
    const tui = (s.tui = await startTui({
      version,
      baseUrl: server.url,
      cwd: s.proj,
      home: s.home,
      cols: 140,
      rows: 100,
    }));
    const newest = version === NEWEST;

    // A loop with much to say: until failing (its output comes back), tokens and time limits.
    await tui.submit(
      '/continuation-loop:loop-start --max-iterations 5 --until "echo the report is not written yet; exit 1" --max-tokens 50000 --max-duration 2h --verify "test -f report.md" Write the quarterly report for the board, with every figure checked against the ledger and a summary on top',
    );
    await held.arrived(1);

    // Mid-turn: iteration 2 is in flight.
    if (newest) {
      await tui.submit("/loop-status");
    } else {
      // 2.1.197 queues the command until the turn ends; Esc ends it.
      await tui.submit("/continuation-loop:loop-status");
      tui.press("escape");
      await interruptRecorded(s.home);
    }
    await tui.waitFor((screen) => statusRows(screen.split("\n")) !== undefined, 30_000);
    const midTurn = statusRows(tui.lines()) ?? [];
    expect(midTurn.join("\n")).toMatch(/iteration 2\/5/);
    expect(midTurn.length, midTurn.join("\n")).toBeLessThanOrEqual(8);
    // What ends the loop, the limits and the last decisions are all there (rows may wrap mid-word); on 2.1.197 the
    // Esc that sent the command paused the loop first, which the history records.
    expect(midTurn.join(" ")).toMatch(
      /ends when: .*limits: iterations 2\/5 .*last: (#2 pause: interrupted · )?#1 continued/s,
    );

    // Between turns: the turn ended (Esc on 2.1.332 now), then the status again.
    if (newest) {
      tui.press("escape");
      await interruptRecorded(s.home);
    }
    const paused = (screen: string) => (screen.match(/loop paused, iteration 2\/5/g) ?? []).length;
    const before = paused(tui.screen());
    await tui.submit("/continuation-loop:loop-status");
    await tui.waitFor((screen) => paused(screen) > before && statusRows(screen.split("\n")) !== undefined, 30_000);
    const between = statusRows(tui.lines()) ?? [];
    expect(between.length, between.join("\n")).toBeLessThanOrEqual(8);
    expect(between.join("\n")).toMatch(/limits: iterations 2\/5/);
    // The file to edit, its path whole, before the goal.
    expect(between.join("\n")).toMatch(/goal in \.claude\/continuation-loop\.local\.md: Write the quarterly report/);
    // No row was cut by the terminal: every status row is shorter than the width.
    for (const row of [...midTurn, ...between]) expect(row.length).toBeLessThan(140);
    // Nothing reached the model for either command.
    expect(server.mainRequests).toHaveLength(2);
  });
});
