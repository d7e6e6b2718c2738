// A claude.ai usage limit in a real terminal on the newest Claude Code without the companion module
// (docs/REFERENCE.md "Going on after an API error"): with `autoContinueAtUsageLimit` on, Claude Code's own continue is
// the one continuation after the reset, and the command hooks carry the loop on from its Stop.
import { afterEach, describe, expect, it } from "vitest";
import { NEWEST } from "../e2e/support/runClaude.js";
import { CLAUDE_CODE_CONTINUE_MS, startLimitedLoop } from "./support/limitedLoop.js";
import { TuiScratch, until } from "./support/scratch.js";

let scratch: TuiScratch | undefined;
afterEach(async () => {
  await scratch?.dispose();
  scratch = undefined;
});

describe(`Claude Code ${NEWEST.name}, signed in to a subscription, without the module`, () => {
  it("autoContinueAtUsageLimit on, without the module: Claude Code's own continue takes the loop up, once", async () => {
    const { s, server, decisions } = await startLimitedLoop((scratch = new TuiScratch("usage-limit-hooks")), {
      setting: true,
      module: false,
      resetInMs: 8_000,
      waitScale: "0.5",
    });
    await until(() => decisions().includes("end"), "the loop's end", CLAUDE_CODE_CONTINUE_MS);
    // The continue's turn is iteration 2 again (the limit's turn was not counted); the loop goes on from its Stop.
    expect(decisions()).toEqual(["continue", "api_error", "continue", "continue", "end"]);
    expect(s.history().at(-1)).toMatchObject({ reason: "max_iterations", iteration: 4 });
    // After the limit: Claude Code's continue, then iterations 3 and 4; no other turn.
    expect(server.mainRequests).toHaveLength(5);
  });
});
