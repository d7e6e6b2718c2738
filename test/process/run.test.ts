// `continuation-loop run` from hooks/cli.js where no Claude Code starts: usage, bad arguments (exit 2),
// Claude Code not found or no usable node for its hooks (exit 4), the loops it will not take over; and the
// reader of new history records.
import { spawn, spawnSync } from "node:child_process";
import { appendFileSync, existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeEach, describe, expect, it } from "vitest";
import type { Runtime } from "../../src/core/sidecar.js";
import { readHistorySince } from "../../src/io/history.js";
import { STEP_SUMMARY_LIMIT } from "../../src/core/fitSummary.js";
import { recordLoop, toJsonl } from "../unit/reportHistories.js";
import { renderNodeNeeded } from "../../src/core/nodeSupport.js";
import { readProcessRunning } from "../../src/io/processes.js";
import { killPid } from "../support/pids.js";
import { makeBrokenNodePath, makeGuardPath, OLD_NODES, oldNodeBinary } from "../support/nodePaths.js";
import { renderSidecarFor } from "../support/loopSidecar.js";
import { renderLoopPaths } from "../../src/core/loopFileNames.js";
import { REPO, removeTemps, runCli, tempProject } from "./support/cli.js";
import { runHook } from "../support/runHook.js";

afterAll(removeTemps);

// An executable Claude Code that none of these runs reaches: `run` stops before it starts one.
const CLAUDE = join(REPO, "node_modules", "claude-code-latest", "bin", "claude.exe");
let project: string;
const claudeDir = () => join(project, ".claude");
const state = () => join(claudeDir(), "continuation-loop.local.md");
const run = (args: string[], env: Record<string, string> = {}) =>
  runCli(["run", ...args], { cwd: project, env: { CONTINUATION_LOOP_CLAUDE: CLAUDE, ...env } });

beforeEach(() => {
  project = tempProject();
});

