// A loop waiting at a permission prompt (docs/REFERENCE.md "Leave it running"): Claude Code's Notification hook says
// so; the loop's status says "waiting for your permission (Bash)", the history records it for the report, and the
// answer lets the loop go on. Real terminal, both pinned versions; the band's line in test/unit/module.test.ts.
import { describe, expect, it } from "vitest";
import { waitUntil } from "../e2e/support/background.js";
import { text, toolUse } from "../e2e/support/messagesServer.js";
import { CLAUDE_VERSIONS } from "../e2e/support/runClaude.js";
import { waitForPermissionRecord } from "./support/tui.js";
import { perWorldTest } from "./support/worldTest.js";

const BAND = /⟳ continuation-loop .*loop 1\/3/;

const each = perWorldTest();

describe.each(CLAUDE_VERSIONS)("Claude Code %s", (version) => {
  // 2.1.332's notification names the tool; 2.1.197's does not, and the name comes from the transcript's newest reply,
  // which 2.1.197 may write above the prompt it answers (docs/REFERENCE.md "Leave it running").
  const WAITING = /waiting for your permission \(Bash\)/;
  const TOOL = "Bash";
  const oldest = version === CLAUDE_VERSIONS[0];

  it("a Bash call waiting for approval shows in status and the report; the answer lets the loop go on", async () => {
    const w = each.world(version);
    await w.start([
      // A command no rule allows: Claude Code asks before it runs.
      toolUse("Bash", {
        command: "node -e \"require('fs').writeFileSync('made.txt', 'made')\"",
        description: "Make the file",
      }),
      text("made it"),
      text("checked"),
    ]);
    const t = await each.tui(w, { extraArgs: ["--permission-mode", "default"] });

    await t.submit("/continuation-loop:loop-start --max-iterations 2 Make the file");
    // Claude Code's Notification hook tells the loop it waits: the record is the event waited on.
    const history = await waitForPermissionRecord(w, t);
    expect(history.find((r) => r.decision === "waiting_permission")).toMatchObject({ tool: TOOL, iteration: 1 });
    const status = await w.cli(["status"]);
    expect(status.stdout).toMatch(WAITING);

    // Yes, the first choice: the tool runs, the turn ends, and the loop goes on to its end.
    t.press("enter");
    const ended = await waitUntil(
      () => w.history(),
      (h) => h.some((r) => r.decision === "end"),
      "the loop's end",
    );
    const stops = ended.filter((r) => r.decision === "continue" || r.decision === "end");
    expect(stops.map((r) => r.iteration)).toEqual([1, 2]);
    const report = await w.cli(["report"]);
    expect(report.stdout).toMatch(WAITING);
  });

  it("Esc at the prompt ends the turn: status stops saying it waits, the bell rang once, the next prompt pauses the loop", async () => {
    const w = each.world(version);
    await w.start([
      toolUse("Bash", {
        command: "node -e \"require('fs').writeFileSync('made.txt', 'made')\"",
        description: "Make the file",
      }),
      text("Something else, then."),
    ]);
    const t = await each.tui(w, { extraArgs: ["--permission-mode", "default"] });

    await t.submit("/continuation-loop:loop-start --notify --max-iterations 3 Make the file");
    await waitForPermissionRecord(w, t);
    expect((await w.cli(["status"])).stdout).toMatch(WAITING);

    // Esc: Claude Code ends the turn with no Stop; the transcript records the interruption.
    t.press("escape");
    const closed = await waitUntil(
      async () => (await w.cli(["status"])).stdout,
      (out) => /refused or cancelled/.test(out),
      "status to say the prompt was closed",
    );
    // Only the history's past row still names the wait.
    expect(closed).not.toMatch(/answer it in the session/);
    expect(t.bells()).toBe(1);
    // The companion module's band (newest pin): no prompt is open once the turn has ended.
    if (!oldest)
      await t.waitFor(
        (screen) => BAND.test(screen) && !/⟳ continuation-loop .*waiting for your permission/.test(screen),
      );

    // The person's next prompt pauses the loop (docs/REFERENCE.md "Pausing"); nothing waits on a permission any more.
    await t.submit("Do something else");
    await waitUntil(
      () => w.history(),
      (h) => h.some((r) => r.decision === "pause" && r.reason === "interrupted"),
      "the pause for the interruption",
    );
    const paused = (await w.cli(["status"])).stdout;
    expect(paused).toMatch(/paused: .*permission prompt \(Bash\)/);
    expect(paused).not.toMatch(/answer it in the session|refused or cancelled/);
    expect(w.history().filter((r) => r.decision === "continue")).toEqual([]);
  });
});
