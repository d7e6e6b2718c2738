// Plan mode switched on mid-loop (docs/REFERENCE.md "Plan mode"): shift+tab while a continuation runs puts the
// session in plan mode, where Claude cannot edit; the loop does not send Claude back to work: the turn ends, the
// person is told once, and the iteration is not counted. Out of plan mode, the person's next prompt runs and the
// loop goes on from the same iteration. The continuation is held in the scripted API until the mode has changed.
// Real terminal, both pinned versions.
import { describe, expect, it } from "vitest";
import { waitUntil } from "../e2e/support/background.js";
import { type RecordedRequest, text } from "../e2e/support/messagesServer.js";
import { lastUserText } from "../e2e/support/requestText.js";
import { CLAUDE_VERSIONS } from "../e2e/support/runClaude.js";
import type { Tui } from "./support/tui.js";
import { perWorldTest } from "./support/worldTest.js";

const each = perWorldTest();
/** Claude Code's own mode indicator below the input box; only used to steer shift+tab. */
const PLAN_ON = /plan mode on/i;
const TOLD = /continuation-loop: the session is in plan mode/g;

/** The row below the input box, up to its first " · " or "(": the mode indicator, or a hint in the default mode. */
const modeRow = (screen: string): string => {
  const rows = screen.split("\n");
  const border = rows.map((row) => /^─{20,}/.test(row)).lastIndexOf(true);
  return (rows[border + 1] ?? "").split(/ · |\(/)[0]?.trim() ?? "";
};

/** Presses shift+tab, one mode at a time, until the indicator does (`on`) or does not show plan mode. */
async function cycleTo(t: Tui, on: boolean): Promise<void> {
  for (let i = 0; i < 6 && PLAN_ON.test(modeRow(t.screen())) !== on; i++) {
    const before = modeRow(t.screen());
    t.press("shift+tab");
    await t.waitFor((screen) => modeRow(screen) !== before);
  }
  expect(PLAN_ON.test(modeRow(t.screen()))).toBe(on);
}

describe.each(CLAUDE_VERSIONS)("Claude Code %s", (version) => {
  it("shift+tab into plan mode mid-loop: the loop waits uncounted, told once; the next prompt outside it goes on", async () => {
    const w = each.world(version);
    let release = () => {};
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    each.releaseAfter(release);
    const server = await w.start(async (_req: RecordedRequest, index: number) => {
      if (index === 1) await held;
      return text(`reply ${index}`);
    });
    const t = await each.tui(w, { extraArgs: ["--permission-mode", "default"] });
    await t.submit("/continuation-loop:loop-start --max-iterations 3 Make the change");

    // The first continuation is held while the person switches to plan mode.
    await waitUntil(
      () => server.scriptedRequests.length,
      (n) => n >= 2,
      "the first continuation",
    );
    await cycleTo(t, true);
    release();
    const waiting = await waitUntil(
      () => w.history(),
      (h) => h.some((r) => r.decision === "waiting_plan"),
      "the wait in plan mode",
    );
    expect(waiting.map((r) => `${r.decision}:${r.iteration}`)).toEqual(["continue:1", "waiting_plan:2"]);
    await t.waitFor((screen) => (screen.match(TOLD) ?? []).length === 1);
    expect(t.bells()).toBe(1);
    // Status says why the loop waits; the terminal rang once (`notify`), as for a pause.
    expect((await w.cli(["status"])).stdout).toMatch(/loop waiting, iteration 2\/3[\s\S]*plan mode/);

    // Out of plan mode, the person's prompt is the next request: no continuation came in between.
    await cycleTo(t, false);
    await t.submit("Go on with the change");
    const ended = await waitUntil(
      () => w.history(),
      (h) => h.some((r) => r.decision === "end"),
      "the loop's end",
    );
    expect(lastUserText(server.scriptedRequests[2] as RecordedRequest)).toContain("Go on with the change");
    expect(ended.map((r) => `${r.decision}:${r.iteration}`)).toEqual([
      "continue:1",
      "waiting_plan:2",
      "continue:2",
      "end:3",
    ]);
    expect(t.history().join("\n").match(TOLD) ?? []).toHaveLength(1);
  });
});
