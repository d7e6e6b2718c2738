// Background work through the real CLI (docs/REFERENCE.md "Background work"), in a session that stays up
// between turns as an interactive one does. A turn that ends with a background build still running is not
// followed by a continuation: the loop waits, uncounted, until Claude Code's own notification of the
// build's end starts the next turn. The build here waits for a file the test writes once it has seen the
// hold, so nothing depends on how long anything takes. On 2.1.332 with the companion module any running
// task holds the loop, and the module wakes the session once `background_wait` passes; on the command
// path (2.1.197, or CONTINUATION_LOOP_MODULE=0) the loop waits only when Claude's reply says `<loop-wait/>`.
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import {
  type MessagesServer,
  type RecordedRequest,
  type ScriptedReply,
  text,
  toolUse,
} from "./support/messagesServer.js";
import { lastUserText } from "./support/requestText.js";
import type { LiveSession } from "./support/liveSession.js";
import { LOOP_MARKER, type LoopProject, PLUGIN_DIR, trustProject } from "./support/loopProject.js";
import { hookResponses, NEWEST, OLDEST } from "./support/runClaude.js";
import { perTest } from "./support/perTest.js";
import { ROUTES, type Route } from "./support/routes.js";

const TODO_MARKER = "[SYSTEM REMINDER - TODO CONTINUATION]";

const t = perTest();
/** The running test's server, project and session: the waits below read them. */
let server: MessagesServer | undefined;
let project: LoopProject | undefined;
let session: LiveSession | undefined;

/** The module's lines to the person (`$.ui.log`), which stream-json carries as `system/ui_log` events. */
const moduleLines = () =>
  (session?.events ?? [])
    .filter((e) => e.type === "system" && e.subtype === "ui_log" && e.plugin === "continuation-loop")
    .map((e) => String(e.text));

async function until(what: string, check: () => boolean, ms = 45_000): Promise<void> {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) {
      const seen = project?.history().map((r) => `${r.decision}:${r.reason}`);
      throw new Error(
        `timed out waiting for ${what}; history: ${JSON.stringify(seen)}; requests: ${server?.mainRequests.length}; module: ${moduleLines().join(" | ")}`,
      );
    }
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** The running session's answers of one hook event, oldest first. */
const answersOf = (event: string) => hookResponses({ events: session?.events ?? [] }, event);

/** Turns the session has ended (stream-json `result` events). */
const turnsEnded = () => (session?.events ?? []).filter((e) => e.type === "result").length;

/** A test-controlled background build: it ends when the test writes `go`. */
const build = (go: string) =>
  toolUse("Bash", {
    command: `while [ ! -f '${go}' ]; do sleep 0.1; done; echo built`,
    run_in_background: true,
    description: "build",
  });

/** A server that never exits. */
const devServer = () =>
  toolUse("Bash", { command: "while :; do sleep 1; done", run_in_background: true, description: "dev server" });

async function startLoop(
  route: Route,
  state: string,
  script: (go: string) => ScriptedReply[],
  env: Record<string, string> = {},
) {
  const p = (project = t.project({ killProcesses: true }));
  trustProject(p);
  p.writeState(state);
  const go = path.join(p.root, "go");
  const s = (server = await t.server(script(go)));
  session = t.session(
    {
      version: route.version,
      baseUrl: s.url,
      cwd: p.proj,
      home: p.home,
      pluginDirs: [PLUGIN_DIR],
      env: { ...route.env, ...env },
      extraArgs: ["--allowedTools", "Bash"],
    },
    "Build the project and check the result.",
  );
  return { p, s, go };
}

const decisions = (p: LoopProject) => p.history().map((r) => `${r.decision}:${r.reason}`);
const iterations = (p: LoopProject) => p.history().map((r) => r.iteration);
const textOf = (s: MessagesServer, i: number) => lastUserText(s.mainRequests[i] as RecordedRequest);
const holdLine = (p: LoopProject) => p.history().find((r) => r.decision === "waiting_background");
const STATE = "---\nmax_iterations: 6\ncompletion_promise: DONE\n---\n\nBuild the project and check the result.\n";
const STARTED = "Build started in the background; I will check when it finishes.";

