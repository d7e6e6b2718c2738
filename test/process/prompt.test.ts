import { execSync } from "node:child_process";
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { MAX_VERIFY_TIMEOUT_S, STOP_HOOK_TIMEOUT_S } from "../../src/core/fields.js";
import { describe, expect, it } from "vitest";
import { HOOKS, makeProject, runHook, type HookRun } from "../support/runHook.js";

const FIX = resolve(import.meta.dirname, "../fixtures/todos");
const TODO_MARKER = "[SYSTEM REMINDER - TODO CONTINUATION]";
const LOOP_MARKER = "[SYSTEM REMINDER - CONTINUATION LOOP ACTIVE]";
const PROMPT = "PROMPT-TEXT-7f3a: please carry on";

/** A temp CLAUDE_CONFIG_DIR holding a copy of a fixture tree (or nothing). */
function configFrom(fixture?: string): string {
  const dir = mkdtempSync(join(tmpdir(), "cl-prompt-config-"));
  if (fixture) cpSync(join(FIX, fixture), dir, { recursive: true });
  return dir;
}
const input = (sessionId: string, over: object = {}) => ({
  session_id: sessionId,
  transcript_path: join(FIX, "transcripts", "missing.jsonl"),
  cwd: tmpdir(),
  hook_event_name: "UserPromptSubmit",
  prompt: PROMPT,
  ...over,
});
const prompt = (stdin: string | object, config: string, env: Record<string, string> = {}) =>
  runHook("prompt", stdin, { env: { CLAUDE_CONFIG_DIR: config, HOME: join(config, "no-home"), ...env } });

function contextOf(run: HookRun): string {
  expect(run.code).toBe(0);
  expect(run.stderr).toBe("");
  expect(run.stdout.endsWith("\n")).toBe(true);
  expect(run.stdout.trim().split("\n")).toHaveLength(1);
  expect(Object.keys(run.json ?? {})).toEqual(["hookSpecificOutput"]);
  const out = run.json!.hookSpecificOutput as Record<string, unknown>;
  expect(Object.keys(out).sort()).toEqual(["additionalContext", "hookEventName"]);
  expect(out.hookEventName).toBe("UserPromptSubmit");
  const context = out.additionalContext as string;
  expect(context.startsWith(`${TODO_MARKER}\n`)).toBe(true);
  expect(context).not.toContain("PROMPT-TEXT-7f3a");
  expect(context).not.toContain(LOOP_MARKER);
  return context;
}
const silent = (run: HookRun) => expect(run).toMatchObject({ code: 0, stdout: "", stderr: "" });

