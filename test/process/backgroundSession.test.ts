// A loop follows its session into the background (docs/REFERENCE.md "Leave it running"): the bundled hooks fed the
// inputs Claude Code gives them around `/background` (measured on 2.1.197 and 2.1.332, docs/ARCHITECTURE.md
// "Background sessions").
import { spawn } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { waitForProcessEnd } from "../../src/io/processes.js";
import { spawnBundle } from "../support/processes.js";
import { makeProject, readHistory, runHook } from "../support/runHook.js";
import { runCli } from "./support/cli.js";

const TERMINAL = "0b7e5a1c-0000-4000-8000-000000000001";
const FORK = "49473643-17b5-4737-9245-d07fd74e3b1f";
const OTHER = "77777777-0000-4000-8000-000000000002";

const children: ReturnType<typeof spawn>[] = [];
afterEach(() => {
  for (const child of children.splice(0)) child.kill("SIGKILL");
});

/** A project whose loop the terminal's session runs at iteration 2, its transcripts in `home`. */
function bound(pid = "999999999") {
  const project = makeProject(`---\nmax_iterations: 5\nsession_id: "${TERMINAL}"\niteration_count: 2\n---\nGoal\n`);
  const transcripts = join(project.root, "home", ".claude", "projects", "-proj");
  mkdirSync(transcripts, { recursive: true });
  const sidecar = join(project.root, ".claude", "continuation-loop.runtime.json");
  writeFileSync(
    sidecar,
    JSON.stringify({ loop: { started_at: null, session_id: TERMINAL }, owner_pid: pid, stall_count: 1 }),
  );
  return { ...project, transcripts, sidecar };
}

const stopIn = (root: string, session: string, transcript: string, env: Record<string, string>) =>
  runHook(
    "stop",
    {
      session_id: session,
      cwd: root,
      hook_event_name: "Stop",
      transcript_path: transcript,
      last_assistant_message: "ok",
    },
    { env },
  );

const job = (root: string, short: string) => ({ CLAUDE_JOB_DIR: join(root, "home", ".claude", "jobs", short) });

describe("2.1.332: the terminal's transcript says it went on in the background session", () => {
  const continuedIn = (to: string) =>
    `${JSON.stringify({ type: "continued-in", timestamp: "2026-11-27T15:10:12.047Z", sessionId: TERMINAL, continuedInSessionId: to })}\n${JSON.stringify({ type: "cost-state", sessionId: TERMINAL })}\n`;

  it("the background session's first Stop takes the loop and counts the iteration that was running, once", () => {
    const p = bound();
    writeFileSync(join(p.transcripts, `${TERMINAL}.jsonl`), continuedIn(FORK));
    const first = stopIn(p.root, FORK, join(p.transcripts, `${FORK}.jsonl`), job(p.root, "49473643"));
    expect(first.code).toBe(2);
    expect(first.stderr).toContain("iteration 3/5");
    const state = readFileSync(p.statePath, "utf8");
    expect(state).toMatch(new RegExp(`^session_id: "?${FORK}"?$`, "m"));
    expect(state).toMatch(/^iteration_count: 3$/m);
    const records = readHistory(p.historyPath);
    expect(records.map((r) => [r.decision, r.iteration, r.session])).toEqual([
      ["resume", 2, FORK],
      ["continue", 2, FORK],
    ]);
    // The terminal's session, should it stop again (resumed later), no longer drives the loop.
    const again = stopIn(p.root, TERMINAL, join(p.transcripts, `${TERMINAL}.jsonl`), {});
    expect(again.code).toBe(0);
    expect(readFileSync(p.statePath, "utf8")).toMatch(/^iteration_count: 3$/m);
  });

  it("takes nothing when the record names another session, or outside a background session", () => {
    const p = bound();
    writeFileSync(join(p.transcripts, `${TERMINAL}.jsonl`), continuedIn(OTHER));
    expect(stopIn(p.root, FORK, join(p.transcripts, `${FORK}.jsonl`), job(p.root, "49473643")).code).toBe(0);
    writeFileSync(join(p.transcripts, `${TERMINAL}.jsonl`), continuedIn(FORK));
    // The same session id outside a background session (no CLAUDE_JOB_DIR), or under another job's.
    expect(stopIn(p.root, FORK, join(p.transcripts, `${FORK}.jsonl`), {}).code).toBe(0);
    expect(stopIn(p.root, FORK, join(p.transcripts, `${FORK}.jsonl`), job(p.root, "0000aaaa")).code).toBe(0);
    expect(readFileSync(p.statePath, "utf8")).toContain(`session_id: "${TERMINAL}"`);
  });
});

