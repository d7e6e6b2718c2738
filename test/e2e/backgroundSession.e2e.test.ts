// Loops in Claude Code's background sessions (`claude --bg`), through the real CLI, offline (support/README.md
// "Background sessions").
import fs from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { BackgroundWorld, waitUntil } from "./support/background.js";
import { text } from "./support/messagesServer.js";
import { CLAUDE_VERSIONS, REPO_ROOT } from "./support/runClaude.js";

let world: BackgroundWorld | undefined;
afterEach(async () => {
  await world?.dispose();
  world = undefined;
});

const ends = (history: Record<string, unknown>[]) => history.some((h) => h.decision === "end");

describe.each(CLAUDE_VERSIONS)("Claude Code %s", (version) => {
  it("runs a project's loop to its end in a background session, its turns counted from the history", async () => {
    const w = (world = new BackgroundWorld(version));
    await w.start((_req, i) => text(`reply ${i}`));
    fs.writeFileSync(
      path.join(w.proj, ".claude", "continuation-loop.local.md"),
      "---\nmax_iterations: 3\n---\n\nSay hello.\n",
    );
    const started = await w.claude(["--bg", "--plugin-dir", REPO_ROOT, "go"]);
    expect(started.code, started.stderr).toBe(0);
    const history = await waitUntil(() => w.history(), ends, "the loop's end");
    expect(history.map((h) => [h.iteration, h.decision])).toEqual([
      [1, "continue"],
      [2, "continue"],
      [3, "end"],
    ]);
    const session = history[0]?.session as string;
    const agents = await w.agents();
    expect(agents.find((a) => a.sessionId === session)).toMatchObject({ kind: "background" });
    // The session names itself with requests of its own: more requests reach the server than the loop's turns.
    expect(w.server?.requests.filter((r) => r.path === "/v1/messages").length).toBeGreaterThanOrEqual(3);
  });
});
