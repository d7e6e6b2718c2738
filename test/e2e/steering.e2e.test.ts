// Steering a running loop by editing its state file (docs/REFERENCE.md "Steering a running loop") through the real
// Claude Code CLI, with the companion module: an edit that lands while a Stop hook holds the file (reached at a
// test-only pause point), and a pause and a resume made by setting `active`. The product's own decisions: on the
// newest pin only (support/README.md "Which pin runs a case").
import { randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import { text, type Script } from "./support/messagesServer.js";
import { lastUserText } from "./support/requestText.js";
import { LOOP_MARKER, PLUGIN_DIR, type LoopProject, trustProject } from "./support/loopProject.js";
import { watchPausedHooks } from "./support/pausedHooks.js";
import { describeRun, NEWEST, runClaude } from "./support/runClaude.js";
import { perTest } from "./support/perTest.js";

const t = perTest();

/** One `claude -p` run of the loop in `p` (a new session, or `resume`), answered by `script`. */
async function run(p: LoopProject, script: Script, opts: { env?: Record<string, string>; resume?: string } = {}) {
  const server = await t.server(script);
  const sessionId = opts.resume ?? randomUUID();
  const r = await runClaude({
    version: NEWEST,
    prompt: opts.resume ? "go on" : "start",
    baseUrl: server.url,
    cwd: p.proj,
    home: p.home,
    pluginDirs: [PLUGIN_DIR],
    ...(opts.resume ? { resume: opts.resume } : { sessionId }),
    ...(opts.env && { env: opts.env }),
  });
  expect(r.code, describeRun(r)).toBe(0);
  expect(server.exhausted, "the loop ran past the scripted replies").toBe(false);
  return { sessionId, continuations: server.mainRequests.slice(1).map((req) => lastUserText(req)) };
}

describe(`Claude Code ${NEWEST.name}: steering a running loop`, () => {
  it("an edit landing while a Stop hook holds the file is decided on as edited: the new promise completes", async () => {
    const p = t.project();
    trustProject(p);
    p.writeState("---\nmax_iterations: 8\ncompletion_promise: NEVER\n---\nShip the release.\n");
    // Every Stop hook stops between writing its new version of the file and the rename; at the third, the person
    // saves a new promise, which the reply of that turn carries.
    const watch = watchPausedHooks(p.home, (n, command) => {
      if (n === 3 && command.includes("stop.js"))
        p.writeState(p.readState()?.replace("completion_promise: NEVER", "completion_promise: SHIPPED") ?? "");
    });
    try {
      await run(p, (_req, index) => text(index === 2 ? "All SHIPPED." : `turn ${index + 1}`), {
        env: { CONTINUATION_LOOP_TEST_CRASH_AT: "fsync-done:pause" },
      });
    } finally {
      watch.stop();
    }
    expect(watch.count()).toBe(3);
    expect(p.readState()).toBeUndefined();
    expect(p.history().map((r) => [r.decision, r.reason, r.iteration])).toEqual([
      ["continue", "continue", 1],
      ["continue", "continue", 2],
      ["end", "completed", 3],
    ]);
    expect(p.history().at(-1)).toMatchObject({ promise: "SHIPPED", fields: { completion_promise: "SHIPPED" } });
  });

  it("a pause and a resume made by setting active are in the history, and the resume brings the full prompt", async () => {
    const p = t.project();
    trustProject(p);
    p.writeState("---\nmax_iterations: 4\n---\nShip the release.\n");
    const first = await run(p, (_req, index) => {
      // The person pauses the loop while Claude works on its second turn.
      if (index === 1) p.writeState(p.readState()?.replace("max_iterations", "active: false\nmax_iterations") ?? "");
      return text(`turn ${index + 1}`);
    });
    expect(first.continuations).toHaveLength(1);
    p.writeState(p.readState()?.replace("active: false", "active: true") ?? "");
    const second = await run(p, (_req, index) => text(`again ${index + 1}`), { resume: first.sessionId });
    expect(second.continuations[0]).toContain(LOOP_MARKER);
    expect(second.continuations[0]).toContain("Ship the release.");
    expect(p.history().map((r) => [r.decision, r.reason, r.iteration])).toEqual([
      ["continue", "continue", 1],
      ["pause", "active_false", 2],
      ["resume", "active_true", 2],
      ["continue", "continue", 2],
      ["continue", "continue", 3],
      ["end", "max_iterations", 4],
    ]);
  });
});
