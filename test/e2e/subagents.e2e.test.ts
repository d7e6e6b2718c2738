// A loop whose turns run subagents (the Agent tool), through the real CLI (docs/REFERENCE.md "Subagents"). The
// scripted server answers the subagent's own requests too, told apart by what they carry (`kind`): a subagent's
// reply and the prompt the main thread gives it hold the promise and a question, and neither is Claude's reply.
// A subagent's end never counts an iteration, completes, pauses or stalls the loop; its output tokens stay out of
// `max_tokens` (Claude Code writes its transcript in a file of its own); one run in the background holds the loop
// as a background shell task does (background.e2e.test.ts); its API error (a StopFailure naming its agent) is not
// the loop's either.
import fs from "node:fs";
import path from "node:path";
import { randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import {
  apiError,
  type MessagesServer,
  type RecordedRequest,
  type ScriptedReply,
  text,
  toolUse,
} from "./support/messagesServer.js";
import { lastUserText } from "./support/requestText.js";
import type { LiveSession } from "./support/liveSession.js";
import { LOOP_MARKER, type LoopProject, PLUGIN_DIR, trustProject } from "./support/loopProject.js";
import { CLAUDE_VERSIONS, describeRun, hookResponses, NEWEST, readJsonl, runClaude } from "./support/runClaude.js";
import { perTest } from "./support/perTest.js";
import { ROUTES } from "./support/routes.js";

const t = perTest();
/** The running test's project and session: the waits below read them. */
let project: LoopProject | undefined;
let session: LiveSession | undefined;

const PROMISE = "All tests passing";
/** The loop's promise in the task the main thread hands the subagent. */
const TASK = `Run the test suite and report. Say "${PROMISE}" if every test passes.`;
/** The subagent's reply: the promise and a question, from a reply that is not Claude's; many output tokens. */
const SUBAGENT_REPLY = text(`${PROMISE}. <loop-pause>Should I also fix the lint?</loop-pause>`, {
  output_tokens: 50_000,
});
/** `max_tokens` far above the main thread's tokens and far below the subagent's. */
const STATE = `---\nmax_iterations: 6\nmax_tokens: 1000\ncompletion_promise: "${PROMISE}"\n---\n\nFix the failing tests.\n`;

const agent = (background: boolean) =>
  toolUse(
    "Agent",
    { description: "run tests", prompt: TASK, subagent_type: "general-purpose", run_in_background: background },
    { usage: { output_tokens: 7 } },
  );

/** Main-thread replies in order; the subagent's request gets its reply once `ready()` says so. */
function scriptByKind(main: ScriptedReply[], ready: () => boolean = () => true, subagent = SUBAGENT_REPLY) {
  let next = 0;
  return async (req: RecordedRequest): Promise<ScriptedReply | undefined> => {
    if (req.kind !== "subagent") return main[next++];
    while (!ready()) await new Promise((r) => setTimeout(r, 50));
    return subagent;
  };
}

const decisions = (p: LoopProject) => p.history().map((r) => `${r.decision}:${r.reason}`);
const iterations = (p: LoopProject) => p.history().map((r) => r.iteration);
const subagentRequests = (s: MessagesServer) => s.requests.filter((r) => r.kind === "subagent");

describe.each(CLAUDE_VERSIONS)("Claude Code %s: a turn that runs a subagent in the foreground", (version) => {
  it("is one iteration; the subagent's promise, question and tokens are not the loop's", async () => {
    const p = (project = t.project({ killProcesses: true }));
    p.writeState(STATE);
    const s = await t.server(
      scriptByKind([
        agent(false),
        text("The subagent ran the tests; two still fail.", { output_tokens: 11 }),
        text(`Fixed both. ${PROMISE}.`, { output_tokens: 13 }),
        text("never sent"),
      ]),
    );
    const sessionId = randomUUID();
    const r = await runClaude({
      version,
      prompt: "Fix the failing tests.",
      baseUrl: s.url,
      cwd: p.proj,
      home: p.home,
      pluginDirs: [PLUGIN_DIR],
      sessionId,
    });
    expect(r.code, describeRun(r)).toBe(0);
    expect(subagentRequests(s)).toHaveLength(1);
    // The subagent ran in the foreground: its reply came back as the Agent call's result in the same turn.
    expect(lastUserText(s.mainRequests[1] as RecordedRequest)).toContain("Should I also fix the lint?");
    // One Stop per main turn: continued once, completed by Claude's own reply; never paused, never max_tokens.
    expect(decisions(p)).toEqual(["continue:continue", "end:completed"]);
    expect(iterations(p)).toEqual([1, 2]);
    expect(hookResponses(r, "Stop")).toHaveLength(2);
    expect(lastUserText(s.mainRequests[2] as RecordedRequest)).toContain(LOOP_MARKER);
    expect(s.mainRequests).toHaveLength(3);
    // The main thread's output tokens only: 7 + 11 + 13.
    expect(p.history().at(-1)?.output_tokens).toBe(31);

    // Where the subagent's transcript is: a file of its own beside the session's, none of it in the main file.
    const transcript = r.transcriptPath as string;
    const dir = path.join(transcript.replace(/\.jsonl$/, ""), "subagents");
    const files = fs.readdirSync(dir).filter((f) => f.endsWith(".jsonl"));
    expect(files).toEqual([expect.stringMatching(/^agent-.+\.jsonl$/)]);
    const own = readJsonl(path.join(dir, files[0] as string));
    const tokens = own.map((l) => (l.message as { usage?: { output_tokens?: number } } | undefined)?.usage);
    expect(tokens.some((u) => u?.output_tokens === 50_000)).toBe(true);
    expect(readJsonl(transcript).some((l) => l.isSidechain === true)).toBe(false);
  });
});

describe.each(CLAUDE_VERSIONS)("Claude Code %s: a subagent's API error", (version) => {
  it("is not the loop's: Claude Code's StopFailure names the agent, and the loop records no error", async () => {
    const p = (project = t.project({ killProcesses: true }));
    const sessionId = randomUUID();
    // Bound to the session from the start, so that an error before the first Stop concerns the loop.
    p.writeState(
      STATE.replace("---\n\n", `session_id: ${sessionId}\nstarted_at: "${new Date().toISOString()}"\n---\n\n`),
    );
    const main = [
      agent(false),
      text("The subagent could not run; I will run the tests myself."),
      text(`Fixed both. ${PROMISE}.`),
      text("never sent"),
    ];
    const s = await t.server(scriptByKind(main, () => true, apiError(429)));
    const r = await runClaude({
      version,
      prompt: "Fix the failing tests.",
      baseUrl: s.url,
      cwd: p.proj,
      home: p.home,
      pluginDirs: [PLUGIN_DIR],
      sessionId,
      env: { CLAUDE_CODE_MAX_RETRIES: "0" },
    });
    expect(r.code, describeRun(r)).toBe(0);
    expect(subagentRequests(s)).toHaveLength(1);
    expect(s.mainRequests).toHaveLength(3);
    expect(decisions(p)).toEqual(["continue:continue", "end:completed"]);
  });
});

async function until(what: string, check: () => boolean, ms = 45_000): Promise<void> {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}; history: ${JSON.stringify(decisionsNow())}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}
const decisionsNow = () => (project ? decisions(project) : []);
const stopAnswers = () => hookResponses({ events: session?.events ?? [] }, "Stop");