describe("2.1.197: the background session starts under the id of the session it continues", () => {
  const start = (root: string, session: string, env: Record<string, string>) =>
    runHook("session", { session_id: session, cwd: root, hook_event_name: "SessionStart", source: "resume" }, { env });

  it("its SessionStart notes the loop's new session; its first Stop takes the loop once the terminal's has ended", () => {
    const p = bound();
    expect(start(p.root, TERMINAL, job(p.root, "4dfd6e27")).code).toBe(0);
    expect(JSON.parse(readFileSync(p.sidecar, "utf8"))).toMatchObject({ continued_in_job: "4dfd6e27", stall_count: 1 });
    const fork = "4dfd6e27-0c41-4b67-adfa-a0e9f840bdb9";
    const first = stopIn(p.root, fork, join(p.transcripts, `${fork}.jsonl`), job(p.root, "4dfd6e27"));
    expect(first.code).toBe(2);
    expect(readFileSync(p.statePath, "utf8")).toMatch(/^iteration_count: 3$/m);
    expect(readHistory(p.historyPath).map((r) => [r.decision, r.iteration, r.session])).toEqual([
      ["resume", 2, fork],
      ["continue", 2, fork],
    ]);
    expect(JSON.parse(readFileSync(p.sidecar, "utf8"))).toMatchObject({ continued_in_job: "" });
  });

  it("its first Stop waits while the terminal's Claude Code is still ending, and takes the loop once it has ended", async () => {
    const terminal = spawn("sleep", ["60"]);
    children.push(terminal);
    const p = bound(String(terminal.pid));
    expect(start(p.root, TERMINAL, job(p.root, "4dfd6e27")).code).toBe(0);
    const fork = "4dfd6e27-0c41-4b67-adfa-a0e9f840bdb9";
    // The hook stops where it has found the terminal's process running and starts to wait (src/io/crashPoint.ts).
    let ended = false;
    const whilePaused = () => {
      expect(readFileSync(p.statePath, "utf8")).toContain(`session_id: "${TERMINAL}"`);
      terminal.kill("SIGKILL");
      ended = true;
    };
    const input = {
      session_id: fork,
      cwd: p.root,
      hook_event_name: "Stop",
      transcript_path: join(p.transcripts, `${fork}.jsonl`),
      last_assistant_message: "ok",
    };
    const env = { ...job(p.root, "4dfd6e27"), CONTINUATION_LOOP_TEST_CRASH_AT: "handover-wait:pause" };
    const first = await spawnBundle("stop", { cwd: p.root, env, whilePaused, stdin: JSON.stringify(input) });
    expect(ended, first.stderr).toBe(true);
    expect(first.code).toBe(2);
    expect(readHistory(p.historyPath).map((r) => [r.decision, r.iteration, r.session])).toEqual([
      ["resume", 2, fork],
      ["continue", 2, fork],
    ]);
  });

  it("a plain resume of the same session notes nothing, and its Stop leaves the loop where it is", () => {
    const terminal = spawn("sleep", ["60"]);
    children.push(terminal);
    const p = bound(String(terminal.pid));
    expect(start(p.root, TERMINAL, job(p.root, TERMINAL.slice(0, 8))).code).toBe(0);
    expect(JSON.parse(readFileSync(p.sidecar, "utf8"))).not.toHaveProperty("continued_in_job");
    const fork = "4dfd6e27-0c41-4b67-adfa-a0e9f840bdb9";
    expect(stopIn(p.root, fork, join(p.transcripts, `${fork}.jsonl`), job(p.root, "4dfd6e27")).code).toBe(0);
    expect(readFileSync(p.statePath, "utf8")).toContain(`session_id: "${TERMINAL}"`);
  });

  it("waitForProcessEnd: true once the process has ended, false while it still runs at the bound", async () => {
    const running = spawn("sleep", ["60"]);
    children.push(running);
    const pid = String(running.pid);
    const started = Date.now();
    expect(waitForProcessEnd(pid, 300)).toBe(false);
    expect(Date.now() - started).toBeGreaterThanOrEqual(300);
    const exited = new Promise((resolve) => running.once("exit", resolve));
    running.kill("SIGKILL");
    await exited;
    expect(waitForProcessEnd(pid, 300)).toBe(true);
  });
});

