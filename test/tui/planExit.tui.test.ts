// A loop started in plan mode, left by Claude's plan being accepted (docs/REFERENCE.md "Plan mode"): the loop waits
// uncounted from its first Stop, told once. Claude asks to leave plan mode (the ExitPlanMode tool): a plan rejected
// ends the turn with no Stop, so nothing is counted or recorded and the loop still waits; a plan accepted goes on in
// the same turn, whose Stop is outside plan mode, so the loop goes on from its first iteration with no prompt of the
// person's. The dialog's choices are found by what they do (Enter on the first accepts, Esc rejects), checked by the
// request Claude Code sends next. Real terminal, both pinned versions.
import { describe, expect, it } from "vitest";
import { waitUntil } from "../e2e/support/background.js";
import { type RecordedRequest, text, toolUse } from "../e2e/support/messagesServer.js";
import { NEWEST } from "../e2e/support/runClaude.js";
import type { Tui } from "./support/tui.js";
import { perWorldTest } from "./support/worldTest.js";

const each = perWorldTest();
const TOLD = /continuation-loop: the session is in plan mode/g;
const decisions = (h: Record<string, unknown>[]) => h.map((r) => `${r.decision}:${r.iteration}`);

/** The row a dialog of Claude Code's has its cursor on, or "". */
const menuChoice = (screen: string) => screen.split("\n").find((line) => /^\s+❯\s/.test(line)) ?? "";

/** Answers the open dialog with `key`; pressed again while the dialog stays (a fresh dialog may not take keys yet). */
async function answer(t: Tui, key: "enter" | "escape"): Promise<void> {
  await t.waitFor((screen) => menuChoice(screen) !== "", 30_000);
  for (let i = 0; i < 10 && menuChoice(t.screen()) !== ""; i++) {
    t.press(key);
    await t.waitFor((screen) => menuChoice(screen) === "", 3000).catch(() => "");
  }
  expect(menuChoice(t.screen())).toBe("");
}

/** The tool_result blocks of a request's last user message. */
const toolResults = (req: RecordedRequest | undefined) => {
  const messages = (req?.body?.messages ?? []) as { role: string; content: unknown }[];
  const last = messages.filter((m) => m.role === "user").at(-1);
  return (Array.isArray(last?.content) ? last.content : []).filter(
    (b: { type?: string }) => b.type === "tool_result",
  ) as { is_error?: boolean }[];
};

// Both pins were measured (docs/REFERENCE.md "Plan mode"); the rule kept here, that a rejected plan pauses nothing,
// is the product's, held on both routes by test/process/lifecycle.test.ts.
describe.each([NEWEST])("Claude Code %s", (version) => {
  it("started in plan mode: a rejected plan changes nothing, an accepted one goes on in its turn, counted once", async () => {
    const w = each.world(version);
    const server = await w.start((_req: RecordedRequest, index: number) =>
      index === 1 || index === 2
        ? toolUse("ExitPlanMode", { plan: "1. Make the change.\n2. Check it." })
        : text(`reply ${index}`),
    );
    const t = await each.tui(w, { extraArgs: ["--permission-mode", "plan"] });
    await t.submit("/continuation-loop:loop-start --max-iterations 2 Make the change");
    await waitUntil(
      () => w.history(),
      (h) => h.length > 0,
      "the first Stop",
    );
    expect(decisions(w.history())).toEqual(["waiting_plan:1"]);
    await t.waitFor((screen) => (screen.match(TOLD) ?? []).length === 1);
    // /loop-start said first that the loop would wait in plan mode.
    expect(t.history().join("\n")).toMatch(/permission mode plan .*the loop waits/);

    // Rejected: the turn ends with no Stop; the loop still waits, nothing recorded, no request sent.
    await t.submit("Plan the change");
    await waitUntil(
      () => server.scriptedRequests.length,
      (n) => n >= 2,
      "the first request to leave plan mode",
    );
    await answer(t, "escape");
    await t.submit("Plan it again");
    await waitUntil(
      () => server.scriptedRequests.length,
      (n) => n >= 3,
      "the second request to leave plan mode",
    );
    expect(server.scriptedRequests).toHaveLength(3);
    expect(decisions(w.history())).toEqual(["waiting_plan:1"]);

    // Accepted: the same turn goes on, and its Stop, outside plan mode, sends Claude on from iteration 1.
    await answer(t, "enter");
    const ended = await waitUntil(
      () => w.history(),
      (h) => h.some((r) => r.decision === "end"),
      "the loop's end",
    );
    expect(toolResults(server.scriptedRequests[3]).map((b) => b.is_error === true)).toEqual([false]);
    expect(decisions(ended)).toEqual(["waiting_plan:1", "continue:1", "end:2"]);
    expect(server.scriptedRequests).toHaveLength(5);
    expect(ended.at(-1)).toMatchObject({ reason: "max_iterations" });
    expect(t.history().join("\n").match(TOLD) ?? []).toHaveLength(1);
  });
});
