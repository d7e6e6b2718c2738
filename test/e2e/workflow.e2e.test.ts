// The GitHub Actions workflow of docs/ci/ run here, one job of its matrix as a runner would:
// its scripts install the plugin into Claude Code and run `continuation-loop run --until "npm test"`,
// against the scripted API, in a project whose test fails until Claude fixes it.
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { text, toolUse } from "./support/messagesServer.js";
import { CLAUDE_VERSIONS, cleanEnv, REPO_ROOT } from "./support/runClaude.js";
import { readWorkflow, runJob } from "./support/workflow.js";
import { perTest } from "./support/perTest.js";

const t = perTest();

const workflow = readWorkflow();
const version = CLAUDE_VERSIONS.find((v) => v.name === workflow.env?.CLAUDE_CODE_VERSION);
const goals = workflow.jobs.loop?.strategy?.matrix.goal ?? [];

/** What a checkout of continuation-loop holds that a plugin needs: the package's published files. */
function checkOutPlugin(dir: string): void {
  const pkg = JSON.parse(fs.readFileSync(path.join(REPO_ROOT, "package.json"), "utf8")) as { files: string[] };
  for (const entry of [...pkg.files, "package.json"])
    fs.cpSync(path.join(REPO_ROOT, entry), path.join(dir, entry), { recursive: true });
}

/** A project with a failing `npm test` (it passes once fixed.txt exists), committed as a checkout has it. */
function makeProject(dir: string): void {
  fs.mkdirSync(dir, { recursive: true });
  const pkg = { name: "project", version: "1.0.0", private: true, scripts: { test: "test -f fixed.txt" } };
  fs.writeFileSync(path.join(dir, "package.json"), `${JSON.stringify(pkg, null, 2)}\n`);
  const lock = { name: "project", version: "1.0.0", lockfileVersion: 3, requires: true, packages: { "": pkg } };
  fs.writeFileSync(path.join(dir, "package-lock.json"), `${JSON.stringify(lock, null, 2)}\n`);
  const git = (...args: string[]) => execFileSync("git", args, { cwd: dir, stdio: "ignore" });
  git("init", "-q");
  git("add", ".");
  git("-c", "user.name=ci", "-c", "user.email=ci@example.invalid", "commit", "-qm", "project");
}

/** A runner's folders (its workspace holding the project, HOME, a bin with the pinned Claude Code) and the job's env. */
function makeRunner() {
  const root = t.tempDir("cl-workflow-");
  const workspace = path.join(root, "work");
  const home = path.join(root, "home");
  const bin = path.join(root, "bin");
  const summary = path.join(root, "step-summary.md");
  makeProject(workspace);
  fs.mkdirSync(bin);
  // The runner's Claude Code: the release the workflow names, on PATH, so its install step finds it.
  fs.symlinkSync((version as NonNullable<typeof version>).bin, path.join(bin, "claude"));
  const env = (baseUrl: string) => ({
    ...cleanEnv({ baseUrl, home }),
    PATH: `${bin}${path.delimiter}${process.env.PATH ?? ""}`,
    CI: "true",
    GITHUB_ACTIONS: "true",
    GITHUB_WORKSPACE: workspace,
    GITHUB_STEP_SUMMARY: summary,
  });
  return { workspace, home, summary, env };
}

/** The processes whose working folder is `dir`: what a step left running there. */
function readProcessesIn(dir: string): number[] {
  return fs.readdirSync("/proc").flatMap((entry) => {
    if (!/^\d+$/.test(entry)) return [];
    try {
      return fs.readlinkSync(path.join("/proc", entry, "cwd")) === dir ? [Number(entry)] : [];
    } catch {
      return [];
    }
  });
}

