// No Node on PATH, or a `node` there that does not run (a version manager's shim with no version set), in a
// real terminal (docs/REFERENCE.md "No Node, or an old one"): the person reads one line naming Node.js when
// the session starts and again at /loop-start, and no hook error rows across a few turns; nothing starts
// and the model answers the other prompts as usual.
import fs from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { renderNodeNeeded } from "../../src/core/nodeSupport.js";
import { startMessagesServer, text } from "../e2e/support/messagesServer.js";
import { CLAUDE_VERSIONS } from "../e2e/support/runClaude.js";
import { makeBrokenNodePath, makeGuardPath } from "../support/nodePaths.js";
import { rowsBetween } from "./support/screen.js";
import { TuiScratch } from "./support/scratch.js";
import { startTui } from "./support/tui.js";

let scratch: TuiScratch | undefined;
afterEach(async () => {
  await scratch?.dispose();
  scratch = undefined;
});

const REPLIES = ["Hello there.", "Here again.", "Third reply."];
const squash = (s: string) => s.replace(/\s+/g, "");
/** How many times the screen shows the line, wrapped or not. */
const timesShown = (screen: string) => squash(screen).split(squash(renderNodeNeeded())).length - 1;

// asdf's shim prints its advice on stderr and exits 126; a hook error row would show those words.
const PATHS = [
  ["no node on PATH", (dir: string) => makeGuardPath(dir), /not found/],
  ["an asdf shim with no version set as node", (dir: string) => makeBrokenNodePath(dir, "asdf"), /No version is set/],
] as const;

describe.each(CLAUDE_VERSIONS)("Claude Code %s", (version) => {
  it.each(PATHS)(
    "%s: one line naming Node.js at the start and at /loop-start, and no hook error rows across a few turns",
    async (_what, makePath, hookError) => {
      const s = (scratch = new TuiScratch("nonode"));
      const PATH = makePath(path.join(s.tmp, "bin"));
      const server = (s.server = await startMessagesServer(REPLIES.map((reply) => text(reply))));
      const tui = (s.tui = await startTui({
        version,
        baseUrl: server.url,
        cwd: s.proj,
        home: s.home,
        rows: 100,
        env: { PATH },
      }));

      await tui.waitFor((screen) => timesShown(screen) === 1, 30_000);
      await tui.submit("hello");
      await tui.waitFor(/Hello there\./, 30_000);
      // The refusal comes at once (no Node to start), and 2.1.332 puts a refused prompt back in the input box, as for
      // editing (2.1.197 does not): the test waits for the answer, not for an empty box it may never see.
      await tui.submitAnswered(
        "/continuation-loop:loop-start --max-iterations 3 Fix the tests",
        () => timesShown(tui.screen()) === 2,
      );
      await tui.submit("again");
      await tui.waitFor(/Here again\./, 30_000);
      await tui.submit("and once more");
      await tui.waitFor(/Third reply\./, 30_000);

      const rows = tui.history();
      const all = rows.join("\n");
      expect(timesShown(all), all).toBe(2);
      expect(server.mainRequests).toHaveLength(3);
      const claude = path.join(s.proj, ".claude");
      const loopFiles = fs.existsSync(claude)
        ? fs.readdirSync(claude).filter((f) => f.startsWith("continuation-loop."))
        : [];
      expect(loopFiles).toEqual([]);
      // After each answered prompt, the Stop hook ran and showed nothing: between the reply and what came next
      // only Claude Code's own row for the turn's time (a hook error would add its rows here).
      for (const [reply, next] of [
        ["Hello there.", /^[❯●]/],
        ["Here again.", /^❯ and once more/],
      ] as const) {
        const between = rowsBetween(rows, new RegExp(`^\\S\\s+${reply.replace(".", "\\.")}\\s*$`), next);
        expect(between, all).toBeDefined();
        expect(between!.filter((row) => row.trim()).length, between!.join("\n")).toBeLessThanOrEqual(1);
      }
      expect(all).not.toMatch(hookError);
    },
  );
});
