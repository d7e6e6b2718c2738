// doctor through the bundled CLI: what it checks and when it fails.
import { execFileSync } from "node:child_process";
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { BROKEN_NODES, makeBrokenNodePath, makeGuardPath, oldNodeBinary } from "../support/nodePaths.js";
import { NODE } from "../support/runHook.js";
import { removeTemps, runCli, tempProject } from "./support/cli.js";

afterAll(removeTemps);

const doctor = (root: string, env: Record<string, string> = {}) =>
  runCli(["doctor", "--project", root], { cwd: "/", env: { HOME: join(root, "home"), ...env } });
const writeState = (root: string, text: string) => {
  mkdirSync(join(root, ".claude"), { recursive: true });
  writeFileSync(join(root, ".claude/continuation-loop.local.md"), text);
};

describe("continuation-loop doctor", () => {
  it("passes on an installed project and lists what it checked", () => {
    const root = tempProject();
    runCli(["install", "--project", root], { cwd: "/" });
    const run = doctor(root);
    expect(run.code, run.stdout).toBe(0);
    expect(run.stdout).toMatch(/ok\s+node v\d+/);
    expect(run.stdout).toContain(
      `ok    Stop hook registered in .claude/settings.json → ${root}/.claude/continuation-loop/hooks/stop.js`,
    );
    expect(run.stdout).toContain("ok    UserPromptSubmit hook registered");
    expect(run.stdout).toContain(
      "ok    slash commands /loop-start, /loop-stop, /loop-pause, /loop-resume, /loop-status, /loop-report in .claude/commands",
    );
    expect(run.stdout).toContain("installed files as installed");
    expect(run.stdout).toContain("no loop is running");
    // The one warning: the default permission mode asks, and a loop left alone would wait at its prompt.
    expect(run.stdout).toMatch(/warn\s+permission mode default asks before each tool/);
    expect(run.stdout).toContain("no problems, 1 warning.");
  });

  it("says a permission mode that asks nothing is fine for a loop left alone", () => {
    const root = tempProject();
    runCli(["install", "--project", root], { cwd: "/" });
    const local = join(root, ".claude", "settings.local.json");
    writeFileSync(local, JSON.stringify({ permissions: { defaultMode: "auto" } }));
    const run = doctor(root);
    expect(run.stdout).toMatch(/ok\s+permission mode auto: a loop left alone is not stopped by a permission prompt/);
    expect(run.stdout).toContain("no problems, no warnings.");
  });

  it("names the helper by its path in every hint, never an npx command that is not published", () => {
    const root = tempProject();
    const run = doctor(root, { CLAUDECODE: "" });
    expect(run.stdout).toMatch(/otherwise run: node \S+\/hooks\/cli\.js install/);
    expect(run.stdout).toMatch(/run `!node \S+\/hooks\/cli\.js doctor` there/);
    expect(run.stdout).not.toContain("npx");
  });

  it("reports the node the hooks find on PATH, which may not be the one running it, against 20.16", () => {
    const root = tempProject();
    const line = (PATH: string) =>
      doctor(root, { PATH })
        .stdout.split("\n")
        .find((l) => l.includes("on PATH"));
    expect(line(makeGuardPath(join(root, "good"), NODE))).toMatch(
      new RegExp(
        `^  ok    node on PATH, which the hooks run: ${join(root, "good", "node")} v${process.versions.node.replace(/\./g, "\\.")} \\(needs 20\\.16 or later\\)$`,
      ),
    );
    const old = doctor(root, { PATH: makeGuardPath(join(root, "old"), oldNodeBinary(18)) });
    expect(old.code).toBe(1);
    expect(old.stdout).toContain(
      `FAIL  node on PATH (${join(root, "old", "node")}) is v18.19.0: the hooks need 20.16 or later`,
    );
    expect(line(makeGuardPath(join(root, "none")))).toMatch(/^ {2}FAIL {2}no node on PATH: the hooks cannot run/);
    // The node running doctor is said apart.
    expect(old.stdout).toContain(`ok    node v${process.versions.node} runs this command`);
  });

  it("names a node on PATH that does not run, what it said, and what to do", () => {
    const root = tempProject();
    for (const kind of ["asdf", "mise"] as const) {
      const dir = makeBrokenNodePath(join(root, kind), kind);
      const run = doctor(root, { PATH: dir });
      expect(run.code).toBe(1);
      const first = BROKEN_NODES[kind].stderr.split("\n")[0];
      expect(run.stdout).toContain(
        `FAIL  node on PATH (${join(dir, "node")}) does not run: node --version exited ${BROKEN_NODES[kind].exit}: "${first}". The hooks stay off until it runs (Claude Code says so once per session); a version manager's shim (asdf, mise, nodenv) needs a version set for this folder, or install Node.js 20.16 or later`,
      );
    }
    // A link to a node that is gone is no node, as the hooks' `command -v node` finds none.
    const gone = doctor(root, { PATH: makeBrokenNodePath(join(root, "dangling"), "dangling") });
    expect(gone.stdout).toMatch(/FAIL {2}no node on PATH: the hooks cannot run/);
    const foreign = doctor(root, { PATH: makeBrokenNodePath(join(root, "foreign"), "foreign") });
    expect(foreign.stdout).toMatch(
      new RegExp(
        `FAIL  node on PATH \\(${join(root, "foreign", "node")}\\) does not run: node --version (did not start|exited)`,
      ),
    );
  });

  it("fails when a registered hook file is missing", () => {
    const root = tempProject();
    runCli(["install", "--project", root], { cwd: "/" });
    rmSync(join(root, ".claude/continuation-loop/hooks/stop.js"));
    const run = doctor(root);
    expect(run.code).toBe(1);
    expect(run.stdout).toContain("FAIL  Stop hook in .claude/settings.json points at a missing file");
    expect(run.stdout).toContain("installed files are missing: .claude/continuation-loop/hooks/stop.js");
  });

  it("fails on an invalid state file, naming field, line and expected value", () => {
    const root = tempProject();
    writeState(root, "---\nmax_iterations: 0\n---\nGoal\n");
    const run = doctor(root);
    expect(run.code).toBe(1);
    expect(run.stdout).toContain(
      "FAIL  .claude/continuation-loop.local.md line 2: max_iterations: invalid value. Expected a whole number from 1 to 10000",
    );
    expect(run.stdout).toMatch(/^1 problem, (no|\d+) warnings?\.$/m);
  });

  it("warns of a key that reads like a field and is none, naming its line and the field meant", () => {
    const root = tempProject();
    writeState(root, "---\nmax_iterations: 5\nmax_cost_usd: 5\nowner: jane\n---\nGoal\n");
    const run = doctor(root);
    expect(run.stdout).toContain(
      "warn  .claude/continuation-loop.local.md line 3: max_cost_usd is not a field, so it does nothing. Did you mean max_cost",
    );
    expect(run.stdout).not.toContain("owner is not a field");
  });

  it.each([
    ["the default cap of 8", {}, "max_iterations 20 allows 19 more continuations, but Claude Code ends a turn after 8"],
    ["a cap set in the environment", { CLAUDE_CODE_STOP_HOOK_BLOCK_CAP: "3" }, "after 3 consecutive"],
  ])("warns about the Stop-hook block cap with %s", (_name, env, message) => {
    const root = tempProject();
    writeState(root, "---\nmax_iterations: 20\n---\nGoal\n");
    const run = doctor(root, env);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain(message);
  });

  it.each([
    ["the cap is off", "---\nmax_iterations: 20\n---\nGoal\n", { CLAUDE_CODE_STOP_HOOK_BLOCK_CAP: "0" }],
    ["the loop fits under the cap", "---\nmax_iterations: 9\n---\nGoal\n", {}],
  ])("does not warn when %s", (_name, text, env) => {
    const root = tempProject();
    writeState(root, text);
    expect(doctor(root, env).stdout).not.toContain("consecutive Stop-hook blocks");
  });

  it("does not warn of the cap inside a session where the companion module sends the continuations", () => {
    const root = tempProject();
    writeState(root, "---\nmax_iterations: 20\n---\nGoal\n");
    expect(doctor(root).stdout).toContain("With the companion module");
    expect(doctor(root, { CONTINUATION_LOOP_MODULE_LIVE: "2.1.332" }).stdout).not.toContain(
      "consecutive Stop-hook blocks",
    );
  });

  it("reads the cap from the settings' env block", () => {
    const root = tempProject();
    writeState(root, "---\nmax_iterations: 20\n---\nGoal\n");
    writeFileSync(
      join(root, ".claude/settings.json"),
      JSON.stringify({ env: { CLAUDE_CODE_STOP_HOOK_BLOCK_CAP: "0" } }),
    );
    expect(doctor(root).stdout).not.toContain("consecutive Stop-hook blocks");
  });

  it("fails when the hooks are registered twice (plugin enabled and installed)", () => {
    const root = tempProject();
    runCli(["install", "--project", root], { cwd: "/" });
    mkdirSync(join(root, "home/.claude"), { recursive: true });
    writeFileSync(
      join(root, "home/.claude/settings.json"),
      JSON.stringify({ enabledPlugins: { "continuation-loop@continuation-loop": true } }),
    );
    const run = doctor(root);
    expect(run.code).toBe(1);
    expect(run.stdout).toContain("Stop hook is registered 2 times (.claude/settings.json, the enabled plugin)");
    // Each FAIL says what to do: here, the two commands that keep one route.
    expect(run.stdout).toMatch(
      /keep one route: .*cli\.js uninstall --project \S+, or claude plugin disable continuation-loop@continuation-loop/,
    );
  });

  it("says to run install again when an installed slash command is missing", () => {
    const root = tempProject();
    runCli(["install", "--project", root], { cwd: "/" });
    rmSync(join(root, ".claude/commands/loop-stop.md"));
    const run = doctor(root);
    expect(run.code).toBe(1);
    expect(run.stdout).toMatch(
      /FAIL {2}slash commands missing from \.claude\/commands: loop-stop\.md \(run install again\)/,
    );
  });

  it("warns, without failing, when nothing is registered (the plugin route)", () => {
    const run = doctor(tempProject());
    expect(run.code).toBe(0);
    expect(run.stdout).toContain("warn  no Stop hook of continuation-loop in this project's settings");
  });

  it("fails on a malformed settings file", () => {
    const root = tempProject();
    mkdirSync(join(root, ".claude"));
    writeFileSync(join(root, ".claude/settings.json"), "{,}");
    const run = doctor(root);
    expect(run.code).toBe(1);
    expect(run.stdout).toMatch(/FAIL {2}\.claude\/settings\.json: .*not valid JSON/);
  });
});

