// What `start --bg` prints (src/core/renderBackground.ts): the session, the loop's file and what ends it, said once,
// then how to watch, attach and stop it.
import { describe, expect, it } from "vitest";
import { renderBackgroundStarted } from "../../src/core/renderBackground.js";

const SUMMARY =
  "continuation-loop: loop started in .claude/continuation-loop.auth.local.md. It ends after 3 iterations.";

describe("renderBackgroundStarted", () => {
  it("says the loop started once: in which session and worktree, its file, what ends it", () => {
    const lines = renderBackgroundStarted({
      short: "4dfd6e27",
      summary: SUMMARY,
      worktree: "wt",
      name: "auth",
      taken: true,
    });
    expect(lines[0]).toBe(
      "continuation-loop: loop started in the background session 4dfd6e27 in the worktree wt: .claude/continuation-loop.auth.local.md. It ends after 3 iterations.",
    );
    expect(lines.join("\n").match(/loop started/g)).toHaveLength(1);
    expect(lines).toContain(
      "  stop    continuation-loop stop --project wt --name auth   (the session itself: claude stop 4dfd6e27)",
    );
  });
});
