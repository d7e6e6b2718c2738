// A subagent's tool waiting for approval while a loop runs (docs/REFERENCE.md "Subagents"): Claude Code's Notification
// names no subagent, so the loop finds the call in the subagent's own transcript; status and the report name that
// tool as a subagent's, never the Agent call. The answer (Yes, or Esc: the subagent goes on without the tool) lets
// the loop go on: once the call has its result status says no wait, and the next Stop clears the record. Real terminal, both pinned versions; the scripted server tells
// the subagent's requests apart by what they carry (`kind`). The cases of each input in
// test/process/backgroundSession.test.ts.
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { type BackgroundWorld, waitUntil } from "../e2e/support/background.js";
import { type RecordedRequest, type ScriptedReply, text, toolUse } from "../e2e/support/messagesServer.js";
import { CLAUDE_VERSIONS } from "../e2e/support/runClaude.js";
import { type Tui, waitForPermissionRecord } from "./support/tui.js";
import { perWorldTest } from "./support/worldTest.js";

const each = perWorldTest();

/** Main-thread replies in order, the subagent's in theirs; the subagent's second one waits for `hold`. */
function scriptByKind(main: ScriptedReply[], subagent: ScriptedReply[], hold?: Promise<void>) {
  let m = 0;
  let s = 0;
  return async (req: RecordedRequest) => {
    if (req.kind !== "subagent") return main[m++];
    const i = s++;
    if (i === 1 && hold) await hold;
    return subagent[i];
  };
}

const MAIN = [
  toolUse("Agent", {
    description: "make file",
    prompt: "Make the file made.txt",
    subagent_type: "general-purpose",
    run_in_background: false,
  }),
  text("made it"),
  text("checked"),
  text("checked again"),
];
/** A command no rule allows: Claude Code asks before the subagent runs it. */
const SUBAGENT = [
  toolUse("Bash", { command: "node -e \"require('fs').writeFileSync('made.txt', 'made')\"", description: "Make it" }),
  text("subagent done"),
];
const WAITING = /waiting for your permission \(Bash, from a subagent\)/;

describe.each(CLAUDE_VERSIONS)("Claude Code %s", (version) => {
  async function startWaiting(hold?: Promise<void>): Promise<{ w: BackgroundWorld; t: Tui }> {
    const w = each.world(version);
    await w.start(scriptByKind(MAIN, SUBAGENT, hold));
    const t = await each.tui(w, { extraArgs: ["--permission-mode", "default"] });
    await t.submit("/continuation-loop:loop-start --max-iterations 2 Make the file");
    const history = await waitForPermissionRecord(w, t);
    expect(history.find((r) => r.decision === "waiting_permission")).toMatchObject({
      tool: "Bash, from a subagent",
      iteration: 1,
    });
    expect((await w.cli(["status"])).stdout).toMatch(WAITING);
    return { w, t };
  }

  /** The loop's end: two counted stops, the wait cleared by the first; status and the report as they end. */
  async function expectGoneOn(w: BackgroundWorld): Promise<void> {
    const ended = await waitUntil(
      () => w.history(),
      (h) => h.some((r) => r.decision === "end"),
      "the loop's end",
    );
    const stops = ended.filter((r) => r.decision === "continue" || r.decision === "end");
    expect(stops.map((r) => r.iteration)).toEqual([1, 2]);
    expect(ended.findIndex((r) => r.decision === "waiting_permission")).toBeLessThan(
      ended.findIndex((r) => r.decision === "continue"),
    );
    expect((await w.cli(["status"])).stdout).not.toMatch(/answer it in the session/);
    const report = (await w.cli(["report"])).stdout;
    expect(report).toMatch(WAITING);
    expect(report).not.toMatch(/waiting for your permission \(Agent\)/);
  }

  it("Yes: the subagent's command runs, status stops saying it waits while the subagent works on, and the loop goes on to its end", async () => {
    let release = () => {};
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    each.releaseAfter(release);
    const { w, t } = await startWaiting(held);
    t.press("enter");
    // The subagent's request after its command's result is held: its turn, and the loop's, still run.
    await waitUntil(
      () => w.server?.scriptedRequests.filter((r) => r.kind === "subagent").length ?? 0,
      (n) => n >= 2,
      "the subagent's request after the command's result",
    );
    // Claude Code may send that request a moment before the transcript holds the command's result, which status reads.
    await waitUntil(
      async () => (await w.cli(["status"])).stdout,
      (out) => !/answer it in the session/.test(out),
      "status to stop saying the loop waits",
    );
    expect(w.history().some((r) => r.decision === "continue")).toBe(false);
    expect((await w.cli(["status", "--all"])).stdout).not.toMatch(WAITING);
    release();
    await expectGoneOn(w);
    expect(fs.readFileSync(path.join(w.proj, "made.txt"), "utf8")).toBe("made");
  });

  it("Esc: the subagent goes on without its command, and so does the loop", async () => {
    const { w, t } = await startWaiting();
    t.press("escape");
    await expectGoneOn(w);
    expect(fs.existsSync(path.join(w.proj, "made.txt"))).toBe(false);
  });
});
