// A loop started from the interactive UI, read from the screen as the user sees it.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { type MessagesServer, startMessagesServer, text } from "../e2e/support/messagesServer.js";
import { CLAUDE_VERSIONS } from "../e2e/support/runClaude.js";
import { iterationRows } from "./support/screen.js";
import { startTui, type Tui } from "./support/tui.js";

let tmp: string | undefined;
let server: MessagesServer | undefined;
let tui: Tui | undefined;

afterEach(async () => {
  await tui?.close();
  await server?.close();
  if (tmp) fs.rmSync(tmp, { recursive: true, force: true });
  tui = server = tmp = undefined;
});

describe.each(CLAUDE_VERSIONS)("Claude Code %s", (version) => {
  it("runs a loop typed as the namespaced /loop-start until the reply carrying the promise", async () => {
    tmp = fs.mkdtempSync(path.join(os.tmpdir(), "cl-tui-loop-"));
    const proj = path.join(tmp, "proj");
    fs.mkdirSync(proj);
    server = await startMessagesServer([
      text("Drafted the summary."),
      text("Tightened the wording."),
      text("The summary is finished. ALL DONE"),
      text("never sent"),
    ]);
    // 80 rows: 2.1.330 has no scrollback, and the first reply must still be on screen at the end.
    tui = await startTui({ version, baseUrl: server.url, cwd: proj, home: path.join(tmp, "home"), rows: 80 });

    await tui.submit(
      '/continuation-loop:loop-start --max-iterations 3 --completion-promise "ALL DONE" Write the summary',
    );
    // The plugin's end message (it starts with its name) tells the user why the loop ended.
    await tui.waitFor(/continuation-loop: .*\bcompleted\b/, 60_000);

    expect(server.mainRequests).toHaveLength(3);
    expect(server.exhausted).toBe(false);
    expect(fs.existsSync(path.join(proj, ".claude", "continuation-loop.local.md"))).toBe(false);
    // Each iteration's Stop-hook output sits between the reply that stopped and the next reply.
    const rows = tui.history();
    for (const [reply, next] of [
      ["Drafted the summary.", "Tightened the wording."],
      ["Tightened the wording.", "The summary is finished. ALL DONE"],
    ] as const) {
      const block = iterationRows(rows, reply, next);
      expect(block, tui.screen()).toBeDefined();
      expect(block!.length).toBeGreaterThan(0);
    }
  });
});