describe.each(ROUTES)("Claude Code $title: a subagent in the background", (route) => {
  it("holds the loop as a background shell task does; the notification's turn carries its reply, not Claude's", async () => {
    const p = (project = t.project({ killProcesses: true }));
    trustProject(p);
    p.writeState(STATE);
    const go = path.join(p.root, "go");
    const STARTED = "The subagent runs the tests in the background; I will look when it reports.";
    // On the command path the first continuation names the subagent and teaches <loop-wait/>; Claude uses it.
    const main = [
      agent(true),
      text(STARTED),
      ...(route.module ? [] : [text("Waiting for the test run. <loop-wait/>")]),
      text("Two tests still fail; fixing them next."),
      text(`Fixed both. ${PROMISE}.`),
      text("never sent"),
    ];
    const s = await t.server(scriptByKind(main, () => fs.existsSync(go)));
    session = t.session(
      {
        version: route.version,
        baseUrl: s.url,
        cwd: p.proj,
        home: p.home,
        pluginDirs: [PLUGIN_DIR],
        env: route.env,
      },
      "Fix the failing tests.",
    );
    const holdLine = () => p.history().find((r) => r.decision === "waiting_background");
    await until("the hold", () => holdLine() !== undefined);
    await until("the hold's line", () => String(stopAnswers().at(-1)?.stdout).includes("waiting for"));
    // The subagent is in flight: its request came and waits for the test's word.
    await until("the subagent's request", () => subagentRequests(s).length === 1);
    const before = route.module ? 2 : 3;
    expect(s.mainRequests).toHaveLength(before);
    const hold = holdLine() as { tasks: { id: string; type: string; description: string }[] };
    expect(hold.tasks).toEqual([{ id: expect.any(String), type: "subagent", description: "run tests" }]);
    expect(String(stopAnswers().at(-1)?.stdout)).toContain("waiting for 1 background task (run tests)");
    if (!route.module) {
      const taught = lastUserText(s.mainRequests[2] as RecordedRequest);
      expect(taught).toContain(LOOP_MARKER);
      expect(taught).toContain("run tests");
      expect(taught).toContain("<loop-wait/>");
    }

    fs.writeFileSync(go, "");
    await until("the loop's end", () => p.history().some((r) => r.decision === "end"));
    // Claude Code's notification starts the next turn and carries the subagent's reply, promise and question
    // included: the loop neither completes nor pauses on it, and continues once that turn's reply stops.
    const notified = lastUserText(s.mainRequests[before] as RecordedRequest);
    expect(notified).toContain(hold.tasks[0]?.id);
    expect(notified).toContain("Should I also fix the lint?");
    expect(notified).not.toContain(LOOP_MARKER);
    expect(lastUserText(s.mainRequests[before + 1] as RecordedRequest)).toContain(LOOP_MARKER);
    expect(s.mainRequests).toHaveLength(before + 2);
    expect(decisions(p)).toEqual([
      ...(route.module ? [] : ["continue:continue"]),
      "waiting_background:background_tasks",
      "continue:continue",
      "end:completed",
    ]);
    // The waiting turn and the notification's turn are one iteration.
    expect(iterations(p)).toEqual(route.module ? [1, 1, 2] : [1, 2, 2, 3]);
    // The subagent's 50000 output tokens are not the loop's: max_tokens (1000) never ended it.
    expect(Number(p.history().at(-1)?.output_tokens)).toBeLessThan(1000);
  });
});

