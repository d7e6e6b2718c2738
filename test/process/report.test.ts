// `continuation-loop report` and /loop-report as bundled processes (README "The morning after"): the
// history the Stop hook writes, read back as Markdown, a page, or a summary in the session; and one line,
// exit 1, for a history that is missing or cannot be read.
import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { makeProject, runHook } from "../support/runHook.js";

const roots: string[] = [];
afterAll(() => {
  for (const root of roots) rmSync(root, { recursive: true, force: true });
});
const project = (state?: string) => {
  const made = makeProject(state);
  roots.push(made.root);
  return made;
};
const cli = (root: string, ...args: string[]) =>
  runHook("cli", "", { cwd: root, args: ["report", ...args], env: { CLAUDE_PROJECT_DIR: root } });
const stop = (root: string, reply: string) =>
  runHook("stop", { session_id: "s1", cwd: root, hook_event_name: "Stop", last_assistant_message: reply });
const prompt = (root: string, text: string) =>
  runHook("prompt", { session_id: "s1", cwd: root, hook_event_name: "UserPromptSubmit", prompt: text });
const readHistory = (path: string) =>
  readFileSync(path, "utf8")
    .trim()
    .split("\n")
    .map((line) => JSON.parse(line) as Record<string, unknown>);
/** The table rows of iterations: those whose first cell is a number. */
const iterationRows = (markdown: string) => markdown.split("\n").filter((line) => /^\| \d+ \|/.test(line));

const STATE =
  '---\nmax_iterations: 10\ncompletion_promise: "DONE"\nsession_id: s1\nstarted_at: "2026-11-27T01:00:00Z"\n---\n\nFix the failing tests | all of them.\n';

describe("a loop's report from the history the hooks wrote", () => {
  it("records each Stop's duration and reply line, the goal at the first record, and reports one row per iteration", () => {
    const { root, historyPath } = project(STATE);
    expect(stop(root, "Fixed the parser.\nMore details below.").code).toBe(2);
    expect(stop(root, `Now the lexer | and ${"x".repeat(300)}`).code).toBe(2);
    expect(stop(root, "All green. DONE").code).toBe(0);
    const records = readHistory(historyPath);
    expect(records.map((r) => r.decision)).toEqual(["continue", "continue", "end"]);
    expect(records[0]).toMatchObject({
      reply_line: "Fixed the parser.",
      goal: "\nFix the failing tests | all of them.\n",
    });
    expect(records[1]?.goal).toBeUndefined();
    expect(String(records[1]?.reply_line)).toHaveLength(200);
    // The first iteration ran from started_at; the others from the record before.
    expect(Number(records[0]?.duration_s)).toBeGreaterThan(60);
    expect(Number(records[1]?.duration_s)).toBeLessThan(60);
    expect(Number(records[1]?.duration_s)).toBeGreaterThanOrEqual(0);

    const run = cli(root);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr).toBe("");
    expect(run.stdout).toContain("## Continuation loop: completed");
    expect(run.stdout).toContain("> Fix the failing tests | all of them.");
    expect(run.stdout).toContain('Claude wrote the promise "DONE"');
    const rows = iterationRows(run.stdout);
    expect(rows).toHaveLength(3);
    expect(rows[1]).toContain("Now the lexer \\| and xxx");
    expect(rows[2]).toMatch(/end: completed/);
  });

  it("writes the page with --html, and /loop-report answers in the session with the command that writes it", () => {
    const { root } = project(STATE);
    stop(root, "one");
    stop(root, "two");
    const run = cli(root, "--html", "out/report.html");
    expect(run.code).toBe(1);
    expect(run.stderr.trim().split("\n")).toHaveLength(1);
    expect(run.stderr).toMatch(/out\/report\.html: --html: the page could not be written/);
    mkdirSync(join(root, "out"));
    const written = cli(root, "--html", "out/report.html");
    expect(written.code, written.stderr).toBe(0);
    expect(written.stdout).toMatch(/wrote out\/report\.html.*2 iterations, running/);
    const html = readFileSync(join(root, "out", "report.html"), "utf8");
    expect(html).toMatch(/^<!doctype html>/);
    expect(html).toContain('id="chart-tokens"');

    const answer = prompt(root, "/loop-report");
    expect(answer.code).toBe(0);
    const told = String(answer.json?.reason ?? "");
    expect(told).toMatch(/report of \.claude\/continuation-loop\.local\.md: running/);
    expect(told).toMatch(/2 iterations/);
    expect(told).toMatch(/!node \S*hooks\/cli\.js report --html loop-report\.html/);
    expect(told.split("\n").length).toBeLessThanOrEqual(5);
  });

  it("reports a loop that /loop-start --force put in place of the session's loop with its own goal and limits", () => {
    const { root, historyPath } = project(STATE);
    expect(stop(root, "one").code).toBe(2);
    expect(prompt(root, "/loop-start --force --max-iterations 4 Write the docs").code).toBe(0);
    expect(stop(root, "docs one").code).toBe(2);
    const records = readHistory(historyPath);
    expect(records.map((r) => r.decision)).toEqual(["continue", "end", "continue"]);
    expect(records[2]).toMatchObject({ goal: "Write the docs\n", fields: { max_iterations: 4 } });
    const run = cli(root);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toContain("> Write the docs");
    expect(run.stdout).toContain("**Iterations:** 1 of 4");
  });

  it("counts a loop of one iteration in the singular, from its start to its report", () => {
    const { root } = project();
    const started = prompt(root, "/loop-start --max-iterations 1 Write the docs");
    expect(started.code, started.stderr).toBe(0);
    expect(started.stdout).toMatch(/or at a limit \(1 iteration\)/);
    expect(stop(root, "Docs written.").code).toBe(0);
    expect(String(prompt(root, "/loop-report").json?.reason)).toMatch(/\n {2}1 iteration · /);
    const written = cli(root, "--html", "report.html");
    expect(written.code, written.stderr).toBe(0);
    expect(written.stdout).toMatch(/\(1 iteration, max_iterations\)/);
  });
});