describe.each(ROUTES)("Claude Code $title: background work pauses the count, not the loop", (route) => {
  it("a turn that ends with a build running sends no continuation until the build's notification, and is not counted", async () => {
    // On the command path the first continuation names the build and teaches <loop-wait/>; Claude uses it.
    const { p, s, go } = await startLoop(route, STATE, (go) =>
      route.module
        ? [build(go), text(STARTED), text("The build passed."), text("Checked everything. DONE")]
        : [
            build(go),
            text(STARTED),
            text("Waiting for the build. <loop-wait/>"),
            text("The build passed."),
            text("Checked everything. DONE"),
          ],
    );
    await until("the hold", () => holdLine(p) !== undefined);
    await until("the turn's end", () => turnsEnded() >= 1);
    const before = route.module ? 2 : 3;
    expect(s.mainRequests).toHaveLength(before);
    const hold = holdLine(p) as { tasks: { id: string; type: string; description: string }[]; until?: string };
    expect(hold.tasks).toEqual([{ id: expect.any(String), type: "shell", description: "build" }]);
    const id = hold.tasks[0]?.id as string;
    if (!route.module) {
      // Without the module the loop continued once, naming the build and how to wait for it.
      const taught = textOf(s, 2);
      expect(taught).toContain(LOOP_MARKER);
      expect(taught).toContain("build");
      expect(taught).toContain("<loop-wait/>");
    }
    // The person's one line: what the loop waits for and what ends the wait.
    const told = String(answersOf("Stop").at(-1)?.stdout);
    expect(told).toContain("waiting for 1 background task (build)");
    expect(told).toMatch(route.module ? /or by itself at \d\d:\d\d:\d\d UTC/ : /or when you type/);
    expect(hold.until !== undefined).toBe(route.module);

    fs.writeFileSync(go, "");
    await until("the loop's end", () => p.history().some((r) => r.decision === "end"));
    // The turn after the hold is Claude Code's notification of the build's end, not a continuation.
    expect(s.mainRequests).toHaveLength(before + 2);
    const notified = textOf(s, before);
    expect(notified).toContain(id);
    expect(notified).not.toContain(LOOP_MARKER);
    expect(textOf(s, before + 1)).toContain(LOOP_MARKER);
    expect(decisions(p)).toEqual([
      ...(route.module ? [] : ["continue:continue"]),
      "waiting_background:background_tasks",
      "continue:continue",
      "end:completed",
    ]);
    // The waiting turn and the notification's turn are one iteration.
    expect(iterations(p)).toEqual(route.module ? [1, 1, 2] : [1, 2, 2, 3]);
  });

  it("background_wait: 0 keeps the old behaviour: five continuations burn the loop's iterations while the build runs", async () => {
    const state = STATE.replace("max_iterations: 6", "max_iterations: 6\nbackground_wait: 0");
    const waiting = (n: number) => text(`Still waiting for the build (${n}).`);
    const { p, s, go } = await startLoop(route, state, (go) => [
      build(go),
      text(STARTED),
      ...[1, 2, 3, 4, 5].map(waiting),
    ]);
    await until("the loop's end", () => p.history().some((r) => r.decision === "end"));
    // Iterations 2 to 6 went by before the build ended: five requests that could only poll or guess.
    expect(s.mainRequests).toHaveLength(7);
    for (const i of [2, 3, 4, 5, 6]) expect(textOf(s, i)).toContain(LOOP_MARKER);
    expect(decisions(p)).toEqual([...Array(5).fill("continue:continue"), "end:max_iterations"]);
    fs.writeFileSync(go, "");
  });

  it("/loop-stop during the wait ends the loop: the build's notification is followed by nothing", async () => {
    const { p, s, go } = await startLoop(route, STATE, (go) => [
      build(go),
      text(`${STARTED}${route.module ? "" : " <loop-wait/>"}`),
      text("The build passed."),
      text("never sent"),
    ]);
    await until("the hold", () => holdLine(p) !== undefined);
    await until("the turn's end", () => turnsEnded() >= 1);
    session?.send("/continuation-loop:loop-stop");
    await until("the stop", () => p.history().some((r) => r.reason === "stopped"));
    expect(p.readState()).toBeUndefined();
    const ended = turnsEnded();
    fs.writeFileSync(go, "");
    await until("the notification's turn", () => s.mainRequests.length >= 3 && turnsEnded() > ended);
    expect(textOf(s, 2)).not.toContain(LOOP_MARKER);
    expect(s.mainRequests).toHaveLength(3);
    expect(decisions(p)).toEqual(["waiting_background:background_tasks", "end:stopped"]);
  });

  it("a server that never exits never stalls the loop", async () => {
    const state = STATE.replace("max_iterations: 6", `max_iterations: 6\nbackground_wait: ${route.module ? 3 : 2}s`);
    const script = () =>
      route.module
        ? [devServer(), text("Dev server started."), text("Checked one page."), text("All pages checked. DONE")]
        : [
            devServer(),
            text("Dev server started. <loop-wait/>"),
            text("The server still runs. <loop-wait/>"),
            text("All pages checked. DONE"),
          ];
    const { p, s } = await startLoop(route, state, script);
    await until("the hold", () => holdLine(p) !== undefined);
    const hold = holdLine(p) as { time: string; until?: string };
    // The hook's answer reaches the stream after its history line.
    await until("the hold's line", () => String(answersOf("Stop").at(-1)?.stdout).includes("waiting for"));
    const told = String(answersOf("Stop").at(-1)?.stdout);
    expect(told).toContain("waiting for 1 background task (dev server)");
    if (route.module) {
      // The module wakes the session once background_wait has passed, naming what still runs.
      await until("the loop's end", () => p.history().some((r) => r.decision === "end"));
      expect(decisions(p)).toEqual([
        "waiting_background:background_tasks",
        "resume:background_wait",
        "continue:continue",
        "end:completed",
      ]);
      const resumed = p.history()[1] as { time: string };
      expect(Date.parse(resumed.time)).toBeGreaterThanOrEqual(Date.parse(String(hold.until)));
      const wake = textOf(s, 2);
      expect(wake).toContain(LOOP_MARKER);
      expect(wake).toContain("dev server");
      expect(wake).toContain("Build the project and check the result.");
    } else {
      // Nothing can wake the session: the person was told the loop goes on when they type. Once the bound
      // has passed, their prompt's turn ends in a Stop that no longer waits for the server.
      expect(told).toMatch(/or when you type/);
      const bound = Date.parse(hold.time) + 2000;
      await until("background_wait to pass", () => Date.now() > bound + 100);
      expect(s.mainRequests).toHaveLength(2);
      session?.send("Any news?");
      await until("the loop's end", () => p.history().some((r) => r.decision === "end"));
      expect(decisions(p)).toEqual(["waiting_background:background_tasks", "continue:continue", "end:completed"]);
    }
    // The continuation after the wait names the server as still running, no longer waited for.
    const after = textOf(s, 3);
    expect(after).toContain(LOOP_MARKER);
    expect(after).toMatch(/no longer waited for .*dev server/);
  });
});