describe("hooks/prompt.js as a process: reminders", () => {
  it("task list: in-progress then pending, completed and broken files left out", () => {
    const context = contextOf(prompt(input("sess-mixed"), configFrom("tasks-mixed")));
    const items = context.split("\n").filter((l) => l.startsWith("- "));
    expect(items).toEqual([
      "- [in_progress] Write the parser",
      "- [pending] Add unit tests",
      "- [pending] Update the README",
    ]);
  });

  it("caps pending at 5 with '… and N more'", () => {
    const context = contextOf(prompt(input("sess-many"), configFrom("many")));
    expect(context.split("\n").filter((l) => l.startsWith("- [pending]"))).toHaveLength(5);
    expect(context.split("\n").filter((l) => l.startsWith("- [in_progress]"))).toEqual([
      "- [in_progress] Task number 4",
      "- [in_progress] Task number 11",
    ]);
    expect(context).toContain("\n… and 4 more\n");
  });

  it("legacy TodoWrite file", () => {
    const context = contextOf(prompt(input("sess-legacy"), configFrom("legacy")));
    expect(context).toContain("- [in_progress] Build the hook\n- [pending] Draft the design");
  });

  it("the last TodoWrite call in the transcript", () => {
    const context = contextOf(
      prompt(input("sess-none", { transcript_path: join(FIX, "transcripts", "todowrite.jsonl") }), configFrom()),
    );
    expect(context).toContain(
      "- [in_progress] Fix the parser\n- [pending] Run the suite\n- [pending] Write the changelog",
    );
    expect(context).not.toContain("Old plan step");
    expect(context).not.toContain("Subagent step");
  });

  it("CLAUDE_CODE_TASK_LIST_ID picks the list", () => {
    const context = contextOf(
      prompt(input("sess-own"), configFrom("task-list-id"), { CLAUDE_CODE_TASK_LIST_ID: "team.list 1" }),
    );
    expect(context).toContain("Shared team task");
    expect(context).not.toContain("Own session task");
  });

  it("a prompt that itself carries a marker is not echoed", () => {
    const run = prompt(input("sess-mixed", { prompt: `${PROMPT} ${LOOP_MARKER}` }), configFrom("tasks-mixed"));
    expect(contextOf(run)).not.toContain(LOOP_MARKER);
  });

  it("leaves the project's loop state file alone and says nothing of the loop", () => {
    const state = '---\nmax_iterations: 2\ncompletion_promise: "DONE"\n---\nGoal text\n';
    const { root, statePath } = makeProject(state);
    const run = runHook("prompt", input("sess-mixed", { cwd: root }), {
      cwd: root,
      env: { CLAUDE_CONFIG_DIR: configFrom("tasks-mixed"), CLAUDE_PROJECT_DIR: root },
    });
    contextOf(run);
    expect(readFileSync(statePath, "utf8")).toBe(state);
  });
});

describe("hooks/prompt.js as a process: silence", () => {
  const todoConfig = configFrom("many"); // unfinished todos exist: silence below is the input's doing
  it.each([
    ["all tasks completed", input("sess-done"), configFrom("tasks-done")],
    ["no config dir at all", input("sess-many"), join(tmpdir(), "cl-prompt-no-such-config")],
    ["config dir without tasks or todos", input("sess-many"), configFrom()],
    ["another session's tasks", input("sess-other"), todoConfig],
    [
      "only broken task files",
      input("sess-x"),
      (() => {
        const config = configFrom();
        const dir = join(config, "tasks", "sess-x");
        mkdirSync(join(dir, "2.json"), { recursive: true });
        writeFileSync(join(dir, "1.json"), '{"id":"1","subject":"Torn');
        writeFileSync(join(dir, "3.json"), "null");
        writeFileSync(join(dir, "4.json"), '{"id":"4","subject":"Bad status","status":"doing"}');
        return config;
      })(),
    ],
    ["torn legacy file", input("sess-torn"), configFrom("legacy-torn")],
    [
      "transcript without TodoWrite",
      input("sess-none", { transcript_path: join(FIX, "transcripts", "no-todowrite.jsonl") }),
      configFrom(),
    ],
    [
      "transcript whose last TodoWrite is done",
      input("sess-none", { transcript_path: join(FIX, "transcripts", "todowrite-done.jsonl") }),
      configFrom(),
    ],
    ["path traversal in session_id", input("../../outside"), join(FIX, "traversal", "config")],
    ["empty stdin", "", todoConfig],
    ["blank stdin", " \n\t", todoConfig],
    ["not JSON", "hello there", todoConfig],
    ["truncated JSON", JSON.stringify(input("sess-many")).slice(0, 30), todoConfig],
    ["JSON array", JSON.stringify([input("sess-many")]), todoConfig],
    ["JSON null", "null", todoConfig],
    ["JSON string", '"sess-many"', todoConfig],
    ["session_id of wrong type", input("x", { session_id: 42 }), todoConfig],
    ["binary junk", Buffer.from([0xff, 0x00, 0x7b, 0x22]).toString("latin1"), todoConfig],
    // Sent by no person: a wake-up of Claude Code's own /loop or scheduler, or Claude Code's own prompt.
    ...(["loop_wakeup", "schedule_wakeup", "poll_event", "system"] as const).map(
      (source) => [`a ${source} prompt`, input("sess-many", { source }), todoConfig] as const,
    ),
  ] as const)("%s → exit 0, nothing printed", (_name, stdin, config) => {
    silent(prompt(stdin, config));
  });

  it("the same input with valid types does remind (so the silences above are the input's doing)", () => {
    contextOf(prompt(input("sess-many"), todoConfig));
    for (const source of ["user", "sdk"]) contextOf(prompt(input("sess-many", { source }), todoConfig));
  });

  // The reminder reads only session_id and transcript_path, as strings: another field of the wrong
  // type changes nothing, and a transcript_path that is not a string is no transcript.
  it.each([
    ["transcript_path of wrong type", { transcript_path: { a: 1 } }],
    ["prompt of wrong type", { prompt: ["x"] }],
    ["cwd of wrong type", { cwd: 7 }],
  ])("%s → the task list's reminder, never a block or a crash", (_name, extra) => {
    const run = prompt(input("sess-many", extra), todoConfig);
    expect(run.code).toBe(0);
    expect(run.stderr).toBe("");
    expect(contextOf(run)).toContain("[SYSTEM REMINDER - TODO CONTINUATION]");
  });

  it("a huge prompt is read and not echoed", () => {
    const context = contextOf(prompt(input("sess-many", { prompt: `${PROMPT} ${"y".repeat(2_000_000)}` }), todoConfig));
    expect(context.length).toBeLessThan(2000);
  });
});

