// No Node on PATH, one that does not run, or one too old (docs/REFERENCE.md "No Node, or an old one"): the
// exact commands of hooks/hooks.json and of an installed .claude/settings.json, run through `sh -c` as
// Claude Code runs them (dash, and bash as Git Bash is), with a PATH that has no node, a broken one, or an
// old one first: every hook exits 0 with nothing on stderr but what the broken node printed, a session's
// start says the one line, a loop command is refused with it, and nothing else prints anything or touches
// a loop. With a node that runs, the hooks' own exits (0, and the Stop's 2) and output pass through as
// they are, and a node killed by a signal never becomes a continuation.
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { SLASH_NAMES } from "../../src/app/loopCommands.js";
import { renderNodeNeeded } from "../../src/core/nodeSupport.js";
import {
  BROKEN_NODES,
  type BrokenNode,
  makeBrokenNodePath,
  makeGuardPath,
  OLD_NODES,
  oldNodeBinary,
} from "../support/nodePaths.js";
import { HOOKS, makeProject, NODE } from "../support/runHook.js";
import { removeTemps, runCli, tempProject } from "./support/cli.js";

afterAll(removeTemps);

type Table = Record<string, { matcher?: string; hooks: { command: string }[] }[]>;
const PLUGIN = (JSON.parse(readFileSync(join(HOOKS, "hooks.json"), "utf8")) as { hooks: Table }).hooks;
const SHELLS = ["/bin/sh", "bash"];
const bash = spawnSync("/bin/sh", ["-c", "command -v bash"], { encoding: "utf8" }).stdout.trim();

/** The one command of an event (and matcher) in a hook table. */
function commandOf(table: Table, event: string, matcher?: string): string {
  const group = table[event]?.find((g) => g.matcher === matcher);
  const command = group?.hooks[0]?.command;
  if (command === undefined) throw new Error(`no ${event} ${matcher ?? ""} command`);
  return command;
}

// Every slash command of the command table: a new one the guard's list in hooks.json lacks fails here.
const LOOP_COMMANDS = SLASH_NAMES.flatMap((name) => [`/loop-${name}`, `/continuation-loop:loop-${name}`]);
const OTHER_PROMPTS = ["hello", "/loop 5m check the build", "/compact", "please /loop-start later", "/help"];

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** A command string through `<shell> -c`, as Claude Code runs a hook: its PATH only, and the hook input on stdin. */
function runCommand(shell: string, command: string, input: object, env: Record<string, string>): Run {
  const run = spawnSync(shell === "bash" ? bash : shell, ["-c", command], {
    input: JSON.stringify(input),
    // A HOME of its own: bash run with a socket for stdin (as Node gives it) reads ~/.bashrc.
    env: { HOME: tmpdir(), ...env },
    encoding: "utf8",
    timeout: 30_000,
  });
  return { code: run.status, stdout: run.stdout, stderr: run.stderr };
}

/**
 * Every event of a table with an input that concerns a loop, and what the person is told. `stderr`: what a
 * node that does not run printed, which each hook passes on as it is (Claude Code shows none of it for an
 * exit 0); nothing else.
 */
function expectQuietBut(
  table: Table,
  shell: string,
  env: Record<string, string>,
  project: string,
  line: string,
  promptCommands: string[],
  stderr: string | RegExp = "",
): void {
  const base = { session_id: "sess-1", cwd: project, transcript_path: join(project, "t.jsonl") };
  const expectStderr = (run: Run, what: string) =>
    typeof stderr === "string" ? expect(run.stderr, what).toBe(stderr) : expect(run.stderr, what).toMatch(stderr);
  const told = (run: Run, json: object) => {
    expectStderr(run, JSON.stringify(json));
    expect(run.code).toBe(0);
    expect(JSON.parse(run.stdout)).toEqual(json);
  };
  const silent = (run: Run, what: string) => {
    expectStderr(run, what);
    expect({ code: run.code, stdout: run.stdout }, what).toEqual({ code: 0, stdout: "" });
  };
  for (const source of ["startup", "resume"])
    told(
      runCommand(
        shell,
        commandOf(table, "SessionStart", "startup|resume"),
        {
          ...base,
          hook_event_name: "SessionStart",
          source,
        },
        env,
      ),
      { systemMessage: line },
    );
  for (const prompt of promptCommands.flatMap((typed) => [typed, `${typed} --max-iterations 3 Fix the tests`]))
    told(
      runCommand(
        shell,
        commandOf(table, "UserPromptSubmit"),
        { ...base, hook_event_name: "UserPromptSubmit", prompt },
        env,
      ),
      { decision: "block", reason: line },
    );
  for (const prompt of OTHER_PROMPTS)
    silent(
      runCommand(
        shell,
        commandOf(table, "UserPromptSubmit"),
        { ...base, hook_event_name: "UserPromptSubmit", prompt },
        env,
      ),
      prompt,
    );
  silent(
    runCommand(shell, commandOf(table, "Stop"), { ...base, hook_event_name: "Stop", last_assistant_message: "x" }, env),
    "Stop",
  );
  for (const [event, matcher, source] of [
    ["SessionStart", "compact", "compact"],
    ["SessionStart", "clear", "clear"],
    ["SessionEnd", "clear", "clear"],
    ["StopFailure", undefined, undefined],
    ["Notification", "permission_prompt", undefined],
  ] as const)
    silent(
      runCommand(shell, commandOf(table, event, matcher), { ...base, hook_event_name: event, source, error: "x" }, env),
      `${event} ${matcher}`,
    );
}