describe("continuation-loop run, before Claude Code starts", () => {
  it("--help lists the options and every exit code", () => {
    const r = run(["--help"]);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain("continuation-loop run [options] [loop flags] GOAL… [-- CLAUDE_ARGS…]");
    for (const code of [
      "0 completed",
      "1 ended by a limit",
      "2 bad arguments",
      "3 paused for a person",
      "4 Claude Code could not run",
    ])
      expect(r.stdout).toContain(code);
  });

  it.each([
    ["a bad loop flag", ["--max-iterations", "zero", "Fix it"], "--max-iterations: invalid value"],
    ["an unknown option", ["--nope", "Fix it"], "unknown option --nope"],
    ["a session argument for Claude Code", ["Fix it", "--", "--resume", "x"], "--resume is run's to set"],
    ["no goal and no loop", [], "there is no loop to take over"],
    ["start's --bg, which run cannot honour", ["--bg", "Fix it"], "--bg: a flag of start, not of run"],
    ["start's --worktree, which run cannot honour", ["--worktree", "auth", "Fix it"], "--worktree: a flag of start"],
    ["Claude Code's --bg", ["Fix it", "--", "--bg"], "--bg would run Claude Code where run cannot follow"],
    ["Claude Code's -w", ["Fix it", "--", "-w", "auth"], "-w would run Claude Code where run cannot follow"],
  ])("exits 2 for %s and starts no loop", (_, args, message) => {
    const r = run(args);
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr).toContain(message);
    expect(existsSync(state())).toBe(false);
  });

  it.each([
    [
      "CONTINUATION_LOOP_CLAUDE names no file",
      { CONTINUATION_LOOP_CLAUDE: join(REPO, "no-such-claude") },
      "no such file",
    ],
    ["claude is not on PATH", { CONTINUATION_LOOP_CLAUDE: "", PATH: "/nonexistent" }, "`claude` is not on PATH"],
  ])("exits 4 when %s, before any loop is started", (_, env, message) => {
    const r = run(["--until", "true", "Fix it"], env);
    expect(r.code, r.stderr).toBe(4);
    expect(r.stderr).toContain(message);
    expect(r.stderr).toContain("No loop was started");
    expect(existsSync(state())).toBe(false);
  });

  // Claude Code exits 1 at each start with these as root (docs/HEADLESS.md "Running as root").
  it
    .runIf(process.getuid?.() === 0)
    .each([["--dangerously-skip-permissions"], ["--permission-mode", "bypassPermissions"]])(
    "as root, exits 4 at once for %s after --, naming it and what to do instead; no loop is started",
    (...claudeArgs) => {
      const r = run(["--until", "true", "Fix it", "--", "--model", "x", ...claudeArgs]);
      expect(r.code, r.stderr).toBe(4);
      const lines = r.stderr.trim().split("\n");
      expect(lines).toHaveLength(1);
      expect(lines[0]).toContain(`refuses ${claudeArgs.join(" ")} when it runs as root`);
      expect(lines[0]).toContain("IS_SANDBOX=1");
      expect(lines[0]).toContain("--allowedTools");
      expect(lines[0]).toContain("No loop was started");
      expect(existsSync(state())).toBe(false);
    },
  );

  // Claude Code refuses an option it does not know before it saves any session: a restart would meet it again.
  it("exits 4 after one start when Claude Code refuses a word after --, with what it said; the loop is left in place", () => {
    const r = run(["--until", "true", "Fix it", "--", "--no-such-option-of-claude"]);
    expect(r.code, r.stderr).toBe(4);
    expect(r.stderr).not.toContain("starting it again");
    const last = r.stderr.trim().split("\n").at(-1) ?? "";
    expect(last).toContain("Claude Code could not run: it exited with");
    expect(last).toContain("--no-such-option-of-claude");
    expect(last).toContain("continuation-loop stop");
    expect(existsSync(state())).toBe(true);
  });

  it("a GOAL beside a loop left in place starts a loop of its own, and the way back to it names that loop", () => {
    mkdirSync(claudeDir(), { recursive: true });
    const left = "---\nmax_iterations: 5\nsession_id: s-old\n---\nThe loop a killed run left\n";
    writeFileSync(state(), left);
    const r = run(["Fix the parser", "--", "--no-such-option-of-claude"]);
    expect(r.code, r.stderr).toBe(4);
    const named = readdirSync(claudeDir())
      .map((f) => /^continuation-loop\.(.+)\.local\.md$/.exec(f)?.[1])
      .filter((name) => name !== undefined);
    expect(named).toHaveLength(1);
    // The first line says where the new loop is, and beside which.
    expect(r.stderr).toContain(
      `loop started in .claude/continuation-loop.${named[0]}.local.md, beside the loop in .claude/continuation-loop.local.md.`,
    );
    const last = r.stderr.trim().split("\n").at(-1) ?? "";
    expect(last).toContain(`continuation-loop run --name ${named[0]}\` (no goal) takes it over`);
    expect(last).toContain(`continuation-loop stop --name ${named[0]}\` ends it`);
    // Each command as the line gives it acts on that loop, and the other is left as it was.
    const again = run(["--name", `${named[0]}`, "--", "--no-such-option-of-claude"]);
    expect(again.code, again.stderr).toBe(4);
    expect(again.stderr).toContain(`continuation-loop.${named[0]}.local.md`);
    const stopped = runCli(["stop", "--name", `${named[0]}`], { cwd: project });
    expect(stopped.code, stopped.stderr).toBe(0);
    expect(existsSync(join(claudeDir(), `continuation-loop.${named[0]}.local.md`))).toBe(false);
    expect(readFileSync(state(), "utf8")).toBe(left);
  });

  it.each([
    ["there is no node on Claude Code's PATH", undefined, renderNodeNeeded()],
    ...OLD_NODES.map(
      ({ major, version }) => [`Node ${version} is first there`, major, renderNodeNeeded(version)] as const,
    ),
  ] as const)("exits 4 when %s (the hooks could not run), before any loop is started", (_, major, line) => {
    const PATH = makeGuardPath(join(project, "bin"), major === undefined ? undefined : oldNodeBinary(major));
    const r = run(["--until", "true", "Fix it"], { PATH });
    expect(r.code, r.stderr).toBe(4);
    expect(r.stderr).toBe(`${line} No loop was started.\n`);
    expect(existsSync(state())).toBe(false);
  });

  it("exits 4 when the node on Claude Code's PATH does not run (a shim with no version set), naming it and what it said", () => {
    const PATH = makeBrokenNodePath(join(project, "shim"), "mise");
    const r = run(["--until", "true", "Fix it"], { PATH });
    expect(r.code, r.stderr).toBe(4);
    expect(r.stderr).toBe(
      `continuation-loop: ${join(PATH, "node")} on PATH does not run (node --version exited 1: "mise ERROR No version is set for shim: node"); the hooks need Node.js 20.16 or later. No loop was started.\n`,
    );
    expect(existsSync(state())).toBe(false);
  });

  describe("without a goal: the project's loop, when it is free", () => {
    const writeLoop = (extra: string, runtime?: Partial<Runtime>, name = "default") => {
      mkdirSync(claudeDir(), { recursive: true });
      const { statePath, sidecarPath } = renderLoopPaths(`${claudeDir()}/`, name);
      const owner = { session_id: "s-old", started_at: "2026-01-01T00:00:00.000Z" };
      const text = `---\nmax_iterations: 5\nsession_id: ${owner.session_id}\nstarted_at: "${owner.started_at}"\n${extra}---\nGoal\n`;
      writeFileSync(statePath, text);
      if (runtime) writeFileSync(sidecarPath, renderSidecarFor(text, JSON.stringify({ loop: owner, ...runtime })));
    };

    it("a paused loop: exit 3 with why, and Claude Code is not started", () => {
      writeLoop("", { pause: { reason: "question", text: "Which database?", since: "2026-01-01T00:01:00.000Z" } });
      const r = run([]);
      expect(r.code, r.stderr).toBe(3);
      expect(r.stderr).toContain("paused for you at iteration 1/5: Which database?");
      expect(r.stderr).toContain("claude --resume s-old");
    });

    it("a loop whose Claude Code process still runs: exit 2, the file untouched", () => {
      writeLoop("", { owner_pid: String(process.pid) });
      const r = run([]);
      expect(r.code, r.stderr).toBe(2);
      expect(r.stderr).toContain(`still runs (pid ${process.pid})`);
    });

    it("a loop a live `continuation-loop run` drives: exit 2 naming that run; resume from a terminal needs --force", () => {
      writeLoop("", { run_pid: String(process.pid) });
      const before = readFileSync(state(), "utf8");
      const r = run([]);
      expect(r.code, r.stderr).toBe(2);
      expect(r.stderr).toContain(`driven by continuation-loop run (pid ${process.pid}), which still runs`);
      const resumed = runCli(["resume"], { cwd: project });
      expect(resumed.code, resumed.stderr).toBe(1);
      expect(resumed.stderr).toContain(`pid ${process.pid}`);
      expect(resumed.stderr).toContain("--force");
      expect(readFileSync(state(), "utf8")).toBe(before);
    });

    it("writes the report into folders it makes, paths with spaces; a job summary it cannot write is named, the exit code kept", () => {
      writeLoop("", { pause: { reason: "question", text: "Which database?", since: "2026-01-01T00:01:00.000Z" } });
      const record = {
        time: "2026-01-01T00:01:00.000Z",
        state_file: ".claude/continuation-loop.local.md",
        session: "s-old",
        iteration: 1,
        decision: "pause",
        reason: "question",
        question: "Which database?",
        goal: "Goal\n",
      };
      writeFileSync(join(claudeDir(), "continuation-loop.history.jsonl"), `${JSON.stringify(record)}\n`);
      const summary = join(project, "no such folder", "summary.md");
      const r = run(["--report", "loop reports/run 1/loop.md", "--html", "loop reports/loop.html"], {
        GITHUB_STEP_SUMMARY: summary,
      });
      expect(r.code, r.stderr).toBe(3);
      expect(readFileSync(join(project, "loop reports", "run 1", "loop.md"), "utf8")).toContain("Which database?");
      expect(readFileSync(join(project, "loop reports", "loop.html"), "utf8")).toContain("Which database?");
      expect(r.stderr).toContain(`could not be written to $GITHUB_STEP_SUMMARY (${summary}) (ENOENT)`);
      expect(existsSync(join(project, "no such folder"))).toBe(false);
    });

    it("the job summary: the whole report while the file stays within GitHub's 1024 KiB, to the byte; past it a shortened one, or none; --report stays whole", () => {
      writeLoop("", { pause: { reason: "question", text: "Which database?", since: "2026-01-01T00:01:00.000Z" } });
      const records = recordLoop({
        n: 300,
        stateFile: ".claude/continuation-loop.local.md",
        reply: (i) => `Iteration ${i}: ${"fixed the flaky assertion in test/auth/session.test.ts ".repeat(4)}`,
      });
      writeFileSync(join(claudeDir(), "continuation-loop.history.jsonl"), toJsonl(records));
      const report = join(project, "loop.md");
      const runWith = (summary: string, held: number) => {
        writeFileSync(summary, held > 0 ? `${"x".repeat(held - 1)}\n` : "");
        const r = run(["--report", "loop.md"], { GITHUB_STEP_SUMMARY: summary });
        expect(r.code, r.stderr).toBe(3);
        return { r, added: readFileSync(summary, "utf8").slice(held) };
      };
      const whole = runWith(join(project, "s0.md"), 0).added;
      expect(whole).toBe(`${readFileSync(report, "utf8")}\n`);
      const size = Buffer.byteLength(whole);

      const exact = runWith(join(project, "s1.md"), STEP_SUMMARY_LIMIT - size);
      expect(exact.added).toBe(whole);
      expect(statSync(join(project, "s1.md")).size).toBe(STEP_SUMMARY_LIMIT);

      const over = runWith(join(project, "s2.md"), STEP_SUMMARY_LIMIT - size + 1);
      expect(statSync(join(project, "s2.md")).size).toBeLessThanOrEqual(STEP_SUMMARY_LIMIT);
      expect(over.added).toMatch(/^## Continuation loop: /);
      expect(over.added).toContain("rows not shown here");
      expect(over.added).toContain("The whole report: `loop.md` (--report).");
      expect(over.added).toContain(whole.trimEnd().split("\n").at(-1));
      expect(over.r.stderr).toContain("shortened to fit GitHub's 1024 KiB");
      expect(`${readFileSync(report, "utf8")}\n`).toBe(whole);

      const full = runWith(join(project, "s3.md"), STEP_SUMMARY_LIMIT - 100);
      expect(full.added).toBe("");
      expect(full.r.stderr).toContain("the report was not added to $GITHUB_STEP_SUMMARY");
      expect(full.r.stderr).toContain("past 1024 KiB");
    });

    it("a named loop's shortened job summary names the report of that loop", () => {
      writeLoop(
        "",
        { pause: { reason: "question", text: "Which database?", since: "2026-01-01T00:01:00.000Z" } },
        "nightly",
      );
      const records = recordLoop({
        n: 300,
        stateFile: ".claude/continuation-loop.nightly.local.md",
        reply: (i) => `Iteration ${i}`,
      });
      writeFileSync(join(claudeDir(), "continuation-loop.history.jsonl"), toJsonl(records));
      const summary = join(project, "summary.md");
      writeFileSync(summary, `${"x".repeat(STEP_SUMMARY_LIMIT - 4096)}\n`);
      const r = run(["--name", "nightly"], { GITHUB_STEP_SUMMARY: summary });
      expect(r.code, r.stderr).toBe(3);
      expect(r.stderr).toContain("shortened to fit GitHub's 1024 KiB");
      expect(readFileSync(summary, "utf8")).toContain(
        "The whole report: `continuation-loop report --name nightly` where the loop ran",
      );
    });

    it("an invalid state file: exit 2 naming the file, the line and the field", () => {
      writeLoop("stall_limit: lots\n");
      const r = run([]);
      expect(r.code, r.stderr).toBe(2);
      expect(r.stderr).toContain(".claude/continuation-loop.local.md line 5: stall_limit");
    });
  });
});

