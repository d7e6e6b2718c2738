// A loop left running across an update (README "Updating"): the files 0.2.0's bundles wrote mid-loop
// (test/fixtures/v0.2.0/README.md), then read and written by this version's bundles. The loop goes on from the
// iteration it was at, once, with its tallies: spend, output tokens, promise streak, unchanged turns, the metric's
// best, a question's pause, the checkpoints and the history.
import { execFileSync } from "node:child_process";
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { env as gitEnv } from "../support/gitRepo.js";
import { REPO, readHistory, runHook } from "../support/runHook.js";
import { assistant, jsonl, user } from "../support/transcriptLines.js";

const FIXTURE = join(REPO, "test", "fixtures", "v0.2.0");
/** Where 0.2.0 read the transcripts when it wrote the sidecars. */
const WRITTEN_TRANSCRIPTS = "/tmp/cl-v020-tx";
/** The Claude Code process of the loops' last Stops under 0.2.0: gone, as after a restart. */
const NEW_CLAUDE = { CLAUDE_PID: "4999998" };

let temp: string | undefined;
afterEach(() => {
  if (temp) rmSync(temp, { recursive: true, force: true });
  temp = undefined;
});

/** The project as 0.2.0 left it: its repository with the checkpoint refs, the tree at the last Stop, its files. */
function projectOf020() {
  temp = mkdtempSync(join(tmpdir(), "cl-v020-"));
  const root = join(temp, "project");
  const transcripts = join(temp, "transcripts");
  const git = (...args: string[]) => execFileSync("git", args, { cwd: root, env: gitEnv, encoding: "utf8" });
  execFileSync("git", ["clone", "-q", join(FIXTURE, "repo.bundle"), root], { env: gitEnv });
  git("fetch", "-q", join(FIXTURE, "repo.bundle"), "refs/continuation-loop/*:refs/continuation-loop/*");
  writeFileSync(join(root, "work.txt"), "v3\n");
  writeFileSync(join(root, "score.txt"), "11\n");
  cpSync(join(FIXTURE, "transcripts"), transcripts, { recursive: true });
  cpSync(join(FIXTURE, "claude"), join(root, ".claude"), { recursive: true });
  for (const name of readdirSync(join(root, ".claude")).filter((n) => n.endsWith(".runtime.json"))) {
    const path = join(root, ".claude", name);
    writeFileSync(path, readFileSync(path, "utf8").replaceAll(WRITTEN_TRANSCRIPTS, transcripts));
  }
  const hookEnv = { ...gitEnv, CLAUDE_PROJECT_DIR: root, ...NEW_CLAUDE };
  const transcript = (session: string) => join(transcripts, { s1: "tA", s2: "tB", s3: "tC" }[session] ?? "");
  const cli = (...args: string[]) => runHook("cli", "", { args, env: hookEnv, cwd: root });
  const input = (session: string) => ({ session_id: session, cwd: root, transcript_path: transcript(session) });
  return {
    root,
    git,
    cli,
    sidecar: (name: string) =>
      JSON.parse(readFileSync(join(root, ".claude", `continuation-loop${name}.runtime.json`), "utf8")),
    history: () => readHistory(join(root, ".claude", "continuation-loop.history.jsonl")),
    /** Claude's turn: its reply written to the transcript with its output tokens, then the Stop. */
    stop: (session: string, id: string, reply: string, tokens: number) => {
      writeFileSync(transcript(session), jsonl(user("go on"), assistant(id, reply, tokens)), { flag: "a" });
      return runHook(
        "stop",
        { ...input(session), hook_event_name: "Stop", stop_hook_active: false, last_assistant_message: reply },
        { env: hookEnv, cwd: root },
      );
    },
    prompt: (session: string, prompt: string) =>
      runHook(
        "prompt",
        { ...input(session), hook_event_name: "UserPromptSubmit", prompt },
        { env: hookEnv, cwd: root },
      ),
    statusline: (session: string, cost: number) =>
      runHook(
        "cli",
        { ...input(session), workspace: { project_dir: root }, cost: { total_cost_usd: cost } },
        { args: ["statusline"], env: hookEnv, cwd: root },
      ),
  };
}

