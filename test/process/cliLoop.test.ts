// The bundled hooks/cli.js: start, status, stop, history and statusline from a terminal.
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeEach, describe, expect, it } from "vitest";
import { parseState } from "../../src/core/parseState.js";
import { runHook } from "../support/runHook.js";
import { removeTemps, runCli, tempProject } from "./support/cli.js";

afterAll(removeTemps);

let project: string;
const state = () => join(project, ".claude", "continuation-loop.local.md");
const history = () => join(project, ".claude", "continuation-loop.history.jsonl");

beforeEach(() => {
  project = tempProject();
});

describe("continuation-loop start", () => {
  it("creates a loop bound to CLAUDE_CODE_SESSION_ID, with hostile words kept literally", () => {
    const argv = [
      "--max-iterations",
      "3",
      "--completion-promise",
      "it's done",
      "Fix",
      '"the"',
      "$(touch pwned)",
      "`touch pwned2`;",
      "rm -rf /",
    ];
    const run = runCli(["start", ...argv], { cwd: project, env: { CLAUDE_CODE_SESSION_ID: "sess-1" } });
    expect(run.code).toBe(0);
    expect(run.stdout).toContain("Begin working on the goal now");
    expect(run.stderr).toContain("loop started in .claude/continuation-loop.local.md");
    expect(parseState(readFileSync(state(), "utf8"))).toMatchObject({
      max_iterations: 3,
      completion_promise: ["it's done"],
      session_id: "sess-1",
      body: 'Fix "the" $(touch pwned) `touch pwned2`; rm -rf /\n',
    });
    expect(existsSync(join(project, "pwned"))).toBe(false);
    expect(existsSync(join(project, "pwned2"))).toBe(false);
  });

  it.each([
    [
      "a bad value",
      ["start", "--max-iterations", "x", "Go"],
      2,
      "--max-iterations: invalid value. Expected a whole number from 1 to 10000",
    ],
    ["an unknown option", ["start", "--nope", "Go"], 2, "unknown option --nope"],
    ["no goal", ["start"], 2, "a goal is required"],
    [
      "an unknown template",
      ["start", "--template", "zzz", "Go"],
      1,
      'no template named "zzz". Expected one of debug, default, feature, tdd',
    ],
    ["an unknown command", ["frobnicate"], 2, 'unknown command "frobnicate"'],
    ["a name an object has", ["constructor"], 2, 'unknown command "constructor"'],
    [
      "a stray argument",
      ["status", "now"],
      2,
      'continuation-loop status: unexpected argument "now". Expected continuation-loop status [--name NAME] [--all]',
    ],
    [
      "a flag the command does not take",
      ["stop", "--force"],
      2,
      "continuation-loop stop: unknown option --force. Expected one of --name NAME, --all, --project DIR, --help.",
    ],
    ["a flag without its value", ["pause", "--name"], 2, "continuation-loop pause: --name: needs a value"],
    [
      "a value for a flag that takes none",
      ["history", "--json=1"],
      2,
      '--json: takes no value. Expected --json alone; received "1"',
    ],
    ["a flag given twice", ["status", "--all", "--all"], 2, "continuation-loop status: --all: given twice"],
    [
      "a bad loop name",
      ["resume", "--name", "../x"],
      2,
      'continuation-loop resume: --name: invalid value. Expected default, or 1 to 40 characters of a-z, 0-9 and - (e.g. --name auth-fix); received "../x"',
    ],
    ["a restart of no number", ["restart", "last"], 2, "continuation-loop restart: N: invalid value"],
    ["a restore of nothing", ["restore"], 2, "continuation-loop restore: which iteration's checkpoint to restore"],
  ])("refuses %s (%j) with exit %i and no stack trace", (_name, args, code, message) => {
    const run = runCli(args, { cwd: project });
    expect(run.code).toBe(code);
    expect(run.stderr).toContain(message);
    expect(run.stderr).not.toMatch(/\n\s+at /);
    // One line, but for start's usage card and the usage text after an unknown command.
    if (args[0] !== "start" && !message.startsWith("unknown command"))
      expect(run.stderr.trimEnd().split("\n")).toHaveLength(1);
    expect(existsSync(state())).toBe(false);
  });

  it("prints its version alone with --version, -v or version, the one in package.json", () => {
    const { version } = JSON.parse(readFileSync(join(import.meta.dirname, "..", "..", "package.json"), "utf8")) as {
      version: string;
    };
    for (const flag of ["--version", "-v", "version"])
      expect(runCli([flag], { cwd: project })).toMatchObject({ code: 0, stdout: `${version}\n`, stderr: "" });
    expect(existsSync(join(project, ".claude"))).toBe(false);
  });

  it("starts a second loop in a named file; refuses a taken name (exit 1, file untouched) unless --force", () => {
    runCli(["start", "First"], { cwd: project });
    const before = readFileSync(state(), "utf8");
    const second = runCli(["start", "Second", "goal"], { cwd: project });
    expect(second.code).toBe(0);
    expect(second.stderr).toContain(
      "loop started in .claude/continuation-loop.second-goal.local.md, beside the loop in .claude/continuation-loop.local.md.",
    );
    const refused = runCli(["start", "--name", "default", "Second"], { cwd: project });
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain(
      "a loop is already running (iteration 1/10, no session yet). Expected continuation-loop stop first, or --force",
    );
    expect(readFileSync(state(), "utf8")).toBe(before);
    // A named file's loop is stopped by its name: the refusal says how.
    expect(runCli(["start", "--name", "second-goal", "Third"], { cwd: project }).stderr).toContain(
      "Expected continuation-loop stop --name second-goal first, or --force to replace it",
    );
    expect(runCli(["start", "--name", "default", "--force", "Second"], { cwd: project }).code).toBe(0);
    expect(parseState(readFileSync(state(), "utf8")).body).toBe("Second\n");
  });

  it("prints its options with --help", () => {
    const run = runCli(["start", "--help"], { cwd: project });
    expect(run.code).toBe(0);
    expect(run.stdout).toContain("--completion-promise TEXT");
  });
});