describe("docs/ci/continuation-loop.yml", () => {
  it("installs a Claude Code release the tests pin", () => {
    expect(version?.name).toBe(workflow.env?.CLAUDE_CODE_VERSION);
  });

  // The matrix's jobs differ only in their goal: one job, the first, proves the steps.
  it.each(goals.slice(0, 1))("runs the job for the goal %j: the loop completes once npm test passes", async (goal) => {
    const { workspace, home, summary, env: runnerEnv } = makeRunner();
    const server = await t.server([
      text("Looking at the failing test first."),
      toolUse("Write", { file_path: path.join(workspace, "fixed.txt"), content: "fixed\n" }),
      text("Fixed: the test passes now."),
    ]);
    const env = runnerEnv(server.url);

    const results = await runJob({
      job: "loop",
      matrix: { goal },
      secrets: { ANTHROPIC_API_KEY: "test" },
      workspace,
      env,
      checkout: checkOutPlugin,
    });

    const report = results.map((r) => `${r.step.name ?? r.step.uses}: ${r.skipped ? "skipped" : r.code}\n${r.output}`);
    for (const r of results) expect(r.code, report.join("\n")).toBe(0);
    const scripts = results.filter((r) => r.step.run !== undefined);
    expect(scripts.length).toBeGreaterThanOrEqual(4);

    // Installed as a plugin: `run` does not load it a second time (one Stop record per iteration).
    const settings = JSON.parse(fs.readFileSync(path.join(home, ".claude", "settings.json"), "utf8")) as {
      enabledPlugins?: Record<string, boolean>;
    };
    expect(settings.enabledPlugins?.["continuation-loop@continuation-loop"]).toBe(true);
    const history = fs
      .readFileSync(path.join(workspace, ".claude", "continuation-loop.history.jsonl"), "utf8")
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(history.map((h) => `${String(h.iteration)}:${String(h.decision)}:${String(h.reason)}`)).toEqual([
      "1:continue:continue",
      "2:end:completed",
    ]);
    expect(history[0]?.goal).toBe(`${goal}\n`);
    expect(server.mainRequests).toHaveLength(3);

    expect(fs.readFileSync(summary, "utf8")).toContain("## Continuation loop: completed");
    const upload = results.at(-1);
    expect(upload?.output).toContain(
      "continuation-loop-report.md, continuation-loop-report.html, continuation-loop.patch",
    );
    expect(fs.readFileSync(path.join(workspace, "continuation-loop-report.md"), "utf8")).toContain(
      "## Continuation loop: completed",
    );
    expect(fs.readFileSync(path.join(workspace, "continuation-loop-report.html"), "utf8")).toContain("<svg");
    const patch = fs.readFileSync(path.join(workspace, "continuation-loop.patch"), "utf8");
    // The project's changes only: not the loop's files, the plugin's checkout or the report.
    expect(patch.split("\n").filter((line) => line.startsWith("+++ "))).toEqual(["+++ b/fixed.txt"]);
  });

  // A cancelled job, or one past timeout-minutes: the runner signals the step's shell alone (SIGINT, then SIGTERM),
  // then kills what is left. The step execs run, so run gets the signal itself.
  it("a cancelled job: run stops Claude Code, puts the report on the job summary and exits 130; the always() steps run", async () => {
    const { workspace, summary, env: runnerEnv } = makeRunner();
    let reached!: () => void;
    const second = new Promise<void>((resolve) => {
      reached = resolve;
    });
    let release!: () => void;
    const released = new Promise<void>((resolve) => {
      release = resolve;
    });
    const server = await t.server(async (_req, index) => {
      if (index === 1) {
        reached();
        await released;
      }
      return text(`Working on it, part ${index + 1}.`);
    });
    const env = runnerEnv(server.url);

    const results = await runJob({
      job: "loop",
      matrix: { goal: goals[0] as string },
      secrets: { ANTHROPIC_API_KEY: "test" },
      workspace,
      env,
      checkout: checkOutPlugin,
      cancel: { step: "Run the loop", when: second },
    });
    release();

    const step = results.find((r) => r.step.name === "Run the loop");
    expect(step?.code, step?.output).toBe(130);
    expect(step?.output).toContain("stopped by SIGINT");
    expect(readProcessesIn(workspace)).toEqual([]);
    expect(fs.readFileSync(summary, "utf8")).toContain("## Continuation loop:");
    const state = fs.readFileSync(path.join(workspace, ".claude", "continuation-loop.local.md"), "utf8");
    expect(state).toContain("iteration_count: 2");
    for (const r of results.filter((r) => r.step.if === "always()")) expect(r.skipped, r.output).toBe(false);
  });
});
