// /clear starts a new session in the same Claude Code process: the loop carries over to it
// (README "Several loops and a session's life"). Esc first, so /clear can be typed mid-loop.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { lastUserText, type MessagesServer, startMessagesServer, text } from "../e2e/support/messagesServer.js";
import { CLAUDE_VERSIONS } from "../e2e/support/runClaude.js";
import { HOLD, type HeldScript, heldScript, interruptRecorded } from "./support/heldScript.js";
import { startTui, type Tui } from "./support/tui.js";

let tmp: string | undefined;
let server: MessagesServer | undefined;
let tui: Tui | undefined;
let held: HeldScript | undefined;

afterEach(async () => {
  held?.release();
  await tui?.close();
  await server?.close();
  if (tmp) fs.rmSync(tmp, { recursive: true, force: true });
  tui = server = tmp = held = undefined;
});

const MARKER = "[SYSTEM REMINDER - CONTINUATION LOOP ACTIVE]";
const ownerOf = (file: string) => /^session_id: "?([^"\n]+)"?$/m.exec(fs.readFileSync(file, "utf8"))?.[1];

async function until(test: () => boolean, what: string, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!test()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

describe.each(CLAUDE_VERSIONS)("Claude Code %s", (version) => {
  it("carries the loop over /clear to the new session, which goes on with it to the end", async () => {
    tmp = fs.mkdtempSync(path.join(os.tmpdir(), "cl-tui-clear-"));
    const proj = path.join(tmp, "proj");
    const home = path.join(tmp, "home");
    fs.mkdirSync(proj);
    const stateFile = path.join(proj, ".claude", "continuation-loop.local.md");
    held = heldScript([
      text("Read the old notes."),
      HOLD, // iteration 2: Esc, then /clear
      text("Picked the work up again."),
      text("The notes are merged. ALL DONE"),
    ]);
    server = await startMessagesServer(held.script);
    tui = await startTui({ version, baseUrl: server.url, cwd: proj, home, rows: 80 });

    await tui.submit(
      '/continuation-loop:loop-start --max-iterations 6 --completion-promise "ALL DONE" Merge the notes',
    );
    await held.arrived(1);
    const before = ownerOf(stateFile);
    expect(before).toBeDefined();
    tui.press("escape");
    await interruptRecorded(home);

    await tui.submit("/clear");
    // The new session owns the loop now; it kept its place, paused by the interruption.
    await until(() => ownerOf(stateFile) !== before, "the loop to move to the new session");
    const state = fs.readFileSync(stateFile, "utf8");
    expect(state).toMatch(/^iteration_count: 2$/m);
    expect(state).toMatch(/^active: false$/m);
    await tui.waitFor(/continuation-loop: the loop carries over \/clear/, 30_000);

    // Resumed in the new session without --force, it runs to its end there.
    await tui.submit("/continuation-loop:loop-resume");
    await tui.waitFor(/continuation-loop: .*\bcompleted\b/, 60_000);
    expect(server.mainRequests).toHaveLength(4);
    // The new session's first request starts afresh (the old conversation is gone) yet has the goal.
    const afterClear = server.mainRequests[2]!;
    expect(afterClear.body?.messages?.some((m) => JSON.stringify(m).includes("Read the old notes."))).toBe(false);
    expect(JSON.stringify(afterClear.body?.messages)).toContain("Merge the notes");
    expect(lastUserText(server.mainRequests[3]!)).toContain(MARKER);
    expect(fs.existsSync(stateFile)).toBe(false);
  });
});
