// The helper's background commands (docs/REFERENCE.md "Leave it running") against a stand-in `claude` that answers
// as Claude Code does in the cases a test cannot reach with the real one on demand: it refuses, it is missing, it
// lists sessions. The real CLI runs them in test/e2e/backgroundSession.e2e.test.ts.
import {
  chmodSync,
  existsSync,
  mkdirSync,
  readFileSync,
  realpathSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { join } from "node:path";
import { afterAll, beforeEach, describe, expect, it } from "vitest";
import { git } from "../support/gitRepo.js";
import { removeTemps, runCli, tempProject } from "./support/cli.js";

afterAll(removeTemps);

let project: string;
const state = () => join(project, ".claude", "continuation-loop.local.md");

/** A `claude` that prints `stdout` and `stderr`, exits with `code`, and notes each call's arguments. */
function fakeClaude(opts: { stdout?: string; stderr?: string; code?: number }): {
  path: string;
  calls: () => string[];
} {
  const dir = join(project, "bin");
  mkdirSync(dir, { recursive: true });
  const path = join(dir, "claude");
  const log = join(dir, "calls.log");
  const script = [
    "#!/bin/sh",
    // One line per call: the prompt's own line breaks become spaces.
    `printf '%s' "$*" | tr '\\n' ' ' >> '${log}'`,
    `echo >> '${log}'`,
    `printf '%s' '${(opts.stdout ?? "").replace(/'/g, "'\\''")}'`,
    `printf '%s' '${(opts.stderr ?? "").replace(/'/g, "'\\''")}' >&2`,
    `exit ${opts.code ?? 0}`,
  ].join("\n");
  writeFileSync(path, `${script}\n`);
  chmodSync(path, 0o755);
  return { path, calls: () => (existsSync(log) ? readFileSync(log, "utf8").trim().split("\n") : []) };
}

beforeEach(() => {
  project = tempProject();
});

describe("continuation-loop start --bg", () => {
  it("when Claude Code refuses (a folder not trusted yet): one line with what it said, exit 1, no loop left", () => {
    const claude = fakeClaude({
      stderr: `Starting background service…\nWorkspace not trusted. Run \`claude\` in ${project} once and accept the trust prompt, then retry.\n`,
      code: 1,
    });
    const run = runCli(["start", "--bg", "Go"], { cwd: project, env: { CONTINUATION_LOOP_CLAUDE: claude.path } });
    expect(run.code).toBe(1);
    const lines = run.stderr.trim().split("\n");
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain("did not start a background session (exit 1: Workspace not trusted.");
    expect(existsSync(state())).toBe(false);
    // It was asked for a background session with the loop's first prompt, after `--`.
    const [call] = claude.calls();
    expect(call?.startsWith("--bg --plugin-dir ")).toBe(true);
    expect(call).toMatch(
      / -- \[SYSTEM REMINDER - CONTINUATION LOOP ACTIVE\] .*\(takes over from background-start-[0-9a-f]{8}\)/,
    );
  });

  it("without Claude Code: one line naming what was looked for, no loop written", () => {
    const run = runCli(["start", "--bg", "Go"], {
      cwd: project,
      env: { CONTINUATION_LOOP_CLAUDE: join(project, "nowhere", "claude") },
    });
    expect(run.code).toBe(1);
    expect(run.stderr.trim().split("\n")).toHaveLength(1);
    expect(run.stderr).toContain("Claude Code was not found (CONTINUATION_LOOP_CLAUDE=");
    expect(existsSync(state())).toBe(false);
  });

  it("passes Claude Code's own arguments after --, and refuses those that choose the session", () => {
    const claude = fakeClaude({ code: 1 });
    const env = { CONTINUATION_LOOP_CLAUDE: claude.path };
    runCli(["start", "--bg", "Go", "--", "--permission-mode", "acceptEdits"], { cwd: project, env });
    expect(claude.calls()[0]).toMatch(/ --permission-mode acceptEdits -- /);
    const refused = runCli(["start", "--bg", "Go", "--", "--resume", "abc"], { cwd: project, env });
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain("--resume is start --bg's to set");
    expect(claude.calls()).toHaveLength(1);
  });

  it("gives Claude Code the goal as text in its first prompt: escape sequences and controls dropped", () => {
    const claude = fakeClaude({ code: 1 });
    const goal = "Fix \x1b]0;PWNED\x07the \x1b[2Jbuild \u202erev";
    runCli(["start", "--bg", goal], { cwd: project, env: { CONTINUATION_LOOP_CLAUDE: claude.path } });
    const [call] = claude.calls();
    expect(call).toContain("Goal: Fix the build rev");
    expect(call).not.toMatch(/[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]/);
  });

  it("--worktree needs --bg, and a git repository", () => {
    const claude = fakeClaude({ code: 1 });
    const env = { CONTINUATION_LOOP_CLAUDE: claude.path };
    expect(runCli(["start", "--worktree", "w1", "Go"], { cwd: project, env }).stderr).toContain(
      "--worktree starts the loop in a new background session",
    );
    const outside = runCli(["start", "--bg", "--worktree", "w1", "Go"], { cwd: project, env });
    expect(outside.code).toBe(2);
    expect(outside.stderr).toContain("--worktree needs a git repository");
    expect(claude.calls()).toEqual([]);
  });

  it("--worktree when Claude Code refuses: the worktree and branch it made are taken away again", () => {
    git(project, "init", "-q");
    writeFileSync(join(project, "a.txt"), "a\n");
    git(project, "add", "a.txt");
    git(project, "commit", "-q", "-m", "one");
    const claude = fakeClaude({ stderr: "Not logged in\n", code: 1 });
    const run = runCli(["start", "--bg", "--worktree", "w1", "Go"], {
      cwd: project,
      env: { CONTINUATION_LOOP_CLAUDE: claude.path },
    });
    expect(run.code).toBe(1);
    expect(run.stderr).toContain("it was not started");
    expect(claude.calls()).toHaveLength(1);
    expect(existsSync(join(project, ".claude", "worktrees", "w1"))).toBe(false);
    expect(git(project, "worktree", "list", "--porcelain").match(/^worktree /gm)).toHaveLength(1);
    expect(git(project, "branch", "--list", "worktree-w1")).toBe("");
  });
});

describe("continuation-loop status --all", () => {
  it("names each loop's background session and Claude Code's word on it", () => {
    const session = "1a2b3c4d-0000-4000-8000-000000000001";
    mkdirSync(join(project, ".claude"), { recursive: true });
    writeFileSync(state(), `---\nmax_iterations: 5\nsession_id: "${session}"\niteration_count: 2\n---\nShip it\n`);
    const agents = [
      { id: "1a2b3c4d", sessionId: session, kind: "background", pid: 42, status: "busy", state: "working" },
    ];
    const claude = fakeClaude({ stdout: JSON.stringify(agents) });
    const run = runCli(["status", "--all"], { cwd: project, env: { CONTINUATION_LOOP_CLAUDE: claude.path } });
    expect(run.code).toBe(0);
    expect(run.stdout).toContain(
      ". : running, iteration 2/5, background session 1a2b3c4d (busy, working) — Ship it".replace(". :", ".:"),
    );
    expect(claude.calls()).toEqual(["agents --json --all"]);
  });

  it("says so when Claude Code cannot list its sessions, and still lists the loops", () => {
    mkdirSync(join(project, ".claude"), { recursive: true });
    writeFileSync(state(), "---\nmax_iterations: 5\n---\nShip it\n");
    const claude = fakeClaude({ stderr: "no", code: 1 });
    const run = runCli(["status", "--all"], { cwd: project, env: { CONTINUATION_LOOP_CLAUDE: claude.path } });
    expect(run.stdout).toContain("did not say which sessions run in the background");
    expect(run.stdout).toContain(".: running, iteration 1/5, no session yet — Ship it");
  });
  it("lists the project in each git worktree once: reached through a symlink, or as a folder of the repository", () => {
    const repo = join(project, "repo");
    mkdirSync(join(repo, "pkg"), { recursive: true });
    writeFileSync(join(repo, "pkg", "a.txt"), "a\n");
    git(repo, "init", "-q", "-b", "main");
    git(repo, "add", "-A");
    git(repo, "commit", "-qm", "base");
    const linked = join(project, "linked");
    git(repo, "worktree", "add", "-q", "-b", "feature", linked);
    const loop = (root: string, goal: string) => {
      mkdirSync(join(root, ".claude"), { recursive: true });
      writeFileSync(join(root, ".claude", "continuation-loop.local.md"), `---\nmax_iterations: 5\n---\n${goal}\n`);
    };
    loop(repo, "Top of main");
    loop(linked, "Top of linked");
    loop(join(repo, "pkg"), "Package in main");
    loop(join(linked, "pkg"), "Package in linked");
    const env = { CONTINUATION_LOOP_CLAUDE: fakeClaude({ stdout: "[]" }).path };
    const rows = (cwd: string) =>
      runCli(["status", "--all"], { cwd, env })
        .stdout.split("\n")
        .filter((line) => line.includes(" — "))
        .map((line) => line.trim());

    symlinkSync(repo, join(project, "via-link"));
    expect(rows(join(project, "via-link"))).toEqual([
      ".: running, iteration 1/5, no session yet — Top of main",
      `${realpathSync(linked)}: running, iteration 1/5, no session yet — Top of linked`,
    ]);
    expect(rows(join(repo, "pkg"))).toEqual([
      ".: running, iteration 1/5, no session yet — Package in main",
      `${join(realpathSync(linked), "pkg")}: running, iteration 1/5, no session yet — Package in linked`,
    ]);
  });

  it("names a named loop's invalid file with the status command that says why", () => {
    mkdirSync(join(project, ".claude"), { recursive: true });
    writeFileSync(state(), "---\nmax_iterations: 5\n---\nShip it\n");
    writeFileSync(
      join(project, ".claude", "continuation-loop.docs.local.md"),
      "---\nmax_iterations: lots\n---\nDocs\n",
    );
    const env = { CONTINUATION_LOOP_CLAUDE: fakeClaude({ stdout: "[]" }).path };
    const run = runCli(["status", "--all"], { cwd: project, env });
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toContain(
      "  . --name docs: the state file is not valid (continuation-loop status --name docs says why)",
    );
    const why = runCli(["status", "--name", "docs"], { cwd: project, env });
    expect(`${why.stdout}${why.stderr}`).toMatch(/continuation-loop\.docs\.local\.md.*max_iterations/s);
  });

  it("finds the loop of a worktree whose folder is named with a line break", () => {
    const repo = join(project, "repo");
    mkdirSync(repo, { recursive: true });
    writeFileSync(join(repo, "a.txt"), "a\n");
    git(repo, "init", "-q", "-b", "main");
    git(repo, "add", "-A");
    git(repo, "commit", "-qm", "base");
    const linked = join(project, "linked\nfolder");
    git(repo, "worktree", "add", "-q", "-b", "feature", linked);
    mkdirSync(join(linked, ".claude"));
    writeFileSync(
      join(linked, ".claude", "continuation-loop.local.md"),
      "---\nmax_iterations: 5\n---\nIn the linked\n",
    );
    const env = { CONTINUATION_LOOP_CLAUDE: fakeClaude({ stdout: "[]" }).path };
    const run = runCli(["status", "--all"], { cwd: repo, env });
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toContain("running, iteration 1/5, no session yet — In the linked");
  });
});

describe("continuation-loop status --all the morning after", () => {
  /**
   * A repository whose worktree `.claude/worktrees/TREE` (where `start --bg --worktree TREE` has Claude Code make it)
   * held a loop started with `startArgs` and stopped with `stopArgs`; then `status --all` from the project.
   */
  function endInWorktree(tree: string, startArgs: string[], stopArgs: string[]): string[] {
    writeFileSync(join(project, "a.txt"), "a\n");
    git(project, "init", "-q", "-b", "main");
    git(project, "add", "-A");
    git(project, "commit", "-qm", "base");
    const cwd = join(project, ".claude", "worktrees", tree);
    git(project, "worktree", "add", "-q", "-b", `worktree-${tree}`, cwd);
    expect(runCli(["start", ...startArgs], { cwd }).code).toBe(0);
    expect(runCli(["stop", ...stopArgs], { cwd }).code).toBe(0);
    const env = { CONTINUATION_LOOP_CLAUDE: fakeClaude({ stdout: "[]" }).path };
    const run = runCli(["status", "--all"], { cwd: project, env });
    expect(run.code, run.stderr).toBe(0);
    return run.stdout.trim().split("\n");
  }

  it("names the worktree whose loop has ended since, how, and the command of its report", () => {
    const lines = endInWorktree("auth", ["--template", "tdd", "Fix the login tests"], []);
    expect(lines[0]).toMatch(/no loop in this project or its worktrees runs now/);
    expect(lines.slice(1)).toEqual([
      expect.stringMatching(
        /^ {2}\.claude\/worktrees\/auth: ended \(stopped\) at iteration 1, .* — Fix the login tests; its report: continuation-loop report --project \.claude\/worktrees\/auth$/,
      ),
    ]);
    const report = runCli(["report", "--project", ".claude/worktrees/auth"], { cwd: project });
    expect(report.code, report.stderr).toBe(0);
    expect(report.stdout).toContain("> ## Goal\n> Fix the login tests");
  });

  it("names a named loop that has ended, and its report's command takes the name", () => {
    const lines = endInWorktree("docs", ["--name", "docs", "Write the guide"], ["--name", "docs"]);
    expect(lines.slice(1)).toEqual([
      expect.stringMatching(
        /^ {2}\.claude\/worktrees\/docs --name docs: ended \(stopped\) at iteration 1, .* — Write the guide; its report: continuation-loop report --project \.claude\/worktrees\/docs --name docs$/,
      ),
    ]);
    const report = runCli(["report", "--project", ".claude/worktrees/docs", "--name", "docs"], { cwd: project });
    expect(report.code, report.stderr).toBe(0);
    expect(report.stdout).toContain("\n> Write the guide\n");
    expect(report.stdout).toContain("**Loop file:** `.claude/continuation-loop.docs.local.md`");
  });
});

describe("continuation-loop resume --bg", () => {
  it("refuses a loop no session has run yet, before asking Claude Code anything", () => {
    mkdirSync(join(project, ".claude"), { recursive: true });
    writeFileSync(state(), "---\nmax_iterations: 5\n---\nShip it\n");
    const claude = fakeClaude({});
    const run = runCli(["resume", "--bg"], { cwd: project, env: { CONTINUATION_LOOP_CLAUDE: claude.path } });
    expect(run.code).toBe(1);
    expect(run.stderr).toContain("no session has run this loop yet");
    expect(claude.calls()).toEqual([]);
  });
});

describe("the permission-mode line", () => {
  it("run says in one line when Claude Code's permission mode will ask, and not when it will not", () => {
    const claude = fakeClaude({ code: 1 });
    const env = { CONTINUATION_LOOP_CLAUDE: claude.path };
    const asking = runCli(["run", "--max-restarts", "0", "Go", "--", "--permission-mode", "acceptEdits"], {
      cwd: project,
      env,
    });
    expect(asking.stderr.split("\n").filter((line) => line.includes("permission mode acceptEdits asks"))).toHaveLength(
      1,
    );
    rmSync(join(project, ".claude"), { recursive: true, force: true });
    const auto = runCli(["run", "--max-restarts", "0", "Go", "--", "--permission-mode", "auto"], { cwd: project, env });
    expect(auto.stderr).toContain("running");
    expect(auto.stderr).not.toContain("permission mode");
    // The settings' permissions.defaultMode counts when the arguments name no mode.
    rmSync(join(project, ".claude"), { recursive: true, force: true });
    mkdirSync(join(project, ".claude"), { recursive: true });
    writeFileSync(join(project, ".claude", "settings.json"), JSON.stringify({ permissions: { defaultMode: "plan" } }));
    const plan = runCli(["run", "--max-restarts", "0", "Go"], { cwd: project, env });
    expect(plan.stderr).toContain("permission mode plan asks");
  });
});
