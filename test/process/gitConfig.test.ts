// The person's own git configuration and environment (docs/REFERENCE.md "Your git configuration"): checkpoints,
// scope, the stall check and restore give the same answers whatever their ~/.gitconfig says, and never run their hooks.
import { execFileSync } from "node:child_process";
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { makeProject, readHistory, runHook } from "../support/runHook.js";

/** A HOME of the test's own, its .gitconfig `config`; the machine's own git config is never read. */
function makeHome(config: string): Record<string, string> {
  const home = mkdtempSync(join(tmpdir(), "cl-gitenv-home-"));
  writeFileSync(join(home, ".gitconfig"), config);
  return { HOME: home, GIT_CONFIG_NOSYSTEM: "1" };
}

/** A project with one commit, made with no config of the person's; its loop keeps checkpoints and has a scope. */
function makeRepo() {
  const project = makeProject(
    "---\nmax_iterations: 20\ncheckpoints: true\nstall_limit: 3\nscope: [src]\nmax_files_changed: 5\n---\nGoal\n",
  );
  const { root } = project;
  mkdirSync(join(root, "src"));
  mkdirSync(join(root, "other"));
  writeFileSync(join(root, ".gitignore"), ".claude/\n");
  writeFileSync(join(root, "src", "a.txt"), "a\n");
  writeFileSync(join(root, "other", "o.txt"), "o\n");
  git(root, {}, "init", "-q");
  git(root, {}, "add", "-A");
  git(root, {}, "commit", "-qm", "base");
  return project;
}

/** The test's own git commands: no config of anyone's, no hooks. */
const bareHome = mkdtempSync(join(tmpdir(), "cl-gitenv-bare-"));
const git = (root: string, env: Record<string, string>, ...args: string[]) =>
  execFileSync("git", ["-c", "user.name=t", "-c", "user.email=t@t", "-c", "core.hooksPath=/dev/null", ...args], {
    cwd: root,
    env: { PATH: process.env.PATH ?? "", GIT_CONFIG_NOSYSTEM: "1", HOME: bareHome, ...env },
    encoding: "utf8",
  });
const stop = (root: string, reply: string, env: Record<string, string>) =>
  runHook("stop", { session_id: "s1", cwd: root, hook_event_name: "Stop", last_assistant_message: reply }, { env });
const cli = (root: string, env: Record<string, string>, ...args: string[]) =>
  runHook("cli", {}, { args, env: { CLAUDE_PROJECT_DIR: root, ...env } });

/** Hooks of every kind git can run that log their call and exit 1. */
function makeFailingHooks(log: string): string {
  const dir = mkdtempSync(join(tmpdir(), "cl-gitenv-hooks-"));
  for (const hook of ["reference-transaction", "post-index-change", "pre-commit", "post-commit", "post-checkout"]) {
    writeFileSync(join(dir, hook), `#!/bin/sh\necho "${hook} $*" >> "${log}"\necho "${hook} says no" >&2\nexit 1\n`);
    chmodSync(join(dir, hook), 0o755);
  }
  return dir;
}

