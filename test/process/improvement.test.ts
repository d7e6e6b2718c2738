// Improvement loops through the bundled hooks and CLI (docs/REFERENCE.md "Improvement loops"): the metric at
// every Stop, its target, best so far and no-improvement limit; scope and max_files_changed.
import { execFileSync } from "node:child_process";
import { readFileSync, symlinkSync, writeFileSync, mkdtempSync, mkdirSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { CRASH_SIGNS } from "../support/processes.js";
import { makeProject, readHistory as history, runHook } from "../support/runHook.js";

const git = (root: string, ...args: string[]) =>
  execFileSync("git", ["-c", "user.name=t", "-c", "user.email=t@t", ...args], { cwd: root, encoding: "utf8" });
const stop = (root: string, reply = "Still working.") =>
  runHook("stop", { session_id: "s1", cwd: root, hook_event_name: "Stop", last_assistant_message: reply });
const cli = (root: string, ...args: string[]) => runHook("cli", {}, { args, env: { CLAUDE_PROJECT_DIR: root } });
const prompt = (root: string, text: string) =>
  runHook(
    "prompt",
    { session_id: "s1", cwd: root, hook_event_name: "UserPromptSubmit", prompt: text },
    { env: { CLAUDE_PROJECT_DIR: root } },
  );
/** The metric prints the number in score.txt, after some log lines. */
const METRIC = `metric: "echo building; echo 'took 2026-11-24 3s'; cat score.txt"`;

function gitProject(fields: string, files: Record<string, string> = {}) {
  const project = makeProject(`---\nmax_iterations: 20\n${fields}\n---\nMake it better.\n`);
  writeFileSync(join(project.root, ".gitignore"), ".claude/\nbuild/\n");
  for (const [path, text] of Object.entries({ "src/a.ts": "a\n", "docs/x.md": "x\n", ...files })) {
    mkdirSync(join(project.root, path, ".."), { recursive: true });
    writeFileSync(join(project.root, path), text);
  }
  git(project.root, "init", "-q");
  git(project.root, "add", ".");
  git(project.root, "commit", "-qm", "base");
  return project;
}

describe("metric", () => {
  it("shows last, best and target; reaching the target completes without a promise; the end gives the best", () => {
    const { root, statePath, historyPath } = makeProject(
      `---\nmax_iterations: 10\n${METRIC}\nmetric_target: ">= 90"\ncompletion_promise: DONE\n---\nRaise the score.\n`,
    );
    writeFileSync(join(root, "score.txt"), "score 71.5\n");
    const first = stop(root);
    expect(first.code).toBe(2);
    expect(first.stderr).toContain(
      "Metric (`echo building; echo 'took 2026-11-24 3s'; cat score.txt`, higher is better): last 71.5 · best 71.5 at iteration 1 · target >= 90.",
    );

    writeFileSync(join(root, "score.txt"), "score 60\n");
    // The promise is refused while the target is not reached, with the figures.
    const refused = stop(root, "DONE");
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain(
      "the metric `echo building; echo 'took 2026-11-24 3s'; cat score.txt` has not reached its target: it is 60 (best 71.5 at iteration 1; target >= 90)",
    );

    writeFileSync(join(root, "score.txt"), "score: 93.25\n");
    const done = stop(root, "Working on it, no promise.");
    expect(done.code).toBe(0);
    const message = String(done.json?.systemMessage);
    expect(message).toContain("completed (the metric reached its target)");
    expect(message).toContain("Best metric 93.25 at iteration 3 (target >= 90)");
    expect(() => readFileSync(statePath)).toThrow();
    const records = history(historyPath);
    expect(records.map((r) => r.metric)).toEqual([71.5, 60, 93.25]);
    expect(records.at(-1)).toMatchObject({ decision: "end", reason: "completed", metric_best_iteration: 3 });
  });

  it("lower is better with <=; a failing, silent or grouped metric is no value and no improvement; max_no_improvement ends it", () => {
    const { root, historyPath } = makeProject(
      `---\nmax_iterations: 20\nmetric: "sh ./m.sh"\nmetric_target: "<= 100"\nmax_no_improvement: 3\nstall_limit: 0\n---\nGo faster.\n`,
    );
    const metric = (body: string) => writeFileSync(join(root, "m.sh"), body);
    metric("echo 'p50 250 ms'\n");
    expect(stop(root).stderr).toContain(
      "lower is better): last 250 · best 250 at iteration 1 · target <= 100 · 0/3 stops without improvement",
    );
    metric("echo 'p50 180 ms'\n");
    expect(stop(root).stderr).toContain("Metric 180 (best 180 at 2, target <= 100)");
    metric("echo oops >&2; exit 3\n");
    const failed = stop(root);
    expect(failed.code).toBe(2);
    // Claude is told why there is no value, in the short reminder too.
    expect(failed.stderr).toContain(
      "Metric no value: the metric exited with status 3 (oops) (best 180 at 2, target <= 100)",
    );
    metric("echo 'total 1,234'\n");
    expect(stop(root).code).toBe(2);
    const status = cli(root, "status");
    expect(status.stdout).toContain(
      "  metric: `sh ./m.sh` █[▁]×× (lower is better): last: no value — the last number (total 1,234) looks grouped by",
    );
    metric("echo 190\n");
    const end = stop(root);
    expect(end.code).toBe(0);
    expect(String(end.json?.systemMessage)).toContain("no_improvement");
    expect(String(end.json?.systemMessage)).toContain("Best metric 180 at iteration 2 (target <= 100)");
    const records = history(historyPath);
    expect(records.map((r) => r.metric)).toEqual([250, 180, null, null, 190]);
    expect(records[2]?.metric_error).toMatch(/exited with status 3 \(oops\)/);
    expect(records.at(-1)).toMatchObject({ reason: "no_improvement" });
  });

  it("a metric command changed by hand starts its figures again: the old command's best is no baseline", () => {
    const { root, statePath } = makeProject(
      `---\nmax_iterations: 20\nmetric: "echo coverage 40; echo took 1500 ms"\nmax_no_improvement: 3\nstall_limit: 0\n---\nRaise coverage.\n`,
    );
    expect(stop(root).code).toBe(2);
    expect(stop(root).code).toBe(2);
    writeFileSync(statePath, readFileSync(statePath, "utf8").replace(/^metric: .*$/m, 'metric: "cat score.txt"'));
    for (const score of ["55", "60", "61"]) {
      writeFileSync(join(root, "score.txt"), `${score}\n`);
      const run = stop(root);
      expect(run.code, String(run.json?.systemMessage)).toBe(2);
    }
    const status = cli(root, "status").stdout;
    expect(status).toMatch(/last 61 · best 61 at iteration 5 · no target · 0\/3/);
    // The sparkline draws the new command's three values only, not the old command's 40s beside them.
    expect(status).toMatch(/metric: `cat score.txt` [▁▂▃▄▅▆▇█]{2}\[[▁▂▃▄▅▆▇█]\] \(/);
  });

  it("a metric that hangs or prints megabytes is stopped and recorded, never a crash", () => {
    const { root, historyPath } = makeProject(
      `---\nmax_iterations: 5\nmetric: "sh ./m.sh"\nmetric_timeout: 2s\n---\nGo.\n`,
    );
    writeFileSync(join(root, "m.sh"), "echo 5; sleep 30\n");
    const started = Date.now();
    const hung = stop(root);
    expect(Date.now() - started).toBeLessThan(15_000);
    expect(hung.code).toBe(2);
    expect(`${hung.stdout}${hung.stderr}`).not.toMatch(CRASH_SIGNS);
    writeFileSync(join(root, "m.sh"), "yes 12345 | head -c 20000000\n");
    const flood = stop(root);
    expect(flood.code).toBe(2);
    const records = history(historyPath);
    expect(records[0]?.metric_error).toBe("the metric timed out after 2s");
    expect(records[1]?.metric_error).toMatch(/printed more than 4 MiB/);
  });

  it("restore best puts back the best iteration's checkpoint", () => {
    const { root } = gitProject(`checkpoints: true\nmetric: "cat score.txt"`, { "score.txt": "1\n" });
    for (const score of ["5", "9", "4"]) {
      writeFileSync(join(root, "score.txt"), `${score}\n`);
      expect(stop(root).code).toBe(2);
    }
    const restored = cli(root, "restore", "best");
    expect(restored.stderr).toBe("");
    expect(restored.stdout).toContain("restored the best metric's iteration (2)");
    expect(readFileSync(join(root, "score.txt"), "utf8")).toBe("9\n");
  });

  it("a state file tracked by git never runs its metric", () => {
    const { root, statePath } = gitProject('metric: "touch ran.txt; echo 1"\nmetric_target: ">= 1"');
    git(root, "add", "-f", statePath);
    const run = stop(root);
    expect(run.code).toBe(0);
    expect(String(run.json?.systemMessage)).toContain("is tracked by git");
    expect(() => readFileSync(join(root, "ran.txt"))).toThrow();
  });

  it("metric_target without a metric is refused, naming the field and its line", () => {
    const { root } = makeProject(`---\nmax_iterations: 5\nmetric_target: "> 3"\n---\nGo.\n`);
    const run = stop(root);
    expect(run.code).toBe(0);
    expect(String(run.json?.systemMessage)).toContain(
      ".claude/continuation-loop.local.md line 3: metric_target: needs a metric",
    );
  });
});

describe("scope", () => {
  it("a change outside scope pauses the loop naming the file; /loop-resume accepts the tree and the loop goes on", () => {
    const { root, statePath, historyPath } = gitProject("scope: [src]");
    writeFileSync(join(root, "src/a.ts"), "a2\n");
    writeFileSync(join(root, "src/new.ts"), "n\n");
    expect(stop(root).code).toBe(2);

    writeFileSync(join(root, "docs/x.md"), "rewritten\n");
    mkdirSync(join(root, "build"));
    writeFileSync(join(root, "build/out.js"), "ignored by .gitignore\n");
    const paused = stop(root);
    expect(paused.code).toBe(0);
    expect(paused.json?.terminalSequence).toBe("\u0007");
    expect(String(paused.json?.systemMessage)).toContain("1 file(s) changed outside scope (src): docs/x.md");
    expect(readFileSync(statePath, "utf8")).toContain("active: false");
    expect(history(historyPath).at(-1)).toMatchObject({ decision: "pause", reason: "scope", iteration: 2 });
    // Paused: the next Stop lets Claude stop.
    expect(stop(root).code).toBe(0);
    expect(cli(root, "status").stdout).toContain("paused for scope: 1 file(s) changed outside scope (src): docs/x.md");

    const resumed = prompt(root, "/loop-resume");
    expect(String(resumed.json?.systemMessage)).toContain("The working tree as it stands is accepted for scope.");
    writeFileSync(join(root, "src/a.ts"), "a3\n");
    const next = stop(root);
    expect(next.code).toBe(2);
    expect(history(historyPath).at(-1)).toMatchObject({ decision: "continue", iteration: 2 });
  });

  it("a pause for scope records no until failure: until did not run", () => {
    const { root, historyPath } = gitProject('scope: [src]\nuntil: "exit 1"');
    expect(stop(root).code).toBe(2);
    expect(history(historyPath).at(-1)).toMatchObject({
      decision: "continue",
      until_failure: "`exit 1` exited with status 1",
    });
    writeFileSync(join(root, "docs/x.md"), "rewritten\n");
    expect(stop(root).code).toBe(0);
    const paused = history(historyPath).at(-1);
    expect(paused).toMatchObject({ decision: "pause", reason: "scope" });
    expect(paused).not.toHaveProperty("until_failure");
  });

  it("more files than max_files_changed pause it, naming ten and counting the rest", () => {
    const { root } = gitProject("max_files_changed: 3\nnotify: false");
    for (let i = 0; i < 14; i++) writeFileSync(join(root, `f${String(i).padStart(2, "0")}.txt`), `${i}\n`);
    const paused = stop(root);
    expect(paused.code).toBe(0);
    expect(paused.json?.terminalSequence).toBeUndefined();
    const message = String(paused.json?.systemMessage);
    expect(message).toContain("14 files changed in one iteration, more than max_files_changed (3): f00.txt, f01.txt");
    expect(message).toContain("f09.txt and 4 more");
  });

  it("added to a running loop, it judges the iterations after the stop that first sees it, not the loop so far", () => {
    const { root, statePath } = gitProject("stall_limit: 0");
    for (let i = 0; i < 6; i++) writeFileSync(join(root, `f${i}.txt`), `${i}\n`);
    expect(stop(root).code).toBe(2);
    writeFileSync(
      statePath,
      readFileSync(statePath, "utf8").replace("max_iterations: 20", "max_iterations: 20\nmax_files_changed: 3"),
    );
    writeFileSync(join(root, "f0.txt"), "changed\n");
    expect(stop(root).code).toBe(2);
    // From here on each iteration is judged against the stop before it.
    writeFileSync(join(root, "f1.txt"), "changed\n");
    expect(stop(root).code).toBe(2);
    for (const name of ["f2.txt", "f3.txt", "f4.txt", "f5.txt"]) writeFileSync(join(root, name), "changed\n");
    const paused = stop(root);
    expect(paused.code).toBe(0);
    expect(String(paused.json?.systemMessage)).toContain("4 files changed in one iteration");
  });

  it("is refused outside git and through a symlink out of the project, with file, line and field", () => {
    const outside = makeProject(`---\nmax_iterations: 5\nscope: src\n---\nGo.\n`);
    const run = stop(outside.root);
    expect(run.code).toBe(0);
    expect(String(run.json?.systemMessage)).toContain(
      "continuation-loop.local.md line 3: scope: needs a git repository",
    );

    const { root, statePath } = gitProject("scope: [src, link/deeper]");
    const elsewhere = mkdtempSync(join(tmpdir(), "cl-out-"));
    symlinkSync(elsewhere, join(root, "link"));
    const before = readFileSync(statePath, "utf8");
    const linked = stop(root);
    expect(linked.code).toBe(0);
    expect(String(linked.json?.systemMessage)).toContain("line 3: scope: the path leaves the project");
    expect(String(linked.json?.systemMessage)).toContain('received "link/deeper"');
    expect(readFileSync(statePath, "utf8")).toBe(before);
  });

  it("/loop-start refuses scope outside git; in git, the first Stop compares with the tree as the loop started", () => {
    const outside = makeProject();
    const refused = prompt(outside.root, "/loop-start --scope src Fix the parser");
    expect(refused.json?.decision).toBe("block");
    expect(String(refused.json?.reason)).toContain("scope: needs a git repository");
    expect(() => readFileSync(outside.statePath)).toThrow();

    const { root, statePath, historyPath } = gitProject("max_iterations: 1");
    execFileSync("rm", [statePath]);
    // Work in progress outside scope before the loop starts is not the loop's doing.
    writeFileSync(join(root, "docs/x.md"), "my own draft\n");
    const started = prompt(root, "/loop-start --scope src --max-iterations 5 Fix the parser");
    expect(String(started.json?.systemMessage)).toContain("loop started");
    writeFileSync(join(root, "src/a.ts"), "fixed\n");
    expect(stop(root).code).toBe(2);
    expect(history(historyPath).at(-1)).toMatchObject({ decision: "continue", iteration: 1 });
  });

  it("doctor names a target without a metric, scope outside git, and timeouts that do not fit together", () => {
    const { root, statePath } = makeProject('---\nmax_iterations: 3\nmetric_target: ">= 3"\nscope: src\n---\nGoal\n');
    const report = cli(root, "doctor");
    expect(report.code).toBe(1);
    expect(report.stdout).toContain(
      "FAIL  .claude/continuation-loop.local.md: metric_target needs a metric command beside it",
    );
    expect(report.stdout).toContain(
      "FAIL  .claude/continuation-loop.local.md: scope: needs a git repository (git init)",
    );
    writeFileSync(
      statePath,
      "---\nmax_iterations: 3\nmetric: echo 1\nmetric_timeout: 10m\nverify: x\nverify_timeout: 10m\n---\nGoal\n",
    );
    const warned = cli(root, "doctor").stdout;
    expect(warned).toContain("ok    metric `echo 1` runs at every stop (higher is better, no target)");
    expect(warned).toContain("warn  verify_timeout and metric_timeout add up to more than 14m");
  });

  it("in a package of a monorepo, a change beside the project is outside scope; another package's loop is not", () => {
    const repo = mkdtempSync(join(tmpdir(), "cl-monorepo-"));
    const root = join(repo, "packages/api");
    const files = {
      "package.json": "{}\n",
      "packages/api/src/a.ts": "a\n",
      "packages/web/w.js": "w\n",
      "packages/web/.claude/continuation-loop.local.md": "---\nmax_iterations: 3\n---\nAnother loop.\n",
      "packages/api/.claude/continuation-loop.local.md":
        "---\nmax_iterations: 20\nscope: [src]\nnotify: false\n---\nGo.\n",
    };
    for (const [path, text] of Object.entries(files)) {
      mkdirSync(join(repo, path, ".."), { recursive: true });
      writeFileSync(join(repo, path), text);
    }
    git(repo, "init", "-q");
    git(repo, "add", "package.json", "packages/api/src", "packages/web/w.js");
    git(repo, "commit", "-qm", "base");

    writeFileSync(join(root, "src/a.ts"), "a2\n");
    // The other package's loop moves on: its files are no change of this loop's.
    writeFileSync(join(repo, "packages/web/.claude/continuation-loop.local.md"), "---\nmax_iterations: 4\n---\nOn.\n");
    expect(stop(root).code).toBe(2);

    writeFileSync(join(repo, "packages/web/w.js"), "changed beside the project\n");
    writeFileSync(join(repo, "package.json"), '{"private":true}\n');
    const paused = stop(root);
    expect(paused.code).toBe(0);
    expect(String(paused.json?.systemMessage)).toContain(
      "2 file(s) changed outside scope (src): ../../package.json, ../web/w.js",
    );
  });

  it("with checkpoints too, the checkpoint keeps the tree the scope check captured", () => {
    const { root } = gitProject("scope: src\ncheckpoints: true");
    writeFileSync(join(root, "src/a.ts"), "changed\n");
    writeFileSync(join(root, "src/untracked.ts"), "new\n");
    expect(stop(root).code).toBe(2);
    const sidecar = JSON.parse(readFileSync(join(root, ".claude/continuation-loop.runtime.json"), "utf8"));
    const checkpoint = git(root, "rev-parse", "refs/continuation-loop/default/1^{tree}").trim();
    expect(sidecar.scope_tree).toBe(checkpoint);
    expect(git(root, "ls-tree", "-r", "--name-only", checkpoint)).toContain("src/untracked.ts");
  });

  it("work inside a submodule is a change of its folder; the checkpoint keeps the submodule's commit", () => {
    const inner = mkdtempSync(join(tmpdir(), "cl-lib-"));
    git(inner, "init", "-q");
    writeFileSync(join(inner, "x.c"), "int x;\n");
    git(inner, "add", ".");
    git(inner, "commit", "-qm", "lib");
    const { root, statePath } = gitProject("scope: vendor/lib\ncheckpoints: true");
    git(root, "-c", "protocol.file.allow=always", "submodule", "add", "-q", inner, "vendor/lib");
    git(root, "commit", "-qm", "with the submodule");
    const commit = git(root, "rev-parse", "HEAD:vendor/lib").trim();
    writeFileSync(join(root, "vendor/lib/x.c"), "int y;\n");
    expect(stop(root).code).toBe(2);
    expect(git(root, "rev-parse", "refs/continuation-loop/default/1:vendor/lib").trim()).toBe(commit);
    // The superproject records only the submodule's commit: its uncommitted files are what the loop changed.
    writeFileSync(statePath, readFileSync(statePath, "utf8").replace("scope: vendor/lib", "scope: src"));
    writeFileSync(join(root, "vendor/lib/new.c"), "int n;\n");
    const paused = stop(root);
    expect(paused.code).toBe(0);
    expect(String(paused.json?.systemMessage)).toContain("1 file(s) changed outside scope (src): vendor/lib");
    // A restore puts back the superproject's files and says it leaves the submodule's as they are.
    const restored = cli(root, "restore", "1");
    expect(restored.code, restored.stderr).toBe(0);
    expect(restored.stdout).toMatch(/Submodules are left as they are.*: vendor\/lib\./);
    expect(readFileSync(join(root, "vendor/lib/new.c"), "utf8")).toBe("int n;\n");
  });
});