describe("continuation-loop pause, resume, restart", () => {
  it("prints each command's flags with --help, and runs nothing", () => {
    const run = runCli(["resume", "-h"], { cwd: project });
    expect(run).toMatchObject({ code: 0, stderr: "" });
    expect(run.stdout.split("\n")[0]).toBe(
      "Usage: continuation-loop resume [--name NAME] [--force] [--bg] [--project DIR]",
    );
    expect(run.stdout).toMatch(/^ {2}--force {2,}take over a loop whose session still runs$/m);
    expect(existsSync(join(project, ".claude"))).toBe(false);
  });

  it("resumes with the line for the user on stderr and Claude's context on stdout, as start", () => {
    runCli(["start", "--max-iterations", "4", "Keep going"], { cwd: project, env: { CLAUDE_CODE_SESSION_ID: "s1" } });
    expect(runCli(["pause"], { cwd: project }).stdout).toContain("loop paused at iteration 1/4");
    const resumed = runCli(["resume"], { cwd: project, env: { CLAUDE_CODE_SESSION_ID: "s1" } });
    expect(resumed.code).toBe(0);
    expect(resumed.stderr).toContain("loop resumed at iteration 1/4");
    expect(resumed.stdout).toContain("Keep going");
    expect(parseState(readFileSync(state(), "utf8")).active).toBe(true);
  });

  it("names the next command as the person typed theirs, with a named loop's --name, and that command works", () => {
    const docs = join(project, ".claude", "continuation-loop.docs.local.md");
    const prepared = runCli(["start", "--name", "docs", "--active=false", "Write the guide"], { cwd: project });
    expect(prepared.stdout).toContain("continuation-loop resume --name docs starts it.");
    expect(prepared.stdout).toContain(", or with continuation-loop stop --name docs.");
    expect(runCli(["resume", "--name", "docs"], { cwd: project }).code).toBe(0);
    const paused = runCli(["pause", "--name", "docs"], { cwd: project });
    expect(paused.stdout).toContain("; continuation-loop resume --name docs (or active: true) resumes it.");
    expect(parseState(readFileSync(docs, "utf8")).active).toBe(false);
    expect(runCli(["resume", "--name", "docs"], { cwd: project }).code).toBe(0);
    expect(parseState(readFileSync(docs, "utf8")).active).toBe(true);
    // In a session the same commands name the slash commands, as typed (the plugin's namespaced form too).
    const slash = (prompt: string) =>
      String(
        runHook("prompt", { session_id: "s1", cwd: project, hook_event_name: "UserPromptSubmit", prompt }).json?.reason,
      );
    expect(slash("/continuation-loop:loop-pause --name docs")).toContain(
      "; /continuation-loop:loop-resume --name docs (or active: true) resumes it.",
    );
    expect(slash("/loop-start --name docs Another goal")).toContain("Expected /loop-stop --name docs first");
    // The status of the paused loop names the command that resumes it, the same way.
    expect(slash("/loop-status --name docs")).toContain("(/loop-resume --name docs or active: true resumes it)");
    expect(runCli(["status", "--name", "docs"], { cwd: project }).stdout).toContain(
      "(continuation-loop resume --name docs or active: true resumes it)",
    );
    expect(runCli(["status", "--name", "gone"], { cwd: project }).stdout).toContain(
      "start one with continuation-loop start [options] GOAL",
    );
    const none = runCli(["resume", "--name", "gone"], { cwd: project });
    expect(none).toMatchObject({ code: 1 });
    expect(none.stderr).toContain("there is no loop to resume. Expected continuation-loop start GOAL");
  });

  it("restarts the N-th most recent finished loop, flags and number in any order", () => {
    runCli(["start", "--max-iterations", "4", "First goal"], { cwd: project });
    runCli(["stop"], { cwd: project });
    runCli(["start", "--max-iterations", "6", "Second goal"], { cwd: project });
    runCli(["stop"], { cwd: project });
    const run = runCli(["restart", "--force", "2"], { cwd: project, env: { CLAUDE_CODE_SESSION_ID: "s2" } });
    expect(run.code).toBe(0);
    expect(run.stderr).toContain("loop started");
    expect(parseState(readFileSync(state(), "utf8"))).toMatchObject({ max_iterations: 4, body: "First goal\n" });
    expect(runCli(["restart", "1", "2"], { cwd: project }).stderr).toContain('unexpected argument "2"');
  });

  it("restarts a named loop under its name, and the last of a name with --name, from another folder with --project", () => {
    const named = (name: string) => join(project, `.claude/continuation-loop.${name}.local.md`);
    runCli(["start", "--name", "docs", "--max-iterations", "4", "Write the docs"], { cwd: project });
    runCli(["stop", "--name", "docs"], { cwd: project });
    runCli(["start", "--max-iterations", "6", "Fix the tests"], { cwd: project });
    runCli(["stop"], { cwd: project });
    runCli(["start", "--name", "api", "--max-iterations", "8", "Shape the API"], { cwd: project });
    runCli(["stop", "--name", "api"], { cwd: project });

    const last = runCli(["restart"], { cwd: project });
    expect(last.code).toBe(0);
    expect(parseState(readFileSync(named("api"), "utf8"))).toMatchObject({
      max_iterations: 8,
      body: "Shape the API\n",
    });
    expect(existsSync(state())).toBe(false);

    // Refused while a loop runs in that file, as any start of that name.
    const again = runCli(["restart", "--name", "api"], { cwd: project });
    expect(again.code).toBe(1);
    expect(again.stderr).toContain("a loop is already running");

    const elsewhere = tempProject();
    const docs = runCli(["restart", "--project", project, "--name", "docs"], { cwd: elsewhere });
    expect(docs.code).toBe(0);
    expect(parseState(readFileSync(named("docs"), "utf8"))).toMatchObject({
      max_iterations: 4,
      body: "Write the docs\n",
    });
    expect(existsSync(join(elsewhere, ".claude"))).toBe(false);

    const none = runCli(["restart", "--name", "web"], { cwd: project });
    expect(none.code).toBe(2);
    expect(none.stderr).toContain("0 finished loop(s) of .claude/continuation-loop.web.local.md");
    expect(none.stderr).toContain("Expected a loop that has ended, then continuation-loop restart.");
  });
});