// A case runs several Stops with checkpoints, each starting many git processes: beside the rest of the process tests
// on a slow 2-core machine one passed the 15 s default. A slow machine's ceiling.
describe("the person's git config and environment", { timeout: 60_000 }, () => {
  it("checkpoints, scope and restore never run the person's git hooks, and ones that fail break nothing", () => {
    const { root, historyPath } = makeRepo();
    const log = join(root, "..", `${root.split("/").pop()}-hooks.log`);
    const hooks = makeFailingHooks(log);
    const head = git(root, {}, "rev-parse", "HEAD");
    const index = readFileSync(join(root, ".git", "index"));
    // In ~/.gitconfig, in GIT_CONFIG_GLOBAL, and as `git -c` from the environment: each reaches every git command.
    const envs = [
      makeHome(`[core]\n\thooksPath = ${hooks}\n`),
      {
        ...makeHome(""),
        GIT_CONFIG_GLOBAL: join(makeHome(`[core]\n\thooksPath = ${hooks}\n`).HOME ?? "", ".gitconfig"),
      },
      { ...makeHome(""), GIT_CONFIG_PARAMETERS: `'core.hookspath'='${hooks}'` },
    ];
    for (const [i, env] of envs.entries()) {
      writeFileSync(join(root, "src", `n${i}.txt`), `${i}\n`);
      const run = stop(root, `turn ${i}`, env);
      expect(run.code, run.stdout).toBe(2);
    }
    expect(readHistory(historyPath).map((line) => [line.decision, line.files_changed])).toEqual([
      ["continue", 1],
      ["continue", 1],
      ["continue", 1],
    ]);
    const restored = cli(root, envs[0] ?? {}, "restore", "1");
    expect(restored.code, restored.stderr).toBe(0);
    expect(existsSync(join(root, "src", "n1.txt"))).toBe(false);
    expect(existsSync(log)).toBe(false);
    expect(git(root, {}, "rev-parse", "HEAD")).toBe(head);
    expect(readFileSync(join(root, ".git", "index")).equals(index)).toBe(true);
  });

  it("pathspec switches in the environment do not change what the loop reads or restores", () => {
    const { root, historyPath } = makeRepo();
    const env = makeHome("");
    // Every pathspec the loop writes says its own magic: read literally, ':/' would be a file's name.
    writeFileSync(join(root, "src", "n1.txt"), "1\n");
    expect(stop(root, "one", { ...env, GIT_LITERAL_PATHSPECS: "1" }).code).toBe(2);
    writeFileSync(join(root, "src", "n2.txt"), "2\n");
    expect(stop(root, "two", { ...env, GIT_ICASE_PATHSPECS: "1" }).code).toBe(2);
    expect(readHistory(historyPath).map((line) => line.files_changed)).toEqual([1, 1]);
    const restored = cli(root, { ...env, GIT_GLOB_PATHSPECS: "1" }, "restore", "1");
    expect(restored.code, restored.stderr).toBe(0);
    expect(existsSync(join(root, "src", "n2.txt"))).toBe(false);
  });

  it("with GIT_TRACE=1, a git command that fails is told by git's own message, not by trace lines", () => {
    const { root } = makeRepo();
    git(root, {}, "config", "filter.strict.clean", "false");
    git(root, {}, "config", "filter.strict.required", "true");
    writeFileSync(join(root, ".gitattributes"), "*.txt filter=strict\n");
    // A new file the filter must clean: the committed ones are read again only while git holds them as racy.
    writeFileSync(join(root, "src", "new.txt"), "n\n");
    const run = stop(root, "one", { ...makeHome(""), GIT_TRACE: "1" });
    const told = String(run.json?.systemMessage);
    expect(told).toMatch(/clean filter 'strict' failed/);
    expect(told).not.toMatch(/trace:/);
  });

  it("with core.splitIndex, a checkpoint writes nothing into .git but objects and refs", () => {
    const { root } = makeRepo();
    const env = makeHome("[core]\n\tsplitIndex = true\n");
    // The person's own git splits the index: the real index names a shared index file in .git.
    writeFileSync(join(root, "src", "b.txt"), "b\n");
    git(root, { HOME: env.HOME ?? "" }, "add", "src/b.txt");
    const shared = () => readdirSync(join(root, ".git")).filter((name) => name.startsWith("sharedindex."));
    const before = shared();
    const index = readFileSync(join(root, ".git", "index"));
    expect(before).toHaveLength(1);
    for (const i of [1, 2, 3]) {
      writeFileSync(join(root, "src", `n${i}.txt`), `${i}\n`);
      expect(stop(root, `turn ${i}`, env).code).toBe(2);
    }
    expect(cli(root, env, "restore", "1").code).toBe(0);
    expect(shared()).toEqual(before);
    expect(readFileSync(join(root, ".git", "index")).equals(index)).toBe(true);
  });

  it("a project that GIT_CEILING_DIRECTORIES puts out of git's reach is a project outside git, as git says", () => {
    const top = mkdtempSync(join(tmpdir(), "cl-gitenv-ceiling-"));
    const root = join(top, "pkg");
    mkdirSync(join(root, ".claude"), { recursive: true });
    writeFileSync(join(top, ".gitignore"), ".claude/\n");
    writeFileSync(join(root, "a.txt"), "a\n");
    git(top, {}, "init", "-q");
    git(top, {}, "add", "-A");
    git(top, {}, "commit", "-qm", "base");
    writeFileSync(
      join(root, ".claude", "continuation-loop.local.md"),
      "---\nmax_iterations: 20\nstall_limit: 2\n---\nGoal\n",
    );
    const env = { ...makeHome(""), GIT_CEILING_DIRECTORIES: top, CLAUDE_PROJECT_DIR: root };
    // git finds no repository from the project: nothing can have come with one, and the stall check counts.
    const codes = ["same", "same", "same"].map((reply) => stop(root, reply, env).code);
    expect(codes).toEqual([2, 2, 0]);
    const history = readHistory(join(root, ".claude", "continuation-loop.history.jsonl"));
    expect(history.at(-1)).toMatchObject({ decision: "end", reason: "stalled" });
  });

  it("output-shaping config, signing, identity and global ignores give the answers a bare config gives", () => {
    const ignores = join(mkdtempSync(join(tmpdir(), "cl-gitenv-ignore-")), "ignore");
    writeFileSync(ignores, "*.log\n");
    const config = [
      "[color]\n\tui = always",
      "[status]\n\tshort = true\n\tbranch = true\n\tshowUntrackedFiles = no\n\trelativePaths = true",
      `[core]\n\tquotePath = true\n\tpager = false\n\texcludesFile = ${ignores}`,
      "[diff]\n\tnoprefix = true\n\texternal = false\n\tmnemonicPrefix = true",
      "[log]\n\tshowSignature = true\n[format]\n\tpretty = format:%s",
      "[commit]\n\tgpgsign = true\n[gpg]\n\tprogram = /nonexistent/gpg",
      "[user]\n\tuseConfigOnly = true\n[gc]\n\tauto = 1\n[init]\n\tdefaultBranch = trunk",
    ].join("\n");
    const answers = [makeHome(""), makeHome(`${config}\n`)].map((env) => {
      const { root, historyPath } = makeRepo();
      writeFileSync(join(root, ".gitignore"), ".claude/\n*.log\n");
      git(root, {}, "commit", "-qam", "ignore logs");
      const index = readFileSync(join(root, ".git", "index"));
      const codes: (number | null)[] = [];
      writeFileSync(join(root, "src", "n1.txt"), "1\n");
      codes.push(stop(root, "same", env).code);
      // A new untracked file is a change for the stall check, though status.showUntrackedFiles hides it.
      writeFileSync(join(root, "src", "n2.txt"), "2\n");
      codes.push(stop(root, "same", env).code);
      // An ignored file is no change, whichever ignore file says so.
      writeFileSync(join(root, "other", "debug.log"), "x\n");
      codes.push(stop(root, "same", env).code);
      codes.push(cli(root, env, "restore", "1").code);
      writeFileSync(join(root, "other", "x.txt"), "x\n");
      codes.push(stop(root, "after", env).code);
      const lines = readHistory(historyPath).map((line) => [line.decision, line.files_changed, line.limits]);
      const listed = git(root, {}, "for-each-ref", "--format=%(refname)", "refs/continuation-loop/").split("\n");
      return {
        codes,
        lines,
        checkpoints: listed.filter(Boolean).length,
        index: readFileSync(join(root, ".git", "index")).equals(index),
      };
    });
    expect(answers[0]?.codes).toEqual([2, 2, 2, 0, 0]);
    expect(answers[0]?.lines.at(-1)?.[0]).toBe("pause");
    expect(answers[1]).toEqual(answers[0]);
  });
});