describe("a Claude Code whose `run` was killed", () => {
  it("leaves a named loop where it was and says how to take it over by its name", () => {
    mkdirSync(claudeDir(), { recursive: true });
    const named = join(claudeDir(), "continuation-loop.nightly.local.md");
    const text = "---\nmax_iterations: 5\nsession_id: s1\n---\nGoal\n";
    writeFileSync(named, text);
    // The pid of a process that has ended: the `run` that started this Claude Code.
    const ended = String(spawnSync(process.execPath, ["-e", "0"]).pid);
    const stop = runHook(
      "stop",
      { session_id: "s1", cwd: project, hook_event_name: "Stop", stop_hook_active: false, last_assistant_message: "x" },
      { cwd: project, env: { CONTINUATION_LOOP_RUN_PID: ended } },
    );
    expect(stop.code, stop.stderr).toBe(0);
    expect(stop.stdout).toContain("`continuation-loop run --name nightly` with no goal takes it over");
    expect(readFileSync(named, "utf8")).toBe(text);
  });
});

describe("a Claude Code process that was killed", () => {
  it("counts as gone while it waits as a zombie for its parent to reap it", async () => {
    // The shell's background child is killed once the shell has become `sleep`, which never reaps it (killed
    // before, the shell itself might reap it).
    const parent = spawn("sh", ["-c", "sleep 30 & echo $!; exec sleep 30"], { stdio: ["ignore", "pipe", "ignore"] });
    const pid = await new Promise<number>((resolve) =>
      parent.stdout.once("data", (d: Buffer) => resolve(Number(String(d).trim()))),
    );
    const tick = () => new Promise((r) => setTimeout(r, 20));
    try {
      while (readFileSync(`/proc/${parent.pid}/comm`, "utf8").trim() !== "sleep") await tick();
      killPid(pid);
      while (!readFileSync(`/proc/${pid}/stat`, "utf8").includes(") Z ")) await tick();
      expect(() => process.kill(pid, 0)).not.toThrow();
      expect(readProcessRunning(String(pid))).toBe(false);
      expect(readProcessRunning(String(parent.pid))).toBe(true);
    } finally {
      parent.kill("SIGKILL");
    }
  });
});

describe("readHistorySince", () => {
  it("reads whole lines appended after the offset, and leaves a line being written for the next read", () => {
    const path = join(project, "history.jsonl");
    writeFileSync(path, '{"time":"a","decision":"continue"}\n');
    const start = readHistorySince(path, 0);
    expect(start.records).toHaveLength(1);
    appendFileSync(path, 'torn\n{"time":"b","decision":"end"}\n{"time":"c","deci');
    const next = readHistorySince(path, start.offset);
    expect(next.records.map((r) => r.time)).toEqual(["b"]);
    appendFileSync(path, 'sion":"pause"}\n');
    expect(readHistorySince(path, next.offset).records.map((r) => r.time)).toEqual(["c"]);
    expect(readHistorySince(join(project, "missing"), 7)).toEqual({ records: [], offset: 7 });
  });
});
