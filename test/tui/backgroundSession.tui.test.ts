// A running loop survives `/background` typed by the person mid-loop (docs/REFERENCE.md "Leave it running"): Claude
// Code forks the session into a background one under a new id and ends the terminal's; the loop goes on there from
// the same iteration, each iteration recorded once, and the terminal's session no longer drives it.
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { type BackgroundWorld, waitUntil } from "../e2e/support/background.js";
import { text } from "../e2e/support/messagesServer.js";
import { CLAUDE_VERSIONS, NEWEST } from "../e2e/support/runClaude.js";
import { HOLD, heldScript } from "./support/heldScript.js";
import { perWorldTest } from "./support/worldTest.js";

const each = perWorldTest();

const ended = (history: Record<string, unknown>[]) => history.some((h) => h.decision === "end");
/** No record of the background session's: only the terminal's session ran a Stop of the loop. */
const terminalOnly = (history: Record<string, unknown>[]) => new Set(history.map((h) => h.session)).size <= 1;

// On 2.1.197 a person types /background after /loop-start --bg too: the case below proves it there.
describe.each([NEWEST])("Claude Code %s", (version) => {
  it("/background typed mid-iteration: the background session carries the loop on from that iteration, once each", async () => {
    const w = each.world(version);
    // The second request (iteration 2) is held until the person has typed /background.
    const held = heldScript([text("reply 1"), HOLD, text("reply 2"), text("reply 3"), text("reply 4")]);
    await w.start(held.script);
    // The terminal's Claude Code hands the session to the service: started first, its spare ready.
    await w.startService();
    const stateFile = path.join(w.proj, ".claude", "continuation-loop.local.md");
    fs.writeFileSync(stateFile, "---\nmax_iterations: 4\n---\n\nSay hello.\n");
    const t = await each.tui(w);

    await t.submit("go");
    await held.arrived(1);
    const terminal = (w.history()[0]?.session ?? "") as string;
    expect(fs.readFileSync(stateFile, "utf8")).toMatch(/^iteration_count: 2$/m);
    await t.submit("/background");
    // The terminal's Claude Code ends: from now on only the background session can drive the loop.
    await t.waitForExit();
    held.release(text("(the terminal's request, never read)"));
    const history = await waitUntil(() => w.history(), ended, "the loop's end in the background session");

    const stops = history.filter((h) => h.decision === "continue" || h.decision === "end");
    expect(stops.map((h) => h.iteration)).toEqual([1, 2, 3, 4]);
    expect(history.at(-1)).toMatchObject({ decision: "end", reason: "max_iterations" });
    const background = stops[1]?.session as string;
    expect(stops[0]?.session).toBe(terminal);
    expect(background).not.toBe(terminal);
    expect(stops.slice(1).every((h) => h.session === background)).toBe(true);
    // The hand-over is recorded once, as the background session took the loop.
    expect(history.filter((h) => h.decision === "resume")).toEqual([
      expect.objectContaining({ session: background, iteration: 2, reason: "background" }),
    ]);
    expect((await w.agents()).find((a) => a.sessionId === background)).toMatchObject({ kind: "background" });
    expect(fs.existsSync(stateFile)).toBe(false);
  });
});

/**
 * Tries of a `/background` fork: 2.1.197's service now and then puts it into a spare process it has just started,
 * where it never runs (test/e2e/support/README.md "Background sessions"); two in a row have failed.
 */
const TRIES = 4;

describe.each(CLAUDE_VERSIONS)("Claude Code %s: /loop-start --bg", (version) => {
  const module = version.name !== "2.1.197";
  /** One try, in a new world: the history once the loop has ended, or the fork Claude Code's service failed. */
  const tryOnce = async (): Promise<{
    world: BackgroundWorld;
    history: Record<string, unknown>[];
    failed?: string;
  }> => {
    const w = each.world(version);
    const held = heldScript(
      module
        ? [text("reply 1"), text("reply 2"), text("reply 3")]
        : [text("reply 1"), HOLD, text("reply 2"), text("reply 3")],
    );
    await w.start(held.script);
    await w.startService();
    const t = await each.tui(w);

    await t.submit("/continuation-loop:loop-start --bg --max-iterations 3 Say hello");
    if (!module) {
      await t.waitFor(/type \/background now/, 30_000);
      await held.arrived(1);
      await t.submit("/background");
    }
    // The terminal's Claude Code ends: the loop goes on only in the background session.
    await t.waitForExit();
    held.release(text("(the terminal's request, never read)"));
    const look = () => {
      const history = w.history();
      return { world: w, history, failed: ended(history) ? undefined : w.failedSession() };
    };
    return waitUntil(
      look,
      (v) => ended(v.history) || v.failed !== undefined,
      "the loop's end in the background session",
    ).catch((error: Error) => {
      // 2.1.197 put the fork into a spare process of its service's, where it never ran (test/e2e/support/README.md
      // "Background sessions"): the service's failure, not the loop's.
      const spare = w.claimedSpare();
      const history = w.history();
      if (spare && terminalOnly(history)) return { world: w, history, failed: `${spare}: the claimed spare never ran` };
      throw new Error(`${error.message}\n${w.describeService()}`);
    });
  };

  it(
    module
      ? "the session goes to the background when the first iteration ends, and the loop goes on there"
      : "the start message says to type /background; typed mid-iteration, the loop goes on in the background",
    async () => {
      let outcome = await tryOnce();
      for (let tried = 1; tried < TRIES && outcome.failed && terminalOnly(outcome.history); tried++) {
        // Claude Code's service failed the fork before any hook ran in it (above): nothing of the product ran there. Again.
        console.log(
          `Claude Code's service failed the background session (${outcome.failed}); try ${tried + 1} of ${TRIES}\n${outcome.world.describeService()}`,
        );
        await each.end();
        outcome = await tryOnce();
      }
      expect(outcome.failed).toBeUndefined();
      const w = outcome.world;
      const stops = outcome.history.filter((h) => h.decision === "continue" || h.decision === "end");
      expect(stops.map((h) => h.iteration)).toEqual([1, 2, 3]);
      const [terminal, background] = [stops[0]?.session, stops[1]?.session];
      expect(background).not.toBe(terminal);
      expect(stops.slice(1).every((h) => h.session === background)).toBe(true);
      expect(outcome.history.filter((h) => h.decision === "resume")).toHaveLength(1);
      if (!module)
        expect(outcome.history.find((h) => h.decision === "resume")).toMatchObject({
          session: background,
          iteration: 2,
          reason: "background",
        });
      expect((await w.agents()).find((a) => a.sessionId === background)).toMatchObject({ kind: "background" });
    },
    // Each try gets the time one needs on a loaded machine.
    TRIES * 120_000,
  );
});