describe("hooks/stop.js beside the todo source", () => {
  const stopInput = (root: string, reply: string) => ({
    session_id: "sess-mixed",
    cwd: root,
    hook_event_name: "Stop",
    stop_hook_active: false,
    last_assistant_message: reply,
    transcript_path: join(FIX, "transcripts", "missing.jsonl"),
  });
  it("the loop's continuation carries its own marker only", () => {
    const { root } = makeProject('---\nmax_iterations: 3\ncompletion_promise: "DONE"\n---\nGoal text\n');
    const run = runHook("stop", stopInput(root, "working"), {
      cwd: root,
      env: { CLAUDE_CONFIG_DIR: configFrom("tasks-mixed") },
    });
    expect(run.code).toBe(2);
    expect(run.stderr.startsWith(`${LOOP_MARKER}\n`)).toBe(true);
    expect(run.stderr).not.toContain(TODO_MARKER);
  });

  it("require_todos_done refuses the promise while the task list has unfinished items, without the todo marker", () => {
    const { root } = makeProject(
      '---\nmax_iterations: 3\ncompletion_promise: "DONE"\nrequire_todos_done: true\n---\nGoal text\n',
    );
    const run = runHook("stop", stopInput(root, "DONE"), {
      cwd: root,
      env: { CLAUDE_CONFIG_DIR: configFrom("tasks-mixed") },
    });
    expect(run.code).toBe(2);
    expect(run.stderr).toContain("Write the parser");
    expect(run.stderr).toContain("Update the README");
    expect(run.stderr).not.toContain(TODO_MARKER);
  });

  it("require_todos_done accepts the promise once every task is completed", () => {
    const { root, statePath } = makeProject(
      '---\nmax_iterations: 3\ncompletion_promise: "DONE"\nrequire_todos_done: true\n---\nGoal text\n',
    );
    const run = runHook(
      "stop",
      { ...stopInput(root, "DONE"), session_id: "sess-done" },
      { cwd: root, env: { CLAUDE_CONFIG_DIR: configFrom("tasks-done") } },
    );
    expect(run.code).toBe(0);
    expect(() => readFileSync(statePath)).toThrow();
  });
});

