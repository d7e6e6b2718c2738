// No Node on PATH, or one too old (docs/REFERENCE.md "No Node, or an old one"): the exact commands of
// hooks/hooks.json and of an installed .claude/settings.json, run through `sh -c` as Claude Code runs
// them (dash, and bash as Git Bash is), with a PATH that has no node, or an old one first: every hook
// exits 0 with nothing on stderr, a session's start says the one line, a loop command is refused with it,
// and nothing else prints anything or touches a loop.
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { SLASH_NAMES } from "../../src/app/loopCommands.js";
import { renderNodeNeeded } from "../../src/core/nodeSupport.js";
import { makeGuardPath, OLD_NODES, oldNodeBinary } from "../support/nodePaths.js";
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

/** Every event of a table with an input that concerns a loop, and what the person is told. */
function expectQuietBut(
  table: Table,
  shell: string,
  env: Record<string, string>,
  project: string,
  line: string,
  promptCommands: string[],
): void {
  const base = { session_id: "sess-1", cwd: project, transcript_path: join(project, "t.jsonl") };
  const told = (run: Run, json: object) => {
    expect(run.stderr).toBe("");
    expect(run.code).toBe(0);
    expect(JSON.parse(run.stdout)).toEqual(json);
  };
  const silent = (run: Run, what: string) => {
    expect(run, what).toEqual({ code: 0, stdout: "", stderr: "" });
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

  describe.each(OLD_NODES)("Node $version first on PATH", ({ major, version }) => {
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
  });

  describe("a usable node on PATH", () => {
    const PATH = pathDir("good", NODE);

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