/** A project whose loop is bound to the session the inputs name: a hook that ran would act on it. */
function projectWithLoop(): { root: string; statePath: string; before: string } {
  const text = "---\nmax_iterations: 5\nsession_id: sess-1\n---\nFix the tests\n";
  const { root, statePath } = makeProject(text);
  return { root, statePath, before: text };
}

/** The installed project's hook table (settings.json), written by `install`. */
function installedTable(): { root: string; table: Table } {
  const root = tempProject();
  const run = runCli(["install", "--project", root], { cwd: "/" });
  expect(run.code, run.stderr).toBe(0);
  writeFileSync(join(root, ".claude", "continuation-loop.local.md"), projectWithLoop().before);
  const settings = JSON.parse(readFileSync(join(root, ".claude", "settings.json"), "utf8")) as { hooks: Table };
  return { root, table: settings.hooks };
}

const pathDir = (name: string, node?: string) =>
  makeGuardPath(join(mkdtempSync(join(tmpdir(), "cl-path-")), name), node);

// Each case starts a hook process per event and command, thirty-odd in all: a slow machine's ceiling.
describe.each(SHELLS)("through %s -c", { timeout: 60_000 }, (shell) => {
  describe("no node on PATH", () => {
    const PATH = pathDir("bin");
    const line = renderNodeNeeded();

    it("the plugin's hooks exit 0 quietly; a session's start and each loop command get the one line", () => {
      const { root, statePath, before } = projectWithLoop();
      expectQuietBut(PLUGIN, shell, { PATH, CLAUDE_PLUGIN_ROOT: dirname(HOOKS) }, root, line, LOOP_COMMANDS);
      expect(readFileSync(statePath, "utf8")).toBe(before);
    });

    it("so do the commands install writes into .claude/settings.json", () => {
      const { root, table } = installedTable();
      expectQuietBut(table, shell, { PATH, CLAUDE_PROJECT_DIR: root }, root, line, LOOP_COMMANDS);
    });
  });

  // What each broken node leaves on stderr: the shim's own words; nothing for a dangling link, which the
  // guard's `command -v` does not find; the shell's one line for a program it cannot start.
  const BROKEN: [BrokenNode, string | RegExp][] = [
    ["asdf", BROKEN_NODES.asdf.stderr],
    ["mise", BROKEN_NODES.mise.stderr],
    ["dangling", ""],
    ["foreign", /^[^\n]*(Exec format error|cannot execute binary file)[^\n]*\n$/],
  ];
  describe.each(BROKEN)("a node on PATH that does not run (%s)", (kind, stderr) => {
    const PATH = makeBrokenNodePath(join(mkdtempSync(join(tmpdir(), "cl-path-")), "broken"), kind);
    const line = renderNodeNeeded();

    it("the plugin's hooks exit 0 and leave a loop alone; a session's start and each loop command get the one line", () => {
      const { root, statePath, before } = projectWithLoop();
      expectQuietBut(PLUGIN, shell, { PATH, CLAUDE_PLUGIN_ROOT: dirname(HOOKS) }, root, line, LOOP_COMMANDS, stderr);
      expect(readFileSync(statePath, "utf8")).toBe(before);
    });

    it("so do the installed commands", () => {
      const { root, table } = installedTable();
      expectQuietBut(table, shell, { PATH, CLAUDE_PROJECT_DIR: root }, root, line, LOOP_COMMANDS, stderr);
    });
  });

  describe("a usable node on PATH", () => {
    const PATH = pathDir("good", NODE);

    it("the Stop's exit 2 and its continuation pass through the shell as the bundle gave them", () => {
      const runs = [true, false].map((throughShell) => {
        const { root } = projectWithLoop();
        const input = { session_id: "sess-1", cwd: root, hook_event_name: "Stop", last_assistant_message: "Working." };
        const env = { PATH, CLAUDE_PLUGIN_ROOT: dirname(HOOKS), HOME: root };
        if (throughShell) return runCommand(shell, commandOf(PLUGIN, "Stop"), input, env);
        const run = spawnSync(NODE, [join(HOOKS, "stop.js")], { input: JSON.stringify(input), env, encoding: "utf8" });
        return { code: run.status, stdout: run.stdout, stderr: run.stderr };
      });
      expect(runs[0]!.code).toBe(2);
      expect(runs[0]!.stderr).toContain("[SYSTEM REMINDER - CONTINUATION LOOP ACTIVE]");
      expect(runs[0]).toEqual(runs[1]);
    });

    it("a Stop killed mid-save (the test-only crash point) exits 0 through the shell, never 2", () => {
      const { root, statePath, before } = projectWithLoop();
      const input = { session_id: "sess-1", cwd: root, hook_event_name: "Stop", last_assistant_message: "Working." };
      const env = {
        PATH,
        CLAUDE_PLUGIN_ROOT: dirname(HOOKS),
        HOME: root,
        CONTINUATION_LOOP_TEST_CRASH_AT: "lock-taken",
      };
      const bare = spawnSync(NODE, [join(HOOKS, "stop.js")], { input: JSON.stringify(input), env, encoding: "utf8" });
      expect(bare.signal).toBe("SIGKILL");
      const run = runCommand(shell, commandOf(PLUGIN, "Stop"), input, env);
      expect(run.code).toBe(0);
      expect(run.stdout).toBe("");
      expect(run.stderr).not.toContain("CONTINUATION LOOP");
      expect(readFileSync(statePath, "utf8")).toBe(before);
    });

    it("a node killed by a signal did run: every command exits 0 with no line and no refusal", () => {
      const killed = join(mkdtempSync(join(tmpdir(), "cl-path-")), "killed");
      makeGuardPath(killed);
      writeFileSync(join(killed, "node"), "#!/bin/sh\nkill -9 $$\n", { mode: 0o755 });
      const { root } = projectWithLoop();
      const base = { session_id: "sess-1", cwd: root, transcript_path: join(root, "t.jsonl") };
      for (const [event, matcher, extra] of [
        ["Stop", undefined, {}],
        ["SessionStart", "startup|resume", { source: "startup" }],
        ["UserPromptSubmit", undefined, { prompt: "/loop-start Fix the tests" }],
        ["SessionEnd", "clear", { source: "clear" }],
      ] as const) {
        const run = runCommand(
          shell,
          commandOf(PLUGIN, event, matcher),
          { ...base, hook_event_name: event, ...extra },
          { PATH: killed, CLAUDE_PLUGIN_ROOT: dirname(HOOKS) },
        );
        expect({ code: run.code, stdout: run.stdout }, event).toEqual({ code: 0, stdout: "" });
      }
    });

    it("runs the bundles: a session's start says nothing, and /loop-start starts the loop", () => {
      const project = tempProject();
      const base = { session_id: "sess-2", cwd: project, transcript_path: join(project, "t.jsonl") };
      const env = { PATH, CLAUDE_PLUGIN_ROOT: dirname(HOOKS), HOME: project };
      const start = runCommand(
        shell,
        commandOf(PLUGIN, "SessionStart", "startup|resume"),
        { ...base, hook_event_name: "SessionStart", source: "startup" },
        env,
      );
      expect(start).toEqual({ code: 0, stdout: "", stderr: "" });
      const run = runCommand(
        shell,
        commandOf(PLUGIN, "UserPromptSubmit"),
        { ...base, hook_event_name: "UserPromptSubmit", prompt: "/continuation-loop:loop-start Fix the tests" },
        env,
      );
      expect(run.code).toBe(0);
      expect(run.stderr).toBe("");
      expect(String((JSON.parse(run.stdout) as { systemMessage?: string }).systemMessage)).toContain("loop started");
      expect(readFileSync(join(project, ".claude", "continuation-loop.local.md"), "utf8")).toContain("Fix the tests");
    });
  });
});