describe(`Claude Code ${NEWEST.name}, companion module: time holds while the loop waits`, () => {
  it("a loop whose max_duration passes while a server runs ends then, not at background_wait, with no turn", async () => {
    const route = ROUTES[1] as Route;
    const state = STATE.replace("max_iterations: 6", "max_iterations: 6\nmax_duration: 4s\nbackground_wait: 10m");
    const { p, s } = await startLoop(route, state, () => [
      devServer(),
      text("Dev server started."),
      text("never sent"),
    ]);
    await until("the loop's end", () => p.history().some((r) => r.decision === "end"));
    expect(decisions(p)).toEqual(["waiting_background:background_tasks", "end:max_duration"]);
    const hold = holdLine(p) as { time: string; until: string };
    const end = p.history().at(-1) as { time: string };
    // Ended once its time was up, minutes before the bound would have woken the session.
    expect(Date.parse(end.time) - Date.parse(hold.time)).toBeLessThan(60_000);
    expect(Date.parse(end.time)).toBeLessThan(Date.parse(hold.until));
    expect(s.mainRequests).toHaveLength(2);
  });
});

describe.each([OLDEST, NEWEST])("Claude Code %s: the notification's turn is nobody's prompt", (version) => {
  it("answers no question of Claude's and gets no todo reminder; the person's next prompt does both", async () => {
    const route = { title: version.name, version, module: version === NEWEST, env: {} };
    const state = "---\nmax_iterations: 6\ncompletion_promise: DONE\n---\n\nSet up the server.\n";
    const { p, s, go } = await startLoop(
      route,
      state,
      (go) => [
        toolUse("TaskCreate", { subject: "Pick the port", description: "Ask which port the server uses" }),
        build(go),
        text("The build runs. Which port should the server use? <loop-pause>Which port?</loop-pause>"),
        text("The build passed; still waiting for your answer."),
        text("Using 8080. DONE"),
      ],
      { CLAUDE_CODE_ENABLE_TODO_TOOLS: "1" },
    );
    await until("the question", () => p.history().some((r) => r.reason === "question"));
    await until("the turn's end", () => turnsEnded() >= 1);
    fs.writeFileSync(go, "");
    await until("the notification's turn", () => turnsEnded() >= 2);
    expect(s.mainRequests).toHaveLength(4);
    // Still paused for the answer: the notification answered nothing, resumed nothing, reminded of nothing.
    expect(decisions(p)).toEqual(["pause:question"]);
    const prompts = answersOf("UserPromptSubmit");
    expect(prompts).toHaveLength(2);
    expect(String(prompts[1]?.stdout)).toBe("");
    session?.send("Use 8080.");
    await until("the loop's end", () => p.history().some((r) => r.decision === "end"));
    expect(decisions(p)).toEqual(["pause:question", "resume:answered", "end:completed"]);
    const answer = String(answersOf("UserPromptSubmit")[2]?.stdout);
    expect(answer).toContain(TODO_MARKER);
    expect(answer).toContain("your answer goes to Claude");
  });
});
