// A permission prompt answered while a loop runs (docs/REFERENCE.md "Leave it running"): once the call has its
// result the loop waits on no one, though no Stop has cleared the record yet. The next reply is held in the scripted
// API while the test reads every surface, so the turn is seen still running. Real terminal, both pinned versions.
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { type BackgroundWorld, waitUntil } from "../e2e/support/background.js";
import { type RecordedRequest, text, toolUse } from "../e2e/support/messagesServer.js";
import { CLAUDE_VERSIONS, type ClaudeVersion } from "../e2e/support/runClaude.js";
import { type Tui, waitForPermissionRecord } from "./support/tui.js";
import { perWorldTest } from "./support/worldTest.js";

// status's row for an open wait; status --all, the status line and the band name a wait with no time.
const STILL_WAITING = /waiting for your permission \(.*\) since|answer it in the session/;
const WAITING = /waiting for your permission/;
const BAND = /⟳ continuation-loop .*loop 1\/2/;

const each = perWorldTest();

/** A Bash call no rule allows; the reply after its result is held until the test calls the release returned. */
async function startHeld(w: BackgroundWorld): Promise<() => void> {
  let release = () => {};
  const held = new Promise<void>((resolve) => {
    release = resolve;
  });
  each.releaseAfter(release);
  await w.start(async (_req: RecordedRequest, index: number) => {
    if (index === 0)
      return toolUse("Bash", {
        command: "node -e \"require('fs').writeFileSync('made.txt', 'made')\"",
        description: "Make the file",
      });
    if (index === 1) await held;
    return text(index === 1 ? "made it" : "checked");
  });
  return release;
}

/** Moves the permission dialog's choice down to its "No" row and picks it. */
async function answerNo(t: Tui): Promise<void> {
  const chosen = () => t.lines().find((line) => /^\s*❯\s*\d\./.test(line)) ?? "";
  await t.waitFor(() => chosen() !== "");
  while (!/\bNo\b/.test(chosen())) {
    const before = chosen();
    t.press("down");
    await t.waitFor(() => chosen() !== before);
  }
  t.press("enter");
}

/** A loop whose first turn waits at Bash's permission prompt, the request after the tool's result held. */
async function startWaiting(version: ClaudeVersion) {
  const w = each.world(version);
  const release = await startHeld(w);
  const t = await each.tui(w, { extraArgs: ["--permission-mode", "default"] });
  await t.submit("/continuation-loop:loop-start --max-iterations 2 Make the file");
  const recorded = await waitForPermissionRecord(w, t);
  const wait = recorded.find((r) => r.decision === "waiting_permission");
  if (typeof wait?.session !== "string") throw new Error("the wait names no session");
  return { w, t, release, session: wait.session, tool: wait.tool };
}

describe.each(CLAUDE_VERSIONS)("Claude Code %s", (version) => {
  const newest = version !== CLAUDE_VERSIONS[0];

  it("after Yes the tool runs and the turn goes on: status, status --all, the status line and the band say no wait", async () => {
    const { w, t, release, session, tool } = await startWaiting(version);
    expect((await w.cli(["status"])).stdout).toMatch(STILL_WAITING);
    // The call asked about is named, on 2.1.197 too, which may write a first turn's call above its prompt.
    expect(tool).toBe("Bash");

    // Yes, the first choice: the tool runs, and the request after its result is held (the turn still runs).
    t.press("enter");
    await waitUntil(
      () => w.server?.scriptedRequests.length ?? 0,
      (n) => n >= 2,
      "the request after the tool's result",
    );
    expect(fs.readFileSync(path.join(w.proj, "made.txt"), "utf8")).toBe("made");
    expect(w.history().some((r) => r.decision === "continue")).toBe(false);
    // Claude Code may send that request a moment before its transcript holds the tool's result, which status reads.
    const status = await waitUntil(
      async () => (await w.cli(["status"])).stdout,
      (out) => !STILL_WAITING.test(out),
      "status to stop saying the loop waits",
    );
    expect(status).not.toMatch(/refused or cancelled/);
    expect((await w.cli(["status", "--all"])).stdout).not.toMatch(WAITING);
    expect(w.history().some((r) => r.decision === "continue")).toBe(false);
    const line = w.statusline(session);
    expect(line).toMatch(/loop 1\/2/);
    expect(line).not.toMatch(WAITING);
    if (newest) await t.waitFor((screen) => BAND.test(screen) && !/⟳ continuation-loop .*permission/.test(screen));

    release();
    const ended = await waitUntil(
      () => w.history(),
      (h) => h.some((r) => r.decision === "end"),
      "the loop's end",
    );
    expect(ended.filter((r) => r.decision === "continue" || r.decision === "end").map((r) => r.iteration)).toEqual([
      1, 2,
    ]);
  });

  it("after No the call is refused and the turn ends: status says the prompt was closed, the status line no wait", async () => {
    const { w, t, session } = await startWaiting(version);

    await answerNo(t);
    // Claude Code writes the refused call's result a moment before the turn's interruption line, which status reads
    // for "closed"; in between, status takes the call for answered and shows no wait.
    const closed = await waitUntil(
      async () => (await w.cli(["status"])).stdout,
      (out) => /refused or cancelled/.test(out),
      "status to say the prompt was closed",
    );
    expect(closed).not.toMatch(/answer it in the session/);
    expect(closed).toMatch(/refused or cancelled/);
    expect((await w.cli(["status", "--all"])).stdout).not.toMatch(WAITING);
    expect(w.statusline(session)).not.toMatch(WAITING);
    expect(fs.existsSync(path.join(w.proj, "made.txt"))).toBe(false);
    // The refusal ended the turn: the model was not asked again.
    expect(w.server?.scriptedRequests.length).toBe(1);
    if (newest) await t.waitFor((screen) => BAND.test(screen) && !/⟳ continuation-loop .*permission/.test(screen));

    // The "No" is never overridden: no Stop ran, nothing was counted, and the person's next prompt pauses the loop.
    await t.submit("Do something else");
    const paused = await waitUntil(
      () => w.history(),
      (h) => h.some((r) => r.decision === "pause"),
      "the pause for the refusal",
    );
    expect(paused.map((r) => `${r.decision}:${r.reason}:${r.iteration}`)).toEqual([
      "waiting_permission:permission:1",
      "pause:interrupted:1",
    ]);
    expect((await w.cli(["status"])).stdout).toMatch(/loop paused, iteration 1\/2[\s\S]*permission prompt/);
  });
});