describe("no report without a history", () => {
  it.each([
    ["no history", (_p: string) => undefined, /\.claude\/continuation-loop\.history\.jsonl: no history yet/],
    ["an empty one", (p: string) => writeFileSync(p, ""), /continuation-loop\.history\.jsonl: is empty/],
    [
      "one that holds no record",
      (p: string) => writeFileSync(p, Buffer.from([0x89, 0x50, 0x4e, 0x47, 10, 0, 1, 2, 10])),
      /continuation-loop\.history\.jsonl: holds no readable record/,
    ],
    ["a folder in its place", (p: string) => mkdirSync(p), /continuation-loop\.history\.jsonl: is not a regular file/],
  ])("%s: one line naming the file, exit 1, no stack trace", (_what, make, message) => {
    const { root, historyPath } = project();
    make(historyPath);
    for (const args of [[], ["--html", "page.html"], ["--name", "auth"]]) {
      const run = cli(root, ...args);
      expect(run.code).toBe(1);
      expect(run.stdout).toBe("");
      const lines = run.stderr.trim().split("\n");
      expect(lines).toHaveLength(1);
      expect(lines[0]).toMatch(/^continuation-loop: /);
      expect(lines[0]).toMatch(message);
      expect(run.stderr).not.toMatch(/\n\s+at /);
    }
    // The slash command says the same in the session, without a model turn.
    expect(String(prompt(root, "/loop-report").json?.reason)).toMatch(message);
  });

  it.each([
    [
      "one that holds no record",
      (p: string) => writeFileSync(p, "not a record\n"),
      /continuation-loop\.history\.jsonl: holds no readable record/,
    ],
    ["a folder in its place", (p: string) => mkdirSync(p), /continuation-loop\.history\.jsonl: is not a regular file/],
  ])("history and restart on %s: one line naming the file, exit 1", (_what, make, message) => {
    const { root, historyPath } = project();
    make(historyPath);
    for (const args of [["history"], ["history", "--all", "--json"], ["restart"]]) {
      const run = runHook("cli", "", { cwd: root, args, env: { CLAUDE_PROJECT_DIR: root } });
      expect(run.code, args.join(" ")).toBe(1);
      expect(run.stdout).toBe("");
      expect(run.stderr.trim().split("\n")).toHaveLength(1);
      expect(run.stderr).toMatch(message);
    }
  });

  it("history with no history, or an empty one, has no loops to list", () => {
    const { root, historyPath } = project();
    const history = () => runHook("cli", "", { cwd: root, args: ["history"], env: { CLAUDE_PROJECT_DIR: root } });
    expect(history()).toMatchObject({ code: 0, stdout: "No finished loops yet.\n" });
    writeFileSync(historyPath, "");
    expect(history()).toMatchObject({ code: 0, stdout: "No finished loops yet.\n" });
  });

  it("names a loop the history does not hold, and refuses a bad name as a usage error", () => {
    const { root } = project(STATE);
    stop(root, "one");
    const unknown = cli(root, "--name", "auth");
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toMatch(/holds no record of the loop \.claude\/continuation-loop\.auth\.local\.md/);
    const bad = cli(root, "--name", "Bad Name");
    expect(bad.code).toBe(2);
    expect(cli(root, "--nope").code).toBe(2);
  });
});
