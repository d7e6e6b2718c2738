// Background work through the bundled hooks (docs/REFERENCE.md "Background work"): a Stop whose input lists
// a background task still running holds the loop, uncounted, with one history line per hold and one line
// for the person; the next Stop decides as usual. With the companion module (a Stop id in the environment)
// any running task holds; on the command path only a reply with `<loop-wait/>`. The module's wake prompt
// is recorded as the loop's resume; Claude Code's own notification turn is nobody's prompt.
import { appendFileSync, existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { digestOf, readSidecarView } from "../../src/core/sidecar.js";
import { BACKGROUND_WAKE_OPENING, LOOP_MARKER, TODO_MARKER } from "../../src/core/protocol.js";
import { makeProject, readHistory as history, runHook } from "../support/runHook.js";

const MODULE = { CONTINUATION_LOOP_STOP_ID: "test-stop-1" };
const BUILD = { id: "bx1", type: "shell", status: "running", description: "build", command: "make" };
const NOTIFICATION =
  '<task-notification>\n<task-id>bx1</task-id>\n<status>completed</status>\n<summary>Background command "build" completed (exit code 0)</summary>\n</task-notification>';

const stop = (root: string, reply: string, tasks: unknown, env: Record<string, string> = MODULE) =>
  runHook(
    "stop",
    {
      session_id: "s1",
      cwd: root,
      hook_event_name: "Stop",
      last_assistant_message: reply,
      background_tasks: tasks,
      session_crons: [],
    },
    { env },
  );
const prompt = (root: string, text: string, env: Record<string, string> = {}) =>
  runHook("prompt", { session_id: "s1", cwd: root, hook_event_name: "UserPromptSubmit", prompt: text }, { env });
const file = (root: string, name: string) => readFileSync(join(root, ".claude", name), "utf8");
const sidecar = (root: string) => JSON.parse(file(root, "continuation-loop.runtime.json")) as Record<string, unknown>;
const told = (run: { json: Record<string, unknown> | undefined }) => String(run.json?.systemMessage ?? "");
const STATE = "---\nmax_iterations: 10\ncompletion_promise: DONE\n---\nShip the release.\n";

describe("a Stop while a background task runs, where the companion module runs", () => {
  it("holds the loop uncounted: one history line per hold, one line for the person, the hold in the sidecar and view", () => {
    const { root, historyPath, statePath } = makeProject(STATE);
    const held = stop(root, "Build started in the background.", [BUILD]);
    expect(held.code).toBe(0);
    expect(held.stderr).toBe("");
    expect(told(held)).toMatch(
      /^continuation-loop: waiting for 1 background task \(build\); iteration 1\/10 is not counted\. The loop goes on when Claude Code reports it finished, or by itself at \d\d:\d\d:\d\d UTC \(background_wait 10m\)\.$/,
    );
    expect(held.json).not.toHaveProperty("hookSpecificOutput");
    // Claimed, not counted.
    expect(readFileSync(statePath, "utf8")).toContain('session_id: "s1"');
    expect(readFileSync(statePath, "utf8")).not.toContain("iteration_count");
    const [line] = history(historyPath);
    expect(line).toMatchObject({
      decision: "waiting_background",
      reason: "background_tasks",
      iteration: 1,
      tasks: [{ id: "bx1", type: "shell", description: "build" }],
      wait_s: 600,
      reply_line: "Build started in the background.",
    });
    expect(Date.parse(String(line?.until)) - Date.parse(String(line?.time))).toBe(600_000);
    const hold = sidecar(root).background_hold as { tasks: unknown[]; route: string };
    expect(hold).toMatchObject({ route: "module", tasks: [{ id: "bx1", description: "build" }] });
    // Saved with the state file's text as it is: the module reads the hold from it without running the helper.
    const kept = readSidecarView(file(root, "continuation-loop.runtime.json"));
    expect(kept?.digest).toBe(digestOf(readFileSync(statePath, "utf8")));
    expect(kept?.view.runtime.background_hold).toEqual(hold);

    // A second Stop of the same hold (a person's prompt meanwhile): the same hold, no second line.
    expect(stop(root, "Still building.", [BUILD]).code).toBe(0);
    expect(history(historyPath)).toHaveLength(1);
    // The task's notification turn ends with nothing running: the loop goes on, counting this iteration once.
    const on = stop(root, "The build passed.", []);
    expect(on.code).toBe(0);
    expect(String((on.json!.hookSpecificOutput as { additionalContext: string }).additionalContext)).toContain(
      "iteration 2/10",
    );
    expect(history(historyPath).map((r) => [r.decision, r.iteration])).toEqual([
      ["waiting_background", 1],
      ["continue", 1],
    ]);
    expect(sidecar(root).background_hold).toBeNull();
  });

  it("goes on without a task once background_wait has passed, and never waits for it again", () => {
    const { root, historyPath } = makeProject(STATE);
    const server = { ...BUILD, id: "srv", description: "dev server" };
    expect(stop(root, "Server started.", [server]).code).toBe(0);
    // The hold began eleven minutes ago: background_wait (10m) has passed.
    const kept = sidecar(root) as { background_hold: { since: string; tasks: { since: string }[] } };
    const earlier = new Date(Date.now() - 660_000).toISOString();
    kept.background_hold.since = earlier;
    for (const task of kept.background_hold.tasks) task.since = earlier;
    writeFileSync(join(root, ".claude", "continuation-loop.runtime.json"), JSON.stringify(kept));
    // The module's prompt once the bound has passed: recorded as the loop's resume, nothing added.
    const wake = `${BACKGROUND_WAKE_OPENING}: background_wait (10m) passed with 1 task still running: dev server.`;
    expect(prompt(root, wake)).toMatchObject({ code: 0, stdout: "" });
    expect(history(historyPath).at(-1)).toMatchObject({
      decision: "resume",
      reason: "background_wait",
      tasks: [{ id: "srv", type: "shell", description: "dev server" }],
    });
    const on = stop(root, "Checked the pages.", [server]);
    const context = String((on.json!.hookSpecificOutput as { additionalContext: string }).additionalContext);
    expect(context).toContain(LOOP_MARKER);
    expect(context).toMatch(/no longer waited for after background_wait \(10m\): dev server/);
    expect(sidecar(root)).toMatchObject({ background_hold: null, background_waited: ["srv"] });
    expect(stop(root, "Still checking.", [server]).json).toHaveProperty("hookSpecificOutput");
    expect(history(historyPath).map((r) => r.decision)).toEqual([
      "waiting_background",
      "resume",
      "continue",
      "continue",
    ]);
  });

  it("ends the loop at the wake, with no turn, when its time ran out during the wait", () => {
    const started = new Date(Date.now() - 3_600_000).toISOString();
    const { root, statePath, historyPath } = makeProject(
      `---\nmax_iterations: 10\nmax_duration: 2h\nstarted_at: "${started}"\ncompletion_promise: DONE\n---\nShip the release.\n`,
    );
    expect(stop(root, "Build started.", [BUILD]).code).toBe(0);
    // The time limit passes while the loop waits (here: lowered by hand below the hour it has run).
    writeFileSync(statePath, readFileSync(statePath, "utf8").replace("max_duration: 2h", "max_duration: 30m"));
    const wake = prompt(
      root,
      `${BACKGROUND_WAKE_OPENING}: background_wait (10m) passed with 1 task still running: build.`,
    );
    expect(wake.json?.decision).toBe("block");
    expect(String(wake.json?.reason)).toMatch(/^continuation-loop: loop reached max_duration after 1\/10 iterations/);
    expect(String(wake.json?.reason)).toContain("It ended during the wait for background work; no turn was started.");
    expect(existsSync(statePath)).toBe(false);
    expect(history(historyPath).at(-1)).toMatchObject({
      decision: "end",
      reason: "max_duration",
      goal: "Ship the release.\n",
      fields: { max_duration: "30m" },
    });
  });

  it("refuses the module's wake prompt for a loop stopped meanwhile, or one that went on already", () => {
    const { root } = makeProject(STATE);
    expect(stop(root, "Build started.", [BUILD]).code).toBe(0);
    const wake = `${BACKGROUND_WAKE_OPENING}: …`;
    expect(stop(root, "The build passed.", []).code).toBe(0);
    expect(String(prompt(root, wake).json?.reason)).toMatch(/already gone on after the background work/);
    expect(prompt(root, "/loop-stop").code).toBe(0);
    expect(String(prompt(root, wake).json?.reason)).toMatch(/stopped or paused during the wait for background work/);
  });
});

describe("a Stop while a background task runs, on the command path", () => {
  it("continues, naming the task and teaching <loop-wait/>; a reply that carries it holds until the person types", () => {
    const { root, historyPath } = makeProject(STATE);
    const on = stop(root, "Build started.", [BUILD], {});
    expect(on.code).toBe(2);
    expect(on.stderr).toContain("Still running in the background: build.");
    expect(on.stderr).toContain("end your reply with <loop-wait/>");
    const held = stop(root, "Waiting for the build. <loop-wait/>", [BUILD], {});
    expect(held.code).toBe(0);
    expect(told(held)).toContain(
      "waiting for 1 background task (build); iteration 2/10 is not counted. The loop goes on when Claude Code reports it finished, or when you type.",
    );
    expect(history(historyPath).at(-1)).toMatchObject({ decision: "waiting_background", iteration: 2 });
    expect(history(historyPath).at(-1)).not.toHaveProperty("until");
    // A short reminder still names what runs.
    const next = stop(root, "Building.", [BUILD], {});
    expect(next.code).toBe(2);
    expect(next.stderr.split("\n")[0]).toMatch(/keep working\..*Still running in the background: build\./);
  });

  it("background_wait: 0, an input without background_tasks, and one that does not fit all continue as before", () => {
    const off = makeProject(STATE.replace("max_iterations: 10", "max_iterations: 10\nbackground_wait: 0"));
    expect(stop(off.root, "Build started.", [BUILD]).code).toBe(0);
    expect(history(off.historyPath).at(-1)).toMatchObject({ decision: "continue" });
    for (const tasks of [undefined, "running", [{ id: 7 }]]) {
      const { root, historyPath } = makeProject(STATE);
      const run = stop(root, "Build started. <loop-wait/>", tasks, {});
      expect(run.code).toBe(2);
      expect(run.stderr).not.toContain("background");
      expect(history(historyPath).at(-1)).toMatchObject({ decision: "continue" });
    }
  });
});

describe("scheduled wake-ups", () => {
  it("never hold the loop: a stop with crons and no running task continues", () => {
    const { root, historyPath } = makeProject(STATE);
    const run = runHook(
      "stop",
      {
        session_id: "s1",
        cwd: root,
        hook_event_name: "Stop",
        last_assistant_message: "I scheduled a check of the deploy. <loop-wait/>",
        background_tasks: [],
        session_crons: [{ id: "c1", schedule: "*/5 * * * *", recurring: true, prompt: "check the deploy" }],
      },
      { env: MODULE },
    );
    expect(String((run.json!.hookSpecificOutput as { additionalContext: string }).additionalContext)).toContain(
      "iteration 2/10",
    );
    expect(history(historyPath).map((r) => r.decision)).toEqual(["continue"]);
  });
});

describe("Claude Code's notification turn, when a background task finishes", () => {
  it("answers no question, resumes nothing and gets no todo reminder: the person's next prompt does", () => {
    const { root, historyPath } = makeProject(STATE);
    const config = join(root, "config");
    mkdirSync(join(config, "tasks", "s1"), { recursive: true });
    writeFileSync(
      join(config, "tasks", "s1", "1.json"),
      JSON.stringify({ id: "1", subject: "Pick the port", status: "pending", blocks: [], blockedBy: [] }),
    );
    const env = { CLAUDE_CONFIG_DIR: config, HOME: join(root, "home") };
    const asked = stop(root, "Which port? <loop-pause>Which port?</loop-pause>", [BUILD]);
    expect(told(asked)).toContain("Claude asks: Which port?");
    const notified = prompt(root, NOTIFICATION, env);
    expect(notified).toMatchObject({ code: 0, stdout: "" });
    expect(history(historyPath).map((r) => r.decision)).toEqual(["pause"]);
    expect(sidecar(root)).toMatchObject({ pause: { reason: "question" } });
    // Its turn's Stop: still waiting for the answer.
    expect(stop(root, "The build passed.", [])).toMatchObject({ code: 0, stdout: "" });
    const answered = prompt(root, "Use 8080.", env);
    expect(String(answered.json?.systemMessage)).toContain("your answer goes to Claude");
    const context = String((answered.json!.hookSpecificOutput as { additionalContext: string }).additionalContext);
    expect(context).toContain(TODO_MARKER);
    expect(history(historyPath).map((r) => r.decision)).toEqual(["pause", "resume"]);
  });

  it("with no loop at all, gets no todo reminder either", () => {
    const { root } = makeProject();
    const config = join(root, "config");
    mkdirSync(join(config, "tasks", "s1"), { recursive: true });
    writeFileSync(
      join(config, "tasks", "s1", "1.json"),
      JSON.stringify({ id: "1", subject: "Pick the port", status: "pending", blocks: [], blockedBy: [] }),
    );
    const env = { CLAUDE_CONFIG_DIR: config, HOME: join(root, "home") };
    expect(prompt(root, NOTIFICATION, env)).toMatchObject({ code: 0, stdout: "" });
    expect(prompt(root, "What next?", env).stdout).toContain(TODO_MARKER);
  });
});

describe("the hold in /loop-status and the report", () => {
  it("/loop-status says what the loop waits for; the report shows the hold as a row of its own", () => {
    const { root } = makeProject(STATE);
    expect(stop(root, "Build started.", [BUILD]).code).toBe(0);
    const status = String(prompt(root, "/loop-status").json?.reason);
    expect(status).toMatch(/^continuation-loop: loop waiting, iteration 1\/10/);
    expect(status).toMatch(
      /\n {2}waiting for 1 background task \(build\) since \d\d:\d\d:\d\d UTC; it goes on when it finishes, or by itself at \d\d:\d\d:\d\d UTC\n/,
    );
    // The status line says it too (on the command path there is no band), and no longer once the loop goes on.
    const statusline = () =>
      runHook("cli", JSON.stringify({ session_id: "s1", cwd: root }), { cwd: root, args: ["statusline"] }).stdout;
    expect(statusline()).toMatch(/^⟳ loop 1\/10 · .* · waiting for 1 background task \(build\)\n$/);
    expect(stop(root, "The build passed.", []).code).toBe(0);
    expect(statusline()).not.toContain("waiting");
    const report = runHook("cli", "", { cwd: root, args: ["report"], env: { CLAUDE_PROJECT_DIR: root } });
    expect(report.code).toBe(0);
    const rows = report.stdout.split("\n").filter((l) => l.startsWith("| "));
    expect(rows.find((l) => l.includes("waiting for 1 background task (build)"))).toMatch(
      /^\| – \| .*\*\*waiting for 1 background task \(build\)\*\* \| – \| Build started\. \|$/,
    );
  });

  it("once a held task's notification starts a turn, or Esc ends that turn, neither /loop-status nor the status line says the loop waits", () => {
    const { root } = makeProject(STATE);
    // The session's transcript as Claude Code writes it (docs/REFERENCE.md "Background work"): the held turn's reply,
    // then the notification's prompt (its own `<task-id>` line), then Esc's line.
    const transcript = join(root, "session.jsonl");
    const line = (entry: unknown) => `${JSON.stringify(entry)}\n`;
    const reply = (text: string) => ({
      type: "assistant",
      isSidechain: false,
      message: {
        id: `m-${text.length}`,
        role: "assistant",
        content: [{ type: "text", text }],
        usage: { output_tokens: 7 },
      },
    });
    const user = (content: unknown, extra: Record<string, unknown> = {}) => ({
      type: "user",
      isSidechain: false,
      ...extra,
      message: { role: "user", content },
    });
    writeFileSync(transcript, line(user("Ship the release.")) + line(reply("Build started.")));
    const held = runHook(
      "stop",
      {
        session_id: "s1",
        cwd: root,
        hook_event_name: "Stop",
        transcript_path: transcript,
        last_assistant_message: "Build started.",
        background_tasks: [BUILD],
        session_crons: [],
      },
      { env: MODULE },
    );
    expect(held.code).toBe(0);
    const status = () => String(prompt(root, "/loop-status").json?.reason);
    const statusline = () =>
      runHook("cli", JSON.stringify({ session_id: "s1", cwd: root }), { cwd: root, args: ["statusline"] }).stdout;
    // Another task's notification, and a person's prompt, leave the wait as it is.
    appendFileSync(
      transcript,
      line(user(NOTIFICATION.replace("bx1", "bx9"), { origin: { kind: "task-notification" } })),
    );
    expect(status()).toMatch(
      /^continuation-loop: loop waiting, iteration 1\/10 .*\n {2}waiting for 1 background task \(build\) since/,
    );
    expect(statusline()).toContain("waiting for 1 background task (build)");

    appendFileSync(transcript, line(user(NOTIFICATION, { origin: { kind: "task-notification" } })));
    const running = status();
    expect(running).toMatch(/^continuation-loop: loop running, iteration 1\/10/);
    expect(running).not.toMatch(/waiting for 1 background task \(build\) since/);
    expect(statusline()).toMatch(/^⟳ loop 1\/10 · [^\n]*\n$/);
    expect(statusline()).not.toContain("waiting");

    appendFileSync(transcript, line(user([{ type: "text", text: "[Request interrupted by user]" }])));
    expect(status()).toMatch(
      /\n {2}the turn after the wait was interrupted \(Esc\): your next prompt in the session pauses the loop \(\/loop-resume goes on\)\n/,
    );
    expect(statusline()).not.toContain("waiting");
    // The notification's turn ends in a Stop after all: that Stop decides, as ever.
    expect(sidecar(root).background_hold).not.toBeNull();
  });

  it("a hold whose transcript cannot be read is shown as a wait", () => {
    const { root } = makeProject(STATE);
    const held = runHook(
      "stop",
      {
        session_id: "s1",
        cwd: root,
        hook_event_name: "Stop",
        transcript_path: join(root, "gone.jsonl"),
        last_assistant_message: "Build started.",
        background_tasks: [BUILD],
        session_crons: [],
      },
      { env: MODULE },
    );
    expect(held.code).toBe(0);
    expect(String(prompt(root, "/loop-status").json?.reason)).toMatch(/^continuation-loop: loop waiting/);
  });
});