describe("a loop 0.2.0 ran, read and continued by this version", () => {
  it("the spend, the output tokens, the metric's best and the promise streak go on; the second promise completes it", () => {
    const p = projectOf020();
    const status = p.cli("status");
    expect(status.code, status.stderr).toBe(0);
    expect(status.stdout).toContain("iteration 5/20");
    expect(status.stdout).toContain("cost $0.75 of $5.00");
    expect(status.stdout).toContain("output tokens 375 of 100,000");
    expect(status.stdout).toMatch(/best 12 at iteration 2/);
    // The status line's next figure counts on from 0.2.0's baseline.
    expect(p.statusline("s1", 3).stdout).toContain("$1.25/$5.00");
    const end = p.stop("s1", "a5", "DONE", 30);
    expect(end.code).toBe(0);
    expect(String(end.json?.systemMessage)).toMatch(
      /completed.*after 5\/20 iterations.*405 output tokens.*\$1\.25 spent/,
    );
    expect(p.history().at(-1)).toMatchObject({
      iteration: 5,
      decision: "end",
      reason: "completed",
      output_tokens: 405,
      cost_usd: 1.25,
      metric_best_iteration: 2,
    });
    const finished = p.cli("history");
    expect(finished.stdout).toMatch(/completed\s+5\s+405/);
    expect(p.cli("report", "--name", "default").stdout).toMatch(/Spend:\*\* \$1\.25/);
  });

  it("a loop's unchanged turns go on counting to its stall_limit", () => {
    const p = projectOf020();
    expect(p.sidecar(".c")).toMatchObject({ stall_count: 2 });
    const third = p.stop("s3", "c5", "same", 10);
    expect(third.code).toBe(2);
    expect(third.stderr).toContain("iteration 6/30");
    expect(p.sidecar(".c")).toMatchObject({ stall_count: 3, output_tokens: 50 });
    const fourth = p.stop("s3", "c6", "same", 10);
    expect(fourth.code).toBe(0);
    expect(p.history().at(-1)).toMatchObject({ iteration: 6, decision: "end", reason: "stalled", output_tokens: 60 });
  });

  it("a loop paused by Claude's question: the answer resumes it, and it goes on from its iteration with its spend", () => {
    const p = projectOf020();
    expect(p.cli("status", "--name", "b").stdout).toContain("Claude's question: Which database?");
    // What the companion module draws when a sidecar holds no view of its own: the helper's reading of it.
    const view = JSON.parse(p.cli("view", "--name", "b").stdout);
    expect(view).toMatchObject({ pause: { reason: "question", text: "Which database?" }, output_tokens: 100 });
    const answer = p.prompt("s2", "Postgres");
    expect(answer.code).toBe(0);
    expect(String(answer.json?.systemMessage)).toContain("the loop goes on");
    expect(p.statusline("s2", 1.4).stdout).toContain("$0.50/$3.00");
    const next = p.stop("s2", "b3", "step three", 70);
    expect(next.code).toBe(2);
    expect(next.stderr).toContain("iteration 3/9");
    expect(p.history().slice(-2)).toMatchObject([
      { decision: "resume", reason: "answered", iteration: 2 },
      { decision: "continue", iteration: 2, output_tokens: 170, cost_usd: 0.5 },
    ]);
  });

  it("lists 0.2.0's checkpoints and restores one", () => {
    const p = projectOf020();
    const list = p.cli("checkpoints");
    expect(list.code, list.stderr).toBe(0);
    expect(list.stdout.match(/^\s+\d+\s+\S+Z/gm)?.map((row) => Number.parseInt(row, 10))).toEqual([1, 2, 3, 4]);
    const restore = p.cli("restore", "best");
    expect(restore.code, restore.stderr).toBe(0);
    expect(readFileSync(join(p.root, "work.txt"), "utf8")).toBe("v2\n");
    expect(readFileSync(join(p.root, "score.txt"), "utf8")).toBe("12\n");
    expect(p.git("status", "--porcelain")).toBe(" M score.txt\n M work.txt\n");
  });
});
