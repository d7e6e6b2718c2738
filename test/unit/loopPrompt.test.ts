import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { handleLoopPrompt, renderPromptOutput } from "../../src/cli/loopPrompt.js";
import { parseState } from "../../src/core/parseState.js";

const REPO = resolve(import.meta.dirname, "../..");
const NOW = Date.parse("2026-03-01T10:00:00Z");
let project: string;
const statePath = () => join(project, ".claude", "continuation-loop.local.md");
const historyPath = () => join(project, ".claude", "continuation-loop.history.jsonl");
const history = () =>
  readFileSync(historyPath(), "utf8")
    .trim()
    .split("\n")
    .map((l) => JSON.parse(l) as Record<string, unknown>);

function typed(prompt: string, session = "session-A", now = NOW) {
  const stdin = JSON.stringify({ session_id: session, cwd: project, hook_event_name: "UserPromptSubmit", prompt });
  return handleLoopPrompt(stdin, { env: { CLAUDE_PROJECT_DIR: project }, cwd: "/", now, packageRoot: REPO });
}

beforeEach(() => {
  project = mkdtempSync(join(tmpdir(), "cl-prompt-"));
});
afterEach(() => rmSync(project, { recursive: true, force: true }));

describe("handleLoopPrompt: /loop-start", () => {
  it("creates the loop bound to the session, with the goal verbatim, and tells Claude to begin", async () => {
    const goal = 'Fix "the" parser; don\'t run $(touch /tmp/x) or `id`\nand line two';
    const out = await typed(
      `/continuation-loop:loop-start --max-iterations 2 --completion-promise "it's done" ${goal}`,
    );
    const state = parseState(readFileSync(statePath(), "utf8"));
    expect(state).toMatchObject({
      max_iterations: 2,
      completion_promise: ["it's done"],
      session_id: "session-A",
      started_at: "2026-03-01T10:00:00.000Z",
      body: `${goal}\n`,
    });
    expect(out?.block).toBeUndefined();
    expect(out?.additionalContext).toContain("Begin working on the goal now");
    expect(out?.additionalContext).toContain(goal);
    expect(out?.additionalContext).toContain('"it\'s done"');
    expect(out?.additionalContext).toContain("iterations 1/2 (1 left)");
    expect(out?.systemMessage).toContain("loop started");
  });

  it.each([
    ["a bad value", "/loop-start --max-iterations lots Go", "--max-iterations: invalid value"],
    ["no goal", "/loop-start --max-iterations 3", "a goal is required"],
    ["an unknown template", "/loop-start --template nope Go", 'no template named "nope"'],
  ])("blocks %s with a clear reason and writes nothing", async (_name, prompt, reason) => {
    const out = await typed(prompt);
    expect(out?.block).toContain(reason);
    expect(existsSync(statePath())).toBe(false);
  });

  it("shows the usage for --help without starting", async () => {
    expect((await typed("/loop-start --help"))?.block).toContain("--completion-promise");
    expect(existsSync(statePath())).toBe(false);
  });

  it("refuses to replace a running loop, and replaces it with --force (keeping the old goal in history)", async () => {
    await typed("/loop-start --max-iterations 5 First goal");
    const before = readFileSync(statePath(), "utf8");
    const refused = await typed("/loop-start Second goal", "session-B");
    expect(refused?.block).toContain("a loop is already running (iteration 1/5, session session-A)");
    expect(readFileSync(statePath(), "utf8")).toBe(before);
    const forced = await typed("/loop-start --force Second goal", "session-B");
    expect(forced?.block).toBeUndefined();
    expect(parseState(readFileSync(statePath(), "utf8"))).toMatchObject({
      body: "Second goal\n",
      session_id: "session-B",
    });
    expect(history()).toEqual([
      expect.objectContaining({ reason: "stopped", goal: "First goal\n", session: "session-A" }),
    ]);
  });

  it("treats the same start from the same session a moment later as one start (a hook registered twice)", async () => {
    await typed("/loop-start Same goal");
    const before = readFileSync(statePath(), "utf8");
    const again = await typed("/loop-start Same goal", "session-A", NOW + 500);
    expect(again?.block).toBeUndefined();
    expect(readFileSync(statePath(), "utf8")).toBe(before);
    expect((await typed("/loop-start Same goal", "session-A", NOW + 60_000))?.block).toContain("already running");
  });

  it("uses a template", async () => {
    await typed("/loop-start --template tdd Add parsing of dates");
    const state = parseState(readFileSync(statePath(), "utf8"));
    expect(state).toMatchObject({ verify: "npm test", max_iterations: 20 });
    expect(state.body).toContain("## Goal\nAdd parsing of dates\n");
  });
});

