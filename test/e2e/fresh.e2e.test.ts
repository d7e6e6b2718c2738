// fresh_context through the real CLI in -p (docs/REFERENCE.md "Fresh context"): on 2.1.331 the companion module clears
// the context before each continuation, so the request of iteration k holds none of the earlier replies,
// and holds the goal and the notes file as it stands; the same loop without the field keeps them all.
// On 2.1.197 (no module) /loop-start refuses the flag, and a hand-written file with the field is told
// once and goes on in its context.
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { type RecordedRequest, text, toolUse, type Usage } from "./support/messagesServer.js";
import { allMessagesText, lastUserText } from "./support/requestText.js";
import { LOOP_MARKER, PLUGIN_DIR, trustProject } from "./support/loopProject.js";
import { describeRun, hookSystemMessages, runClaude, type ClaudeVersion, NEWEST, OLDEST } from "./support/runClaude.js";
import { perTest } from "./support/perTest.js";

const GOAL = "Write the release summary in SUMMARY.md, one section per package.";
const NOTES = "NOTES.md";
const replyOf = (k: number) => `REPLY-OF-ITERATION-${k}: wrote part ${k}.`;
const notesAfter = (k: number) => `NOTES-AFTER-ITERATION-${k}: parts 1-${k} written, part ${k + 1} next.`;

const t = perTest();

/**
 * Each iteration is two requests: Claude rewrites the notes file (a Bash call), then replies with a text
 * of its own. Returns the first request of each iteration and the history.
 */
async function runNotesLoop(
  version: ClaudeVersion,
  fields: string,
  opts: { prompt?: string; usage?: Usage; state?: boolean; env?: Record<string, string> } = {},
) {
  const p = t.project();
  trustProject(p);
  fs.writeFileSync(path.join(p.proj, NOTES), "NOTES-AT-START: nothing done yet.\n");
  if (opts.state !== false) p.writeState(`---\nmax_iterations: 3\nnotes_file: ${NOTES}\n${fields}---\n\n${GOAL}\n`);
  const server = await t.server((_req, index) => {
    const k = Math.floor(index / 2) + 1;
    if (k > 3) return text("never sent");
    if (index % 2 === 1) return text(replyOf(k), opts.usage);
    return toolUse("Bash", { command: `printf '%s\\n' '${notesAfter(k)}' > ${NOTES}` }, { usage: opts.usage });
  });
  const r = await runClaude({
    version,
    prompt: opts.prompt ?? "start",
    baseUrl: server.url,
    cwd: p.proj,
    home: p.home,
    pluginDirs: [PLUGIN_DIR],
    allowedTools: ["Bash"],
    ...(opts.env && { env: opts.env }),
  });
  expect(r.code, describeRun(r)).toBe(0);
  const main = server.mainRequests;
  const firsts = main.filter((_, i) => i % 2 === 0);
  return { p, r, main, firsts, history: p.history() };
}

const messageCount = (req: RecordedRequest) => req.body?.messages?.length ?? 0;

/** Two requests an iteration, and each of the three Stops once: continue, continue, end. */
function expectThreeIterations(main: RecordedRequest[], history: Record<string, unknown>[]) {
  expect(main).toHaveLength(6);
  expect(history.map((h) => [h.decision, h.iteration])).toEqual([
    ["continue", 1],
    ["continue", 2],
    ["end", 3],
  ]);
}

describe(`Claude Code ${NEWEST.name}: fresh_context`, () => {
  it("clears the context before every continuation: iteration k sees no earlier reply, and sees the goal and the notes as they stand", async () => {
    const { main, firsts, history } = await runNotesLoop(NEWEST, "fresh_context: true\n");
    expectThreeIterations(main, history);
    for (let k = 2; k <= 3; k++) {
      const req = firsts[k - 1]!;
      const all = allMessagesText(req);
      for (let j = 1; j < k; j++) expect(all).not.toContain(replyOf(j));
      expect(all).not.toContain("NOTES-AT-START");
      const prompt = lastUserText(req);
      expect(prompt).toContain(LOOP_MARKER);
      expect(prompt).toContain(GOAL);
      expect(prompt).toContain(notesAfter(k - 1));
      expect(prompt).toContain(`iteration ${k}/3`);
      expect(prompt).not.toContain("[continuation-loop");
    }
    // The loop carried over each clear: one file, one history, three iterations in three sessions.
    expect(new Set(history.map((h) => h.session)).size).toBe(3);
    console.log(`fresh_context: messages per request ${JSON.stringify(main.map(messageCount))}`);
  });

  it("without the field, the same loop keeps one context: iteration k sees every earlier reply", async () => {
    const { main, firsts, history } = await runNotesLoop(NEWEST, "");
    expect(main).toHaveLength(6);
    expect(history.map((h) => h.decision)).toEqual(["continue", "continue", "end"]);
    for (let k = 2; k <= 3; k++) {
      const all = allMessagesText(firsts[k - 1]!);
      for (let j = 1; j < k; j++) expect(all).toContain(replyOf(j));
    }
    expect(new Set(history.map((h) => h.session)).size).toBe(1);
    console.log(`kept context: messages per request ${JSON.stringify(main.map(messageCount))}`);
  });
});