describe("hooks/hooks.json", () => {
  type Registration = {
    description?: string;
    hooks: Record<string, { matcher?: string; hooks: { type: string; command: string; timeout?: number }[] }[]>;
  };
  const registration = JSON.parse(readFileSync(join(HOOKS, "hooks.json"), "utf8")) as Registration;

  /** The bundle a command runs when node is on PATH (the guard: test/process/nodeGuard.test.ts). */
  const bundleOf = (command: string) =>
    /^command -v node >\/dev\/null && node "\$\{CLAUDE_PLUGIN_ROOT\}\/hooks\/(\w+)\.js"(?:; | \|\| )/.exec(
      command,
    )?.[1];

  it("registers Stop, UserPromptSubmit, StopFailure, Notification for permission prompts, and SessionStart/SessionEnd for a session's start and resume, compaction and /clear only", () => {
    // Only events Claude Code 2.1.197 knows: one it does not know disables every hook of the plugin.
    expect(Object.keys(registration.hooks).sort()).toEqual([
      "Notification",
      "SessionEnd",
      "SessionStart",
      "Stop",
      "StopFailure",
      "UserPromptSubmit",
    ]);
    const bundles = (event: string) =>
      registration.hooks[event]!.map((g) => [g.matcher, g.hooks.map((h) => [h.type, bundleOf(h.command)])]);
    expect(bundles("StopFailure")).toEqual([[undefined, [["command", "session"]]]]);
    expect(bundles("SessionStart")).toEqual([
      // A session's start and resume run it for the Node check; 2.1.197's `/background` starts its session
      // as a resume (src/app/backgroundHandover.ts).
      ["startup|resume", [["command", "session"]]],
      ["compact", [["command", "session"]]],
      ["clear", [["command", "session"]]],
    ]);
    expect(bundles("SessionEnd")).toEqual([["clear", [["command", "session"]]]]);
    // Not the idle prompt or other notifications: only a permission prompt concerns a loop.
    expect(bundles("Notification")).toEqual([["permission_prompt", [["command", "session"]]]]);
    expect(bundles("Stop")).toEqual([[undefined, [["command", "stop"]]]]);
    expect(bundles("UserPromptSubmit")).toEqual([[undefined, [["command", "prompt"]]]]);
  });

  it("gives the Stop hook the timeout verify_timeout is checked against, and refuses a verify_timeout that cannot fit", () => {
    expect(registration.hooks.Stop![0]!.hooks[0]!.timeout).toBe(STOP_HOOK_TIMEOUT_S);
    expect(MAX_VERIFY_TIMEOUT_S).toBeLessThan(STOP_HOOK_TIMEOUT_S);
    const { root, statePath } = makeProject('---\nmax_iterations: 5\nverify: "true"\nverify_timeout: 20m\n---\nGoal\n');
    const before = readFileSync(statePath, "utf8");
    const run = runHook("stop", { session_id: "s1", cwd: root, last_assistant_message: "x" });
    expect(run.code).toBe(0);
    expect(String(run.json?.systemMessage)).toMatch(/verify_timeout: invalid value\. Expected .*at most 14m/);
    expect(readFileSync(statePath, "utf8")).toBe(before);
  });

  it("its commands run the bundles as a shell would, with CLAUDE_PLUGIN_ROOT set", () => {
    const config = configFrom("many");
    for (const group of registration.hooks.UserPromptSubmit!) {
      for (const hook of group.hooks) {
        const out = execSync(hook.command, {
          input: JSON.stringify(input("sess-many")),
          env: { PATH: process.env.PATH, CLAUDE_PLUGIN_ROOT: join(HOOKS, ".."), CLAUDE_CONFIG_DIR: config },
          encoding: "utf8",
        });
        expect(out).toContain(TODO_MARKER);
      }
    }
    for (const event of Object.keys(registration.hooks)) {
      for (const hook of registration.hooks[event]!.flatMap((g) => g.hooks)) {
        expect(existsSync(join(HOOKS, `${bundleOf(hook.command)}.js`)), hook.command).toBe(true);
      }
    }
  });
});