describe(`Claude Code ${NEWEST.name}, companion module: a subagent that outlasts background_wait`, () => {
  it("is waited out as a shell task is: the module takes the loop on at the bound, naming it as still running", async () => {
    const p = (project = t.project({ killProcesses: true }));
    trustProject(p);
    p.writeState(STATE.replace("max_iterations: 6", "max_iterations: 6\nbackground_wait: 3s"));
    const go = path.join(p.root, "go");
    const s = await t.server(
      scriptByKind(
        [
          agent(true),
          text("The subagent runs the tests in the background."),
          text("Fixed what I could while the test run goes on."),
          text(`Fixed both. ${PROMISE}.`),
          text("never sent"),
        ],
        () => fs.existsSync(go),
      ),
    );
    session = t.session(
      { version: NEWEST, baseUrl: s.url, cwd: p.proj, home: p.home, pluginDirs: [PLUGIN_DIR], env: {} },
      "Fix the failing tests.",
    );
    await until("the loop's end", () => p.history().some((r) => r.decision === "end"));
    // The subagent was still working all along: its request waits for the word the test gives only now.
    expect(subagentRequests(s)).toHaveLength(1);
    expect(decisions(p)).toEqual([
      "waiting_background:background_tasks",
      "resume:background_wait",
      "continue:continue",
      "end:completed",
    ]);
    const hold = p.history()[0] as { until: string };
    expect(Date.parse(String(p.history()[1]?.time))).toBeGreaterThanOrEqual(Date.parse(hold.until));
    const wake = lastUserText(s.mainRequests[2] as RecordedRequest);
    expect(wake).toContain(LOOP_MARKER);
    expect(wake).toContain("run tests");
    expect(lastUserText(s.mainRequests[3] as RecordedRequest)).toMatch(/no longer waited for .*run tests/);
    fs.writeFileSync(go, "");
  });
});