// An old node runs the bundles, which print the line themselves: the shell only passes their exit and output
// on, as with a usable node, so one shell does; the guard's own text (no node, a broken one) runs in both above.
describe.each(OLD_NODES)(
  "Node $version first on PATH, through /bin/sh -c",
  { timeout: 60_000 },
  ({ major, version }) => {
    const shell = "/bin/sh";
    const PATH = pathDir("old", oldNodeBinary(major));
    const line = renderNodeNeeded(version);

    it("the plugin's hooks exit 0 quietly and leave a loop alone; a session's start and each loop command get the line with the version", () => {
      const { root, statePath, before } = projectWithLoop();
      expectQuietBut(PLUGIN, shell, { PATH, CLAUDE_PLUGIN_ROOT: dirname(HOOKS) }, root, line, LOOP_COMMANDS);
      expect(readFileSync(statePath, "utf8")).toBe(before);
    });

    it("so do the installed commands", () => {
      const { root, table } = installedTable();
      expectQuietBut(table, shell, { PATH, CLAUDE_PROJECT_DIR: root }, root, line, LOOP_COMMANDS);
      expect(readFileSync(join(root, ".claude", "continuation-loop.local.md"), "utf8")).toBe(projectWithLoop().before);
    });

    it("the helper prints the line and exits 1; `run`, whose 1 means a limit, exits 4 (Claude Code could not run)", () => {
      for (const [command, code] of [
        ["status", 1],
        ["run", 4],
      ] as const) {
        const run = spawnSync(oldNodeBinary(major), [join(HOOKS, "cli.js"), command, "Fix the tests"], {
          encoding: "utf8",
        });
        expect(run.status, command).toBe(code);
        expect(run.stdout).toBe("");
        expect(run.stderr).toBe(`${line}\n`);
      }
    });
  },
);