describe("/loop-start --bg", () => {
  const prompt = (root: string, text: string, extra: object = {}) =>
    runHook("prompt", { session_id: TERMINAL, cwd: root, hook_event_name: "UserPromptSubmit", prompt: text, ...extra });
  const LIVE = { CONTINUATION_LOOP_MODULE_LIVE: "2.1.332" };

  it("starts the loop here, and the first Stop that continues it hands the module the background line, once", () => {
    const p = makeProject();
    const started = prompt(p.root, "/loop-start --bg --max-iterations 5 Ship it", { permission_mode: "default" });
    const told = String(started.json?.systemMessage);
    expect(told).toContain("loop started");
    expect(told).toMatch(/type \/background now/);
    // The session's permission mode asks before tools: the person is told in one line.
    expect(told.split("\n").filter((line) => line.includes("permission mode default"))).toHaveLength(1);
    const sidecar = join(p.root, ".claude", "continuation-loop.runtime.json");
    expect(JSON.parse(readFileSync(sidecar, "utf8"))).toMatchObject({ background_asked: true });

    const env = { ...LIVE, CONTINUATION_LOOP_STOP_ID: "m3k9x-1-abc123" };
    const stop = (id: string) =>
      runHook(
        "stop",
        { session_id: TERMINAL, cwd: p.root, hook_event_name: "Stop", last_assistant_message: "working" },
        { env: { ...env, CONTINUATION_LOOP_STOP_ID: id } },
      );
    const first = stop("m3k9x-1-abc123");
    const context = String(
      (first.json?.hookSpecificOutput as { additionalContext?: string } | undefined)?.additionalContext,
    );
    expect(context.endsWith("[continuation-loop background]\n[continuation-loop stop m3k9x-1-abc123]\n")).toBe(true);
    expect(JSON.parse(readFileSync(sidecar, "utf8"))).toMatchObject({ background_asked: false });
    const second = stop("m3k9x-2-abc123");
    expect(
      String((second.json?.hookSpecificOutput as { additionalContext?: string } | undefined)?.additionalContext),
    ).not.toContain("[continuation-loop background]");
  });

  it("with the module live, says the session goes to the background when the first iteration ends; auto asks nothing", () => {
    const p = makeProject();
    const started = runHook(
      "prompt",
      {
        session_id: TERMINAL,
        cwd: p.root,
        hook_event_name: "UserPromptSubmit",
        prompt: "/loop-start --bg Ship it",
        permission_mode: "auto",
      },
      { env: LIVE },
    );
    const told = String(started.json?.systemMessage);
    expect(told).toMatch(/when this first iteration ends, the session goes to the background/);
    expect(told).not.toContain("permission mode");
  });

  it("refuses --worktree typed in a session: a new background session is the helper's", () => {
    const p = makeProject();
    const refused = prompt(p.root, "/loop-start --bg --worktree w1 Ship it");
    expect(String(refused.json?.reason)).toMatch(/--worktree starts the loop in a new background session/);
    expect(existsSync(p.statePath)).toBe(false);
  });
});