describe("handleLoopPrompt: /loop-stop and /loop-status", () => {
  it("stops another session's loop, records it, and says so to Claude and the user", async () => {
    await typed("/loop-start --max-iterations 4 Keep going");
    const out = await typed("/loop-stop", "session-Z");
    expect(existsSync(statePath())).toBe(false);
    expect(out?.additionalContext).toContain("loop stopped by the user at iteration 1/4");
    expect(out?.systemMessage).toContain("was removed");
    expect(history().at(-1)).toMatchObject({
      decision: "end",
      reason: "stopped",
      goal: "Keep going\n",
      session: "session-A",
    });
  });

  it("stops a loop whose file is invalid", async () => {
    mkdirSync(join(project, ".claude"));
    writeFileSync(statePath(), "---\nmax_iterations: [\n---\nBroken goal\n");
    const out = await typed("/continuation-loop:loop-stop");
    expect(out?.block).toBeUndefined();
    expect(existsSync(statePath())).toBe(false);
    expect(history().at(-1)).toMatchObject({ reason: "stopped", goal: "Broken goal\n" });
  });

  it("says when there is nothing to stop", async () => {
    expect((await typed("/loop-stop"))?.additionalContext).toContain("no loop is running");
  });

  it("puts the status into Claude's context", async () => {
    await typed("/loop-start --max-iterations 4 --max-tokens 1000 Keep going");
    const out = await typed("/loop-status", "session-Z", NOW + 65_000);
    expect(out?.additionalContext).toContain("/loop-status output:");
    expect(out?.additionalContext).toContain("iteration 1/4");
    expect(out?.additionalContext).toContain("output tokens 0 of 1,000");
    expect(out?.additionalContext).toContain("elapsed: 1m 5s");
    expect(out?.additionalContext).toContain("session-A (another session");
  });

  it("blocks the status of an invalid state file with the field and line", async () => {
    mkdirSync(join(project, ".claude"));
    writeFileSync(statePath(), "---\nmax_iterations: 0\n---\nGoal\n");
    expect((await typed("/loop-status"))?.block).toMatch(/line 2: max_iterations: invalid value/);
  });
});

describe("handleLoopPrompt leaves other prompts alone", () => {
  it.each([
    ["a plain prompt", JSON.stringify({ prompt: "hello /loop-start" })],
    ["bad JSON", "{"],
    ["no prompt", "{}"],
    ["an array", "[]"],
  ])("%s", async (_name, stdin) => {
    expect(await handleLoopPrompt(stdin, { env: {}, cwd: project, now: NOW })).toBeUndefined();
  });
});

describe("renderPromptOutput", () => {
  it.each([
    [undefined, undefined, ""],
    [undefined, "TODO", { hookSpecificOutput: { hookEventName: "UserPromptSubmit", additionalContext: "TODO" } }],
    [{ block: "no" }, "TODO", { decision: "block", reason: "no" }],
    [
      { systemMessage: "hi", additionalContext: "LOOP" },
      "TODO",
      {
        systemMessage: "hi",
        hookSpecificOutput: { hookEventName: "UserPromptSubmit", additionalContext: "TODO\n\nLOOP" },
      },
    ],
  ])("%j + %j", (loop, todo, expected) => {
    const out = renderPromptOutput(loop, todo);
    expect(out === "" ? "" : JSON.parse(out)).toEqual(expected);
  });
});