describe("history and restart over a long history, as report reads it", () => {
  const STATE_FILE = ".claude/continuation-loop.local.md";
  const line = (record: object) => `${JSON.stringify(record)}\n`;
  const time = (i: number) => new Date(Date.UTC(2026, 10, 1) + i * 60_000).toISOString();
  const loop = (n: number, iterations: number, at: number) =>
    Array.from({ length: iterations }, (_, i) =>
      line({
        time: time(at + i),
        state_file: STATE_FILE,
        session: "s1",
        iteration: i + 1,
        decision: "continue",
        output_tokens: 1200 * i,
        limits: `iterations ${i + 1}/2000 · unchanged turns 0/3`,
        duration_s: 42.5,
        reply_line: `Loop ${n}: fixed one more of the failing tests in test/auth.test.ts, ran the suite again.`,
      }),
    ).join("") +
    line({
      time: time(at + iterations),
      state_file: STATE_FILE,
      session: "s1",
      iteration: iterations,
      decision: "end",
      reason: "max_iterations",
      goal: `Loop ${n} goal\n`,
      fields: { max_iterations: iterations },
    });
  const smallLoops = () => [1, 2, 3, 4, 5].map((n) => loop(n, 3, n * 10)).join("");
  const write = (text: string) => {
    mkdirSync(join(project, ".claude"));
    writeFileSync(history(), text);
  };
  const goals = () =>
    runCli(["history", "--json"], { cwd: project })
      .stdout.trim()
      .split("\n")
      .map((l) => (JSON.parse(l) as { goal: string }).goal.trim());

  it("lists and restarts the loops of a history longer than 512 KiB", () => {
    write(smallLoops() + loop(6, 1800, 100));
    expect(statSync(history()).size).toBeGreaterThan(600_000);
    expect(goals()).toEqual([1, 2, 3, 4, 5, 6].map((n) => `Loop ${n} goal`));
    const run = runCli(["restart", "6"], { cwd: project });
    expect(run.stderr).toContain("loop started");
    expect(parseState(readFileSync(state(), "utf8"))).toMatchObject({ max_iterations: 3, body: "Loop 1 goal\n" });
  });

  it("reads the records before a huge last line, and the line itself when it is one; a line that is none is skipped", () => {
    const huge = {
      time: time(200),
      state_file: STATE_FILE,
      decision: "end",
      reason: "stopped",
      goal: `Loop 6 goal ${"x".repeat(600_000)}\n`,
    };
    write(`${smallLoops()}{"time":"${"y".repeat(600_000)}\n${line(huge)}`);
    expect(goals().map((g) => g.slice(0, 11))).toEqual([1, 2, 3, 4, 5, 6].map((n) => `Loop ${n} goal`));
    expect(runCli(["history"], { cwd: project }).stdout).toMatch(/stopped .*Loop 6 goal x+/);
    const run = runCli(["restart", "2"], { cwd: project });
    expect(run.stderr).toContain("loop started");
    expect(parseState(readFileSync(state(), "utf8")).body).toBe("Loop 5 goal\n");
  });
});