describe(`Claude Code ${NEWEST.name}: fresh_context and the loop's books`, () => {
  it("carries the spend and the token tally over each clear: the same as the loop that kept its context", async () => {
    const usage = { input_tokens: 20_000, output_tokens: 1_000 };
    const fresh = await runNotesLoop(NEWEST, "fresh_context: true\nmax_cost: 100\n", { usage });
    const kept = await runNotesLoop(NEWEST, "max_cost: 100\n", { usage });
    const spent = (h: Record<string, unknown>[]) => h.map((e) => e.cost_usd as number);
    const [f, k] = [spent(fresh.history), spent(kept.history)];
    expect(k[2]).toBeGreaterThan(0);
    // The session's cost restarts at zero at each clear; the loop's spend does not.
    for (let i = 0; i < 3; i++) expect(f[i]).toBeCloseTo(k[i]!, 9);
    // So does the output-token tally, read from each new session's transcript.
    const tokens = (h: Record<string, unknown>[]) => h.map((e) => e.output_tokens);
    expect(tokens(fresh.history)).toEqual(tokens(kept.history));
    expect(tokens(kept.history).at(-1)).toBe(6_000);
  });

  it("/loop-start --fresh-context starts a fresh loop where the module is live", async () => {
    const { main, firsts, history } = await runNotesLoop(NEWEST, "", {
      state: false,
      prompt: `/continuation-loop:loop-start --fresh-context --max-iterations 3 --notes-file ${NOTES} ${GOAL}`,
    });
    expect(main).toHaveLength(6);
    expect(history.map((h) => h.decision)).toEqual(["continue", "continue", "end"]);
    expect(allMessagesText(firsts[2]!)).not.toContain(replyOf(2));
    expect(lastUserText(firsts[2]!)).toContain(notesAfter(2));
  });
});

describe(`Claude Code ${NEWEST.name}: a clear that fails`, () => {
  it("leaves the loop going on in its context: no iteration lost or doubled", async () => {
    const env = { CONTINUATION_LOOP_MODULE_FAULT: "clear" };
    const { main, firsts, history } = await runNotesLoop(NEWEST, "fresh_context: true\n", { env });
    expectThreeIterations(main, history);
    // Not cleared, yet still the full, stand-alone prompt.
    expect(allMessagesText(firsts[2]!)).toContain(replyOf(1));
    expect(lastUserText(firsts[2]!)).toContain(GOAL);
    expect(lastUserText(firsts[2]!)).toContain(notesAfter(2));
  });
});

describe(`Claude Code ${NEWEST.name}: a send refused while the Stop settles`, () => {
  it("is sent again with its clear first: iteration k still sees no earlier reply", async () => {
    // The first try runs inside the Stop, where Claude Code refuses both the clear and the prompt.
    const env = { CONTINUATION_LOOP_MODULE_FAULT: "send-in-stop" };
    const { main, firsts, history } = await runNotesLoop(NEWEST, "fresh_context: true\n", { env });
    expectThreeIterations(main, history);
    for (let k = 2; k <= 3; k++) {
      expect(allMessagesText(firsts[k - 1]!)).not.toContain(replyOf(k - 1));
      expect(lastUserText(firsts[k - 1]!)).toContain(notesAfter(k - 1));
    }
    expect(new Set(history.map((h) => h.session)).size).toBe(3);
  });
});

describe(`Claude Code ${NEWEST.name} with the module turned off`, () => {
  it("refuses /loop-start --fresh-context, and a file with the field goes on in its context, told once", async () => {
    const env = { CONTINUATION_LOOP_MODULE: "0" };
    const refused = await runNotesLoop(NEWEST, "", {
      env,
      state: false,
      prompt: `/continuation-loop:loop-start --fresh-context --max-iterations 3 ${GOAL}`,
    });
    expect(refused.main).toHaveLength(0);
    expect(String(refused.r.result?.result)).toContain("fresh_context: needs the companion module");
    const { r, firsts, history } = await runNotesLoop(NEWEST, "fresh_context: true\n", { env });
    expect(history.map((h) => h.decision)).toEqual(["continue", "continue", "end"]);
    expect(allMessagesText(firsts[2]!)).toContain(replyOf(1));
    const told = hookSystemMessages(r.transcriptPath, "Stop").filter((m) => m.includes("fresh_context"));
    expect(told).toHaveLength(1);
  });
});

describe(`Claude Code ${OLDEST.name}: fresh_context without the module`, () => {
  it("/loop-start --fresh-context is refused with its reason before the model is asked", async () => {
    const { p, main, r } = await runNotesLoop(OLDEST, "", {
      state: false,
      prompt: `/continuation-loop:loop-start --fresh-context --max-iterations 3 ${GOAL}`,
    });
    expect(main).toHaveLength(0);
    expect(String(r.result?.result)).toContain("fresh_context: needs the companion module");
    expect(p.readState()).toBeUndefined();
  });

  it("a hand-written file with the field is told once and the loop goes on in its context", async () => {
    const { r, main, firsts, history } = await runNotesLoop(OLDEST, "fresh_context: true\n");
    expect(main).toHaveLength(6);
    expect(history.map((h) => h.decision)).toEqual(["continue", "continue", "end"]);
    expect(allMessagesText(firsts[2]!)).toContain(replyOf(1));
    expect(lastUserText(firsts[1]!)).toContain(notesAfter(1));
    const told = hookSystemMessages(r.transcriptPath, "Stop").filter((m) => m.includes("fresh_context"));
    expect(told).toHaveLength(1);
    expect(told[0]).toContain("goes on in its current context");
  });
});