describe("continuation-loop doctor: until", () => {
  it("says when until runs and what ends the loop, and warns when the file is tracked by git", () => {
    const root = tempProject();
    runCli(["install", "--project", root], { cwd: "/" });
    writeState(root, '---\nuntil: "npm test"\nverify: "npm run lint"\nverify_timeout: 8m\n---\nGoal\n');
    const run = doctor(root);
    expect(run.stdout).toContain(
      "ok    until `npm test` runs at every stop, within verify_timeout (480s): exit 0 completes the loop",
    );
    expect(run.stdout).toContain("ok    verify `npm run lint` runs when completion is due");
    expect(run.stdout).toMatch(/warn\s+until and verify each get verify_timeout/);
    execFileSync("git", ["init", "-q"], { cwd: root });
    execFileSync("git", ["add", "-f", ".claude/continuation-loop.local.md"], { cwd: root });
    expect(doctor(root).stdout).toMatch(
      /warn\s+\.claude\/continuation-loop\.local\.md is tracked by git, .*its until, verify and metric commands never run/,
    );
  });
});

describe("continuation-loop doctor: a state file that came with the repository", () => {
  // README "Troubleshooting": "Nothing happens when Claude stops. Run continuation-loop doctor."
  it.each([
    ["with no command", "---\nmax_iterations: 5\n---\nGoal\n"],
    ["invalid", "---\nmax_iterations: ten\n---\nGoal\n"],
  ])("says a tracked state file %s is claimed by no session, and how to make it one's own", (_name, text) => {
    const root = tempProject();
    writeState(root, text);
    execFileSync("git", ["init", "-q"], { cwd: root });
    expect(doctor(root).stdout).not.toContain("tracked by git");
    execFileSync("git", ["add", "-f", ".claude/continuation-loop.local.md"], { cwd: root });
    expect(doctor(root).stdout).toMatch(
      /warn\s+\.claude\/continuation-loop\.local\.md is tracked by git, so it came with the repository: no session claims it.*\(git rm --cached \.claude\/continuation-loop\.local\.md to make it your own\)/,
    );
  });
});