describe("continuation-loop status, stop, history, statusline", () => {
  it("acts on another folder's loop with --project, every command that acts on a loop (a worktree's, from the project)", () => {
    runCli(["start", "--max-iterations", "5", "Ship it"], { cwd: project });
    const elsewhere = tempProject();
    const at = ["--project", project];
    expect(runCli(["pause", ...at], { cwd: elsewhere }).stdout).toContain("loop paused at iteration 1/5");
    expect(parseState(readFileSync(state(), "utf8"), "state").active).toBe(false);
    expect(JSON.parse(runCli(["view", ...at], { cwd: elsewhere }).stdout)).toMatchObject({ loop: {} });
    // Not a git repository: the refusal names the project given.
    for (const args of [["checkpoints"], ["restore", "1"]])
      expect(runCli([...args, ...at], { cwd: elsewhere }).stderr).toContain(`received ${project}.`);
    expect(runCli(["resume", ...at], { cwd: elsewhere }).stderr).toContain("loop resumed at iteration 1/5");
    expect(runCli(["stop", ...at], { cwd: elsewhere }).stdout).toContain("loop stopped by the user at iteration 1/5");
    expect(existsSync(join(elsewhere, ".claude"))).toBe(false);
  });

  it("stop and pause make no folder: a --project that does not exist is refused (exit 2), a project with no loop is left as it is", () => {
    for (const command of ["stop", "pause", "status"]) {
      const typo = runCli([command, "--project", "wt-typo/.claude/worktrees/autth"], { cwd: project });
      expect(typo, command).toMatchObject({ code: 2, stdout: "" });
      expect(typo.stderr).toBe(
        `continuation-loop ${command}: --project: the project folder does not exist. Expected an existing folder (--project DIR); received "wt-typo/.claude/worktrees/autth".\n`,
      );
    }
    expect(runCli(["stop"], { cwd: project })).toMatchObject({
      code: 0,
      stdout: expect.stringContaining("nothing to stop"),
    });
    expect(runCli(["pause"], { cwd: project })).toMatchObject({
      code: 0,
      stdout: expect.stringContaining("nothing to pause"),
    });
    const env = { CONTINUATION_LOOP_FILE: "loops/mine.md" };
    expect(runCli(["pause"], { cwd: project, env }).stdout).toContain("nothing to pause");
    expect(readdirSync(project)).toEqual([]);
    // A loop's start alone makes the folder.
    expect(runCli(["start", "Ship it"], { cwd: project, env }).code).toBe(0);
    expect(readdirSync(project)).toEqual(["loops"]);
  });

  it("reports, stops from another session, and lists the stopped loop", () => {
    runCli(["start", "--max-iterations", "5", "--max-tokens", "900", "Ship it"], {
      cwd: project,
      env: { CLAUDE_CODE_SESSION_ID: "owner-1" },
    });
    const status = runCli(["status"], { cwd: project, env: { CLAUDE_CODE_SESSION_ID: "other-2" } });
    expect(status.code).toBe(0);
    expect(status.stdout).toContain("loop running, iteration 1/5");
    expect(status.stdout).toContain("output tokens 0 of 900 (900 left)");
    expect(status.stdout).toContain("session owner-1's, not this one's");

    const line = runCli(["statusline"], {
      cwd: "/",
      input: JSON.stringify({ session_id: "owner-1", workspace: { project_dir: project } }),
    });
    expect(line.stdout).toMatch(/^⟳ loop 1\/5 · \d+s · 0\/900 tok\n$/);

    // A session that runs no loop stops another's only by its name.
    const refused = runCli(["stop"], { cwd: project, env: { CLAUDE_CODE_SESSION_ID: "other-2" } });
    expect(refused.code).toBe(1);
    expect(refused.stderr).toBe(
      "continuation-loop: .claude/continuation-loop.local.md: this session runs no loop; default is session owner-1's. Expected continuation-loop stop --name default to stop it.\n",
    );
    expect(existsSync(state())).toBe(true);
    const stop = runCli(["stop", "--name", "default"], { cwd: project, env: { CLAUDE_CODE_SESSION_ID: "other-2" } });
    expect(stop.code).toBe(0);
    expect(stop.stdout).toContain("loop stopped by the user at iteration 1/5");
    expect(existsSync(state())).toBe(false);
    const record = JSON.parse(readFileSync(history(), "utf8").trim()) as Record<string, unknown>;
    expect(record).toMatchObject({
      decision: "end",
      reason: "stopped",
      session: "owner-1",
      iteration: 1,
      goal: "Ship it\n",
    });

    const table = runCli(["history"], { cwd: project });
    expect(table.stdout.split("\n")[0]).toMatch(/^ENDED\s+REASON\s+ITER\s+TOKENS\s+SESSION\s+GOAL$/);
    expect(table.stdout).toMatch(/stopped\s+1\s+0\s+owner-1\s+Ship it/);
    expect(JSON.parse(runCli(["history", "--json"], { cwd: project }).stdout)).toMatchObject({ reason: "stopped" });

    const none = runCli(["status"], { cwd: project });
    expect(none.stdout).toContain("no loop is running");
    expect(none.stdout).toContain("last loop:");
    expect(runCli(["stop"], { cwd: project }).stdout).toContain("nothing to stop");
    expect(runCli(["statusline"], { cwd: project, input: "{}" }).stdout).toBe("");
  });

  it("follows CLAUDE_PROJECT_DIR and CONTINUATION_LOOP_FILE", () => {
    const env = { CLAUDE_PROJECT_DIR: project, CONTINUATION_LOOP_FILE: "loops/mine.md" };
    expect(runCli(["start", "Elsewhere"], { cwd: "/", env }).code).toBe(0);
    expect(existsSync(join(project, "loops", "mine.md"))).toBe(true);
    expect(runCli(["status"], { cwd: "/", env }).stdout).toContain("goal in loops/mine.md: Elsewhere");
  });

  it("exits 1 naming file, line and field when the state file is invalid", () => {
    mkdirSync(join(project, ".claude"));
    writeFileSync(state(), "---\nmax_iterations: -3\n---\nGoal\n");
    const run = runCli(["status"], { cwd: project });
    expect(run.code).toBe(1);
    expect(run.stderr).toContain(".claude/continuation-loop.local.md line 2: max_iterations: invalid value");
    expect(runCli(["statusline"], { cwd: project, input: "{}" }).stdout).toContain("state file invalid");
  });

  it("pause exits 1 when it could not pause, as stop does; /loop-pause shows the same line", () => {
    mkdirSync(join(project, ".claude"));
    const text = "---\nmax_iterations: ten\n---\nGoal\n";
    writeFileSync(state(), text);
    const run = runCli(["pause"], { cwd: project });
    expect(run).toMatchObject({ code: 1, stdout: "" });
    expect(run.stderr).toBe(
      'continuation-loop: .claude/continuation-loop.local.md line 2: max_iterations: invalid value. Expected a whole number from 1 to 10000 (e.g. max_iterations: 20); received "ten".\n',
    );
    const slash = runHook("prompt", {
      session_id: "s1",
      cwd: project,
      hook_event_name: "UserPromptSubmit",
      prompt: "/loop-pause",
    });
    expect(slash.json).toEqual({ decision: "block", reason: run.stderr.trimEnd() });
    expect(readFileSync(state(), "utf8")).toBe(text);
  });

  it("prints usage with --help (exit 0) and without a command (exit 2)", () => {
    expect(runCli(["--help"], { cwd: project })).toMatchObject({
      code: 0,
      stdout: expect.stringContaining("Exit codes:"),
    });
    expect(runCli([], { cwd: project }).code).toBe(2);
  });
});
