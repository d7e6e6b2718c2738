// A full disk under a loop left running (docs/REFERENCE.md "Messages you may see"): the built hooks, fed JSON on
// stdin, with the test-only switch that makes a named write meet ENOSPC as a full disk does, to the byte
// (CONTRIBUTING.md "Test-only switches"). Nothing crashes, nothing is torn, the Stop that could not be saved is
// not counted, and the next Stop once there is space goes on from where the loop was.
import { appendFileSync, existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { CRASH_SIGNS } from "../support/processes.js";
import { makeProject, runHook } from "../support/runHook.js";

const STATE = "---\nmax_iterations: 20\nmax_tokens: 5000000\nstall_limit: 0\n---\nGoal\n";
const SHOWN = ".claude/continuation-loop.local.md";

/** A turn of Claude's in the transcript, with its output tokens. */
function addTurn(transcript: string, tokens: number): void {
  const id = `m${Math.random().toString(36).slice(2)}`;
  const content = [{ type: "text", text: "working" }];
  const line = { type: "assistant", message: { id, role: "assistant", content, usage: { output_tokens: tokens } } };
  appendFileSync(transcript, `${JSON.stringify(line)}\n`);
}

/** A loop one Stop in: its files, and a Stop that reads the transcript (the token tally lives in the sidecar). */
function runningLoop() {
  const { root, statePath, historyPath } = makeProject(STATE);
  const transcript = join(root, "transcript.jsonl");
  writeFileSync(transcript, "");
  const claude = join(root, ".claude");
  const sidecarPath = join(claude, "continuation-loop.runtime.json");
  const stop = (full?: string) =>
    runHook(
      "stop",
      {
        session_id: "s1",
        cwd: root,
        hook_event_name: "Stop",
        transcript_path: transcript,
        last_assistant_message: "x",
      },
      { env: full ? { CONTINUATION_LOOP_TEST_DISK_FULL: full } : {} },
    );
  addTurn(transcript, 5);
  expect(stop().code).toBe(2);
  /** The loop's files, byte for byte, and every other entry of `.claude/` (a temp file or lock left behind). */
  const files = () =>
    Object.fromEntries(readdirSync(claude).map((name) => [name, readFileSync(join(claude, name), "utf8")]));
  const tokens = () => (JSON.parse(readFileSync(sidecarPath, "utf8")) as { output_tokens: number }).output_tokens;
  return { root, statePath, historyPath, transcript, sidecarPath, stop, files, tokens };
}

const told = (run: { stdout: string }) =>
  String((JSON.parse(run.stdout || "{}") as { systemMessage?: string }).systemMessage ?? "");

describe("a full disk at a Stop", () => {
  it.each([
    ["the lock", "lock:0", `cannot create ${SHOWN}.lock (ENOSPC)`],
    ["the lock, part written", "lock:3", `cannot create ${SHOWN}.lock (ENOSPC)`],
    ["the state file", "state:0", `${SHOWN} could not be saved (ENOSPC)`],
    ["the state file, part written", "state:20", `${SHOWN} could not be saved (ENOSPC)`],
  ])("%s: exit 0, said in one line, nothing changed or left behind; the next Stop counts once", (_what, full, says) => {
    const loop = runningLoop();
    addTurn(loop.transcript, 7);
    const before = loop.files();

    const run = loop.stop(full);
    expect(run.code).toBe(0);
    expect(run.stderr).toBe("");
    expect(`${run.stdout}${run.stderr}`).not.toMatch(CRASH_SIGNS);
    expect(told(run)).toContain(says);
    expect(told(run)).toContain("no space left on the disk");
    expect(told(run)).toContain("this Stop was not counted");
    expect(loop.files()).toEqual(before);

    // Space again: this Stop is the second, its turn's tokens counted once.
    const next = loop.stop();
    expect(next.code).toBe(2);
    expect(readFileSync(loop.statePath, "utf8")).toContain("\niteration_count: 3\n");
    expect(loop.tokens()).toBe(12);
  });

  it.each([
    ["no byte", "sidecar:0"],
    ["a few bytes", "sidecar:4"],
  ])("a sidecar that grows and meets %s of space: kept whole as it was, the tallies carried", (_what, full) => {
    const loop = runningLoop();
    // Enough output tokens that the sidecar's tally takes more digits: it grows.
    addTurn(loop.transcript, 99_995);
    const sidecar = readFileSync(loop.sidecarPath, "utf8");

    const run = loop.stop(full);
    // The state file was saved: the loop goes on, one iteration on.
    expect(run.code).toBe(2);
    expect(`${run.stdout}${run.stderr}`).not.toMatch(CRASH_SIGNS);
    expect(readFileSync(loop.statePath, "utf8")).toContain("\niteration_count: 3\n");
    expect(readFileSync(loop.sidecarPath, "utf8")).toBe(sidecar);
    expect(readdirSync(join(loop.root, ".claude")).filter((name) => name.endsWith(".tmp"))).toEqual([]);

    // Space again: nothing was torn, so nothing is said, and no token is lost or counted twice.
    addTurn(loop.transcript, 5);
    const next = loop.stop();
    expect(next.code).toBe(2);
    expect(next.stdout).toBe("");
    expect(existsSync(`${loop.sidecarPath}.torn`)).toBe(false);
    expect(loop.tokens()).toBe(100_005);
  });

  it("the history append cut short: the loop goes on, and the next record starts a line of its own", () => {
    const loop = runningLoop();
    addTurn(loop.transcript, 7);
    const run = loop.stop("history:40");
    expect(run.code).toBe(2);
    expect(`${run.stdout}${run.stderr}`).not.toMatch(CRASH_SIGNS);
    expect(readFileSync(loop.historyPath, "utf8").endsWith("\n")).toBe(false);

    const next = loop.stop();
    expect(next.code).toBe(2);
    const lines = readFileSync(loop.historyPath, "utf8").split("\n");
    expect(lines.at(-1)).toBe("");
    const whole = lines.slice(0, -1).flatMap((line) => {
      try {
        return [JSON.parse(line) as { iteration: number }];
      } catch {
        return [];
      }
    });
    // The cut record is the only one missing; the rest parse.
    expect(whole.map((record) => record.iteration)).toEqual([1, 3]);
    expect(lines.length - 1).toBe(3);
  });
});

describe("a full disk under the helper and the prompt hook", () => {
  it.each([
    ["lock:0", `cannot create ${SHOWN}.lock (ENOSPC)`],
    ["state:10", `${SHOWN} could not be saved (ENOSPC)`],
  ])("start with %s: exit 1, one line naming the file, nothing left in .claude/", (full, says) => {
    const { root } = makeProject();
    const run = runHook("cli", "", {
      cwd: root,
      args: ["start", "--max-iterations", "5", "Goal"],
      env: { CLAUDE_PROJECT_DIR: root, CONTINUATION_LOOP_TEST_DISK_FULL: full },
    });
    expect(run.code).toBe(1);
    expect(run.stdout).toBe("");
    expect(run.stderr).toMatch(/^continuation-loop: .*\n$/);
    expect(run.stderr).toContain(says);
    expect(run.stderr).toContain("no space left on the disk");
    expect(run.stderr).not.toMatch(CRASH_SIGNS);
    expect(readdirSync(join(root, ".claude"))).toEqual([]);
  });

  it("install: exit 1 naming the file it could not write and why", () => {
    const { root } = makeProject();
    const run = runHook("cli", "", {
      cwd: root,
      args: ["install"],
      env: { HOME: root, CLAUDE_PROJECT_DIR: root, CONTINUATION_LOOP_TEST_DISK_FULL: "other:0" },
    });
    expect(run.code).toBe(1);
    expect(run.stderr).not.toMatch(CRASH_SIGNS);
    expect(run.stderr).toMatch(/^continuation-loop: \/\S+: could not be written \(ENOSPC\): no space left on the disk/);
  });

  it("the answer to Claude's question: the user is told the loop stays paused, and the next answer resumes it", () => {
    const { root } = makeProject(STATE);
    const stop = runHook("stop", {
      session_id: "s1",
      cwd: root,
      hook_event_name: "Stop",
      last_assistant_message: "<loop-pause>Which database?</loop-pause>",
    });
    expect(stop.code).toBe(0);
    const prompt = (full?: string) =>
      runHook(
        "prompt",
        { session_id: "s1", cwd: root, hook_event_name: "UserPromptSubmit", prompt: "Postgres" },
        { env: full ? { CONTINUATION_LOOP_TEST_DISK_FULL: full } : {} },
      );
    const full = prompt("lock:0");
    expect(full.code).toBe(0);
    expect(full.stdout).not.toMatch(CRASH_SIGNS);
    expect(told(full)).toContain(`cannot create ${SHOWN}.lock (ENOSPC): no space left on the disk`);
    expect(told(full)).toContain("the loop stays paused");

    const again = prompt();
    expect(again.code).toBe(0);
    expect(told(again)).not.toContain("ENOSPC");
    expect(again.stdout).toContain("Which database?");
  });
});
