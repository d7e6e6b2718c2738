// After the wait for background work (docs/REFERENCE.md "Background work"): the build's notification starts a turn
// by itself, and while that turn runs the loop waits for nothing, though no Stop has cleared the hold yet; Esc in
// that turn ends it with no Stop, and the loop then waits for the person, whose next prompt pauses it. The turn's
// model request is held in the scripted API while the test reads the status line, `status` and (2.1.332) the band.
// Real terminal, both pinned versions.
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { waitUntil } from "../e2e/support/background.js";
import { type ScriptedReply, text, toolUse } from "../e2e/support/messagesServer.js";
import { CLAUDE_VERSIONS } from "../e2e/support/runClaude.js";
import { HOLD, heldScript, interruptRecorded } from "./support/heldScript.js";
import type { Tui } from "./support/tui.js";
import { perWorldTest } from "./support/worldTest.js";

const WAITING = /waiting for 1 background task/;
/** status's head and row for a hold (its "last:" row keeps the hold's record, as history). */
const STATUS_WAITING = /loop waiting|waiting for 1 background task \(build\) since/;
/** The band's row, with the loop's elapsed seconds. */
const BAND = /⟳ continuation-loop .*loop \d\/5 · (\d+)s/;

const each = perWorldTest();

/** The band's elapsed seconds now, or -1 without a band. */
const bandSeconds = (t: Tui): number => Number(BAND.exec(t.screen())?.[1] ?? -1);

describe.each(CLAUDE_VERSIONS)("Claude Code %s", (version) => {
  const newest = version !== CLAUDE_VERSIONS[0];

  it("the notification's turn is not shown as a wait, nor the loop after Esc in it; the next prompt pauses the loop", async () => {
    const w = each.world(version);
    const go = path.join(w.tmp, "go");
    const build = toolUse("Bash", {
      command: `while [ ! -f '${go}' ] && [ -d '${w.tmp}' ]; do sleep 0.1; done; echo built`,
      run_in_background: true,
      description: "build",
    });
    // With the module any running task holds the loop; on the command path Claude asks for the wait.
    const replies: (ScriptedReply | typeof HOLD)[] = newest
      ? [build, text("Build started."), HOLD]
      : [build, text("Build started."), text("Waiting for the build. <loop-wait/>"), HOLD];
    const held = heldScript(replies);
    each.releaseAfter(() => held.release());
    await w.start(held.script);
    const t = await each.tui(w, { allowedTools: ["Bash"], cols: 140, rows: 60 });
    await t.submit("/continuation-loop:loop-start --max-iterations 5 Build the project");
    const recorded = await waitUntil(
      () => w.history(),
      (h) => h.some((r) => r.decision === "waiting_background"),
      "the hold's record",
    );
    const session = String(recorded.find((r) => r.decision === "waiting_background")?.session);
    expect(w.statusline(session)).toMatch(WAITING);
    expect((await w.cli(["status"])).stdout).toMatch(/loop waiting, iteration \d\/5/);

    // The build ends: its notification starts a turn, whose model request is held.
    fs.writeFileSync(go, "");
    await held.arrived(replies.length - 1);
    const line = await waitUntil(
      () => w.statusline(session),
      (out) => !WAITING.test(out),
      "the status line to stop saying the loop waits",
      15_000,
    );
    expect(line).toMatch(/loop \d\/5/);
    const running = (await w.cli(["status"])).stdout;
    expect(running).toMatch(/loop running, iteration \d\/5/);
    expect(running).not.toMatch(STATUS_WAITING);
    if (newest) await t.waitFor((screen) => BAND.test(screen) && !/⟳ continuation-loop .*waiting for/.test(screen));

    // Esc: the turn ends with no Stop. The loop waits for the person now, not for the build.
    t.press("escape");
    await interruptRecorded(w.home);
    expect(w.statusline(session)).not.toMatch(WAITING);
    const status = (await w.cli(["status"])).stdout;
    expect(status).toMatch(/interrupted \(Esc\): your next prompt in the session pauses the loop/);
    expect(status).not.toMatch(STATUS_WAITING);
    if (newest) {
      // Redrawn twice since the turn ended (the band counts seconds): still no wait.
      const seen = bandSeconds(t);
      await t.waitFor(() => bandSeconds(t) >= seen + 2, 10_000);
      expect(t.screen()).not.toMatch(/⟳ continuation-loop .*waiting for/);
    }
    expect(w.server?.scriptedRequests.length).toBe(replies.length);

    // The person's next prompt pauses the loop, as after Esc in any of its turns.
    await t.submit("/continuation-loop:loop-status");
    await t.waitFor(/loop paused, iteration \d\/5/, 30_000);
    expect(w.history().map((r) => `${r.decision}:${r.reason}`)).toContain("pause:interrupted");
    expect(w.server?.scriptedRequests.length).toBe(replies.length);
  });
});
