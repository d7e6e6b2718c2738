// fresh_context in a real terminal (docs/REFERENCE.md "Fresh context"): on the newest Claude Code the companion module
// clears the context between iterations, and the screen shows the clear; on the oldest the flag is refused
// and a hand-written file with the field is told once while its loop goes on in one context.
import fs from "node:fs";
import { afterEach, describe, expect, it } from "vitest";
import { startMessagesServer, text } from "../e2e/support/messagesServer.js";
import { allMessagesText, lastUserText } from "../e2e/support/requestText.js";
import { CLAUDE_VERSIONS, NEWEST } from "../e2e/support/runClaude.js";
import { HOLD, heldScript } from "./support/heldScript.js";
import { TuiScratch } from "./support/scratch.js";
import { startTui } from "./support/tui.js";

const OLDEST = CLAUDE_VERSIONS[0]!;
const REPLIES = ["FIRST-REPLY drafted the summary.", "SECOND-REPLY tightened it.", "THIRD-REPLY checked it."];
const NOTES = "NOTES-TEXT: the intro is drafted, the table is next.";

let scratch: TuiScratch | undefined;
afterEach(async () => {
  await scratch?.dispose();
  scratch = undefined;
});

describe(`Claude Code ${NEWEST.name}: fresh_context in the terminal`, () => {
  it("shows a /clear between iterations and none of the earlier ones; each request holds the goal and the notes", async () => {
    const s = (scratch = new TuiScratch("fresh"));
    fs.writeFileSync(`${s.proj}/NOTES.md`, `${NOTES}\n`);
    const held = (s.held = heldScript([text(REPLIES[0]!), HOLD, HOLD]));
    const server = (s.server = await startMessagesServer(held.script));
    const tui = (s.tui = await startTui({ version: NEWEST, baseUrl: server.url, cwd: s.proj, home: s.home, rows: 80 }));
    await tui.submit(
      "/continuation-loop:loop-start --fresh-context --max-iterations 3 --notes-file NOTES.md Write the summary",
    );
    for (const k of [2, 3]) {
      await held.arrived(k - 1);
      // Iteration k in flight: the screen holds the clear and the prompt sent after it, no earlier reply.
      await tui.waitFor(new RegExp(`iteration ${k}/3, in a fresh context`), 30_000);
      const rows = tui.history().join("\n");
      expect(rows).toMatch(/^❯ \/clear\s*$/m);
      expect(rows.indexOf("/clear")).toBeLessThan(rows.indexOf(`iteration ${k}/3`));
      for (const earlier of REPLIES.slice(0, k - 1)) expect(rows).not.toContain(earlier.split(" ")[0]);
      expect(rows).toContain(NOTES);
      // The loop's own clear is no news: no "carries over /clear" line for it.
      expect(rows).not.toContain("carries over /clear");
      held.release(text(REPLIES[k - 1]!));
    }
    await tui.waitFor(/continuation-loop: .*max_iterations/, 60_000);
    expect(tui.history().join("\n")).toContain("THIRD-REPLY");
    const main = server.mainRequests;
    expect(main).toHaveLength(3);
    for (const k of [2, 3]) {
      for (const earlier of REPLIES.slice(0, k - 1)) expect(allMessagesText(main[k - 1]!)).not.toContain(earlier);
      expect(lastUserText(main[k - 1]!)).toContain("Write the summary");
      expect(lastUserText(main[k - 1]!)).toContain(NOTES);
    }
    expect(s.history().map((h) => h.decision)).toEqual(["continue", "continue", "end"]);
  });
});

describe(`Claude Code ${OLDEST.name}: fresh_context without the module`, () => {
  it("refuses /loop-start --fresh-context with its reason", async () => {
    const s = (scratch = new TuiScratch("fresh-old"));
    const server = (s.server = await startMessagesServer([text("never sent")]));
    const tui = (s.tui = await startTui({ version: OLDEST, baseUrl: server.url, cwd: s.proj, home: s.home }));
    await tui.submit("/continuation-loop:loop-start --fresh-context --max-iterations 3 Write the summary");
    await tui.waitFor(/fresh_context: needs the companion\s+module/, 30_000);
    expect(fs.existsSync(s.claude("continuation-loop.local.md"))).toBe(false);
    expect(server.mainRequests).toHaveLength(0);
  });

  it("tells a hand-written loop with the field once, and the loop goes on in its context", async () => {
    const s = (scratch = new TuiScratch("fresh-old-file"));
    fs.mkdirSync(s.claude(""), { recursive: true });
    fs.writeFileSync(
      s.claude("continuation-loop.local.md"),
      "---\nmax_iterations: 3\nfresh_context: true\n---\n\nWrite the summary\n",
    );
    const server = (s.server = await startMessagesServer(REPLIES.map((r) => text(r))));
    const tui = (s.tui = await startTui({ version: OLDEST, baseUrl: server.url, cwd: s.proj, home: s.home, rows: 80 }));
    await tui.submit("Go on with the summary");
    await tui.waitFor(/continuation-loop: .*max_iterations/, 60_000);
    const rows = tui.history().join("\n");
    expect(rows.match(/fresh_context needs the companion\s+module/g)).toHaveLength(1);
    for (const reply of REPLIES) expect(rows).toContain(reply);
    expect(allMessagesText(server.mainRequests[2]!)).toContain(REPLIES[0]!);
  });
});