describe("a permission prompt the loop waits on (Notification)", () => {
  const history = (p: { historyPath: string }) => readHistory(p.historyPath);
  const notify = (root: string, session: string, message = "Claude needs your permission to use Bash") =>
    runHook("session", {
      session_id: session,
      cwd: root,
      hook_event_name: "Notification",
      notification_type: "permission_prompt",
      message,
    });

  it("status says what the loop waits for, the history records it, the bell rings with notify; the next Stop clears it", () => {
    const p = makeProject(
      `---\nmax_iterations: 5\nsession_id: "${TERMINAL}"\niteration_count: 2\nnotify: true\n---\nGoal\n`,
    );
    const waited = notify(p.root, TERMINAL);
    expect(waited.code).toBe(0);
    expect(waited.json).toEqual({ terminalSequence: "\u0007" });
    const status = runHook("prompt", { session_id: TERMINAL, cwd: p.root, prompt: "/loop-status" });
    expect(String(status.json?.reason)).toMatch(/waiting for your permission \(Bash\) since \d\d:\d\d:\d\d UTC/);
    expect(history(p).at(-1)).toMatchObject({ decision: "waiting_permission", tool: "Bash", iteration: 2 });
    const report = runCli(["report"], { cwd: p.root });
    expect(report.stdout).toContain("waiting for your permission (Bash)");

    runHook("stop", { session_id: TERMINAL, cwd: p.root, hook_event_name: "Stop", last_assistant_message: "done" });
    const after = runHook("prompt", { session_id: TERMINAL, cwd: p.root, prompt: "/loop-status" });
    expect(String(after.json?.reason)).not.toMatch(/waiting for your permission \(Bash\) since/);
  });

  it("names the tool the transcript's last reply calls when the message names none (2.1.197)", () => {
    const p = makeProject(`---\nmax_iterations: 5\nsession_id: "${TERMINAL}"\nnotify: false\n---\nGoal\n`);
    const transcript = join(p.root, "t.jsonl");
    const call = { type: "tool_use", id: "toolu_1", name: "Edit", input: { file_path: "a.txt" } };
    writeFileSync(
      transcript,
      `${JSON.stringify({ type: "assistant", message: { role: "assistant", id: "m1", content: [call] } })}\n`,
    );
    const waited = runHook("session", {
      session_id: TERMINAL,
      cwd: p.root,
      hook_event_name: "Notification",
      notification_type: "permission_prompt",
      message: "Claude needs your permission",
      transcript_path: transcript,
    });
    expect(waited).toMatchObject({ code: 0, stdout: "" });
    expect(history(p).at(-1)).toMatchObject({ decision: "waiting_permission", tool: "Edit" });
  });

  describe("a subagent's prompt: its call is in its own transcript, the input names no subagent", () => {
    const line = (entry: object) => `${JSON.stringify(entry)}\n`;
    const reply = (content: object[], sidechain: boolean) =>
      line({ type: "assistant", isSidechain: sidechain, message: { role: "assistant", id: "m", content } });
    const call = (name: string) => ({ type: "tool_use", id: `toolu_${name}`, name, input: {} });
    /** A session's transcript ending on `main`, and its subagents' transcripts, each ending on its entry. */
    function session(root: string, main: string, subagents: string[]): string {
      const transcript = join(root, "sess.jsonl");
      writeFileSync(transcript, main);
      mkdirSync(join(root, "sess", "subagents"), { recursive: true });
      for (const [i, last] of subagents.entries())
        writeFileSync(join(root, "sess", "subagents", `agent-a${i}.jsonl`), last);
      return transcript;
    }
    const waitOn = (root: string, transcript: string) =>
      runHook("session", {
        session_id: TERMINAL,
        cwd: root,
        hook_event_name: "Notification",
        notification_type: "permission_prompt",
        message: "Claude needs your permission",
        transcript_path: transcript,
      });

    it("names the subagent's tool, not the Agent call, and status says a subagent waits", () => {
      const p = makeProject(`---\nmax_iterations: 5\nsession_id: "${TERMINAL}"\nnotify: false\n---\nGoal\n`);
      const finished = reply([{ type: "text", text: "done" }], true);
      const transcript = session(p.root, reply([call("Agent")], false), [finished, reply([call("Bash")], true)]);
      expect(waitOn(p.root, transcript)).toMatchObject({ code: 0, stdout: "" });
      expect(history(p).at(-1)).toMatchObject({ decision: "waiting_permission", tool: "Bash, from a subagent" });
      const status = runHook("prompt", { session_id: TERMINAL, cwd: p.root, prompt: "/loop-status" });
      expect(String(status.json?.reason)).toMatch(/waiting for your permission \(Bash, from a subagent\) since/);
    });

    it("a background subagent's, when the main thread's turn has ended", () => {
      const p = makeProject(`---\nmax_iterations: 5\nsession_id: "${TERMINAL}"\nnotify: false\n---\nGoal\n`);
      const transcript = session(p.root, reply([{ type: "text", text: "made it" }], false), [
        reply([call("Write")], true),
      ]);
      waitOn(p.root, transcript);
      expect(history(p).at(-1)).toMatchObject({ tool: "Write, from a subagent" });
    });

    it("says a subagent's tool when the subagent's transcript does not hold the call yet", () => {
      const p = makeProject(`---\nmax_iterations: 5\nsession_id: "${TERMINAL}"\nnotify: false\n---\nGoal\n`);
      const transcript = session(p.root, reply([call("Agent")], false), []);
      waitOn(p.root, transcript);
      expect(history(p).at(-1)).toMatchObject({ tool: "a subagent's tool" });
    });
  });

  it("is silent and writes nothing for a session without a loop, or with notify off", () => {
    const p = makeProject(`---\nmax_iterations: 5\nsession_id: "${TERMINAL}"\nnotify: false\n---\nGoal\n`);
    expect(notify(p.root, OTHER)).toMatchObject({ code: 0, stdout: "" });
    expect(existsSync(p.historyPath)).toBe(false);
    expect(notify(p.root, TERMINAL, "something else")).toMatchObject({ code: 0, stdout: "" });
    expect(history(p).at(-1)).toMatchObject({ decision: "waiting_permission", tool: "a tool" });
  });
});
