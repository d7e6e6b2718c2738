// Smoke test of the terminal harness itself: a plain prompt, the screen, a timeout, close().
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { type MessagesServer, startMessagesServer, text } from "../e2e/support/messagesServer.js";
import { NEWEST } from "../e2e/support/runClaude.js";
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

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

// The harness itself, on the newest pin: every terminal case of the oldest pin runs through it too.
describe.each([NEWEST])("Claude Code %s", (version) => {
  it("answers a typed prompt on screen, counts one main turn, and dies with close()", async () => {
    tmp = fs.mkdtempSync(path.join(os.tmpdir(), "cl-tui-harness-"));
    const proj = path.join(tmp, "proj");
    fs.mkdirSync(proj);
    server = await startMessagesServer([text("Hello from the scripted model."), text("never sent")]);
    tui = await startTui({
      version,
      baseUrl: server.url,
      cwd: proj,
      home: path.join(tmp, "home"),
      cols: 100,
      rows: 30,
    });
    expect(tui.lines()).toHaveLength(30);
    expect(tui.lines().every((l) => l.length <= 100)).toBe(true);

    await tui.submit("hello there");
    await tui.waitFor(/Hello from the scripted model\./);
    // 2.1.197 also asks for a session title (a request without tools): not a turn of the session.
    expect(server.mainRequests).toHaveLength(1);
    expect(server.exhausted).toBe(false);

    await expect(tui.waitFor(/never on screen/, 300)).rejects.toThrow(/Hello from the scripted model\./);

    const pid = tui.pid;
    await tui.close();
    expect(alive(pid)).toBe(false);
    await expect(tui.exited).resolves.toBeDefined();
  });
});
