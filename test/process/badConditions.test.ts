// Bad conditions around a loop (docs/REFERENCE.md "Messages you may see"): transcripts that are no transcript,
// a FIFO in place of a handover, places the hook cannot write, metrics that misbehave. The loop goes on or
// says why, never with a stack trace.
import { spawnSync } from "node:child_process";
import {
  chmodSync,
  closeSync,
  existsSync,
  ftruncateSync,
  mkdirSync,
  openSync,
  readFileSync,
  writeFileSync,
} from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import {
  BAD,
  corpus,
  expectQuiet,
  makeBadProject,
  promptInput,
  removeBadProjects,
  stopInput,
  userFor,
} from "../support/badProject.js";
import { CRASH_SIGNS, requiredBundles, snapshotTree, spawnBundle, treeDiff } from "../support/processes.js";
import { runHook } from "../support/runHook.js";

const bundles = requiredBundles();
afterAll(removeBadProjects);

describe.concurrent("bad transcripts: the reply is read as absent, the loop goes on", () => {
  const makers: Record<string, (path: string) => void> = {
    "a folder": (path) => mkdirSync(path),
    "a FIFO nobody writes to": (path) => expect(spawnSync("mkfifo", [path]).status).toBe(0),
    "binary garbage": (path) => writeFileSync(path, readFileSync(join(BAD, "state", "binary-garbage.bin"))),
    "a sparse 2 GiB file of NUL bytes": (path) => {
      const fd = openSync(path, "w");
      ftruncateSync(fd, 2 * 1024 ** 3);
      closeSync(fd);
    },
    "a torn last line only": (path) =>
      writeFileSync(path, '{"type":"assistant","message":{"role":"assistant","content":[{"type":"te'),
    missing: () => {},
  };
  for (const [what, make] of Object.entries(makers)) {
    it(what, { timeout: 30_000 }, async () => {
      const { root, statePath } = makeBadProject({ expect: [] });
      writeFileSync(statePath, "---\nmax_iterations: 5\ncompletion_promise: DONE\n---\nGoal\n");
      const transcript = join(root, "transcript.jsonl");
      make(transcript);
      const input = JSON.stringify({
        session_id: "s1",
        cwd: root,
        hook_event_name: "Stop",
        stop_hook_active: false,
        transcript_path: transcript,
      });
      const stop = await spawnBundle("stop", { cwd: root, stdin: input, timeoutMs: 10_000 });
      expect(stop.signal, "the hook hung").toBeNull();
      expect(`${stop.stdout}\n${stop.stderr}`).not.toMatch(CRASH_SIGNS);
      expect(stop.code).toBe(2);
      expect(stop.stderr).toContain("[SYSTEM REMINDER - CONTINUATION LOOP ACTIVE]");
      expect(readFileSync(statePath, "utf8")).toMatch(/\niteration_count: 2\n/);
      if (bundles.present.includes("prompt")) {
        const prompt = await spawnBundle("prompt", {
          cwd: root,
          stdin: promptInput(root, "go on").replace(
            '"prompt"',
            `"transcript_path":${JSON.stringify(transcript)},"prompt"`,
          ),
          timeoutMs: 10_000,
        });
        expectQuiet(prompt);
      }
    });
  }
});

describe("a FIFO in place of the loop's /clear handover", () => {
  it("SessionStart (clear) ends at once, takes it away and carries nothing", () => {
    const { root } = makeBadProject({ expect: [] });
    const handover = join(root, ".claude", "continuation-loop.clear-4242.json");
    expect(spawnSync("mkfifo", [handover]).status).toBe(0);
    const input = { cwd: root, hook_event_name: "SessionStart", source: "clear", session_id: "new" };
    const run = runHook("session", input, { env: { CLAUDE_PID: "4242" } });
    expect(run).toMatchObject({ code: 0, stdout: "", stderr: "" });
    expect(existsSync(handover)).toBe(false);
  });
});

describe.concurrent("places the hook cannot write", () => {
  it("a read-only .claude folder: exit 0, the user is told, nothing changes", async () => {
    const { root, statePath, watched } = makeBadProject({ expect: [] });
    writeFileSync(statePath, "---\nmax_iterations: 5\n---\nGoal\n");
    chmodSync(join(root, ".claude"), 0o555);
    try {
      const before = snapshotTree(...watched);
      const run = await spawnBundle("stop", { cwd: root, stdin: stopInput(root), timeoutMs: 15_000, ...userFor(true) });
      expect(run).toMatchObject({ code: 0, signal: null, stderr: "" });
      expect(run.stdout).toMatch(
        /continuation-loop: .*\.claude\/continuation-loop\.local\.md.*(EACCES|EPERM).*permissions/,
      );
      expect(run.stdout).not.toMatch(CRASH_SIGNS);
      expect(treeDiff(before, snapshotTree(...watched))).toEqual([]);
    } finally {
      chmodSync(join(root, ".claude"), 0o755);
    }
  });

  it("a read-only .claude folder: pause and stop exit 1, saying why, and change nothing", async () => {
    const { root, statePath, watched } = makeBadProject({ expect: [] });
    writeFileSync(statePath, "---\nmax_iterations: 5\n---\nGoal\n");
    chmodSync(join(root, ".claude"), 0o555);
    try {
      const before = snapshotTree(...watched);
      for (const [command, not] of [
        ["pause", "the loop was not paused"],
        ["stop", ""],
      ] as const) {
        const run = await spawnBundle("cli", { cwd: root, args: [command], timeoutMs: 15_000, ...userFor(true) });
        expect(run, command).toMatchObject({ code: 1, signal: null, stdout: "" });
        expect(run.stderr).toMatch(
          /^continuation-loop: cannot create \.claude\/continuation-loop\.local\.md\.lock \((EACCES|EPERM)\)/,
        );
        expect(run.stderr).toContain(not);
        expect(run.stderr).not.toMatch(CRASH_SIGNS);
      }
      expect(treeDiff(before, snapshotTree(...watched))).toEqual([]);
    } finally {
      chmodSync(join(root, ".claude"), 0o755);
    }
  });

  it("install where a folder it needs is a file: exit 1 naming what could not be written, the file kept", async () => {
    const { root } = makeBadProject({ expect: [] });
    mkdirSync(join(root, ".claude", "continuation-loop"));
    const blocker = join(root, ".claude", "continuation-loop", "hooks");
    writeFileSync(blocker, "mine\n");
    const run = await spawnBundle("cli", { cwd: root, args: ["install"], timeoutMs: 15_000 });
    expect(run).toMatchObject({ code: 1, signal: null, stdout: "" });
    expect(run.stderr).toMatch(/\.claude\/continuation-loop\S*: could not be written \((ENOTDIR|EEXIST)\)/);
    expect(run.stderr).not.toContain("internal error");
    expect(run.stderr).not.toMatch(CRASH_SIGNS);
    expect(readFileSync(blocker, "utf8")).toBe("mine\n");
  });

  it("a history that cannot be appended to does not stop the loop", async () => {
    const { root, statePath } = makeBadProject({ expect: [] });
    writeFileSync(statePath, "---\nmax_iterations: 5\n---\nGoal\n");
    mkdirSync(join(root, ".claude", "continuation-loop.history.jsonl"));
    const run = await spawnBundle("stop", { cwd: root, stdin: stopInput(root), timeoutMs: 15_000 });
    expect(run.code).toBe(2);
    expect(`${run.stdout}${run.stderr}`).not.toMatch(CRASH_SIGNS);
    expect(readFileSync(statePath, "utf8")).toMatch(/\niteration_count: 2\n/);
  });
});

describe.concurrent("bad metrics: no value, shown to Claude, never a crash; the file keeps its bytes but the count", () => {
  for (const c of corpus.metric) {
    it(c.name, { timeout: 60_000 }, async () => {
      const { root, statePath } = makeBadProject({ expect: [] });
      const fields = [`metric: ${JSON.stringify(c.metric)}`, ...(c.timeout ? [`metric_timeout: ${c.timeout}`] : [])];
      const text = `---\nmax_iterations: 3\n${fields.join("\n")}\n---\nImprove the score.\n`;
      writeFileSync(statePath, text);
      const stop = await spawnBundle("stop", { cwd: root, stdin: stopInput(root), timeoutMs: 30_000 });
      expect(stop.signal, "the hook was killed (hung?)").toBeNull();
      expect(stop.code).toBe(2);
      expect(`${stop.stdout}\n${stop.stderr}`).not.toMatch(CRASH_SIGNS);
      for (const part of c.expect) expect(stop.stderr).toContain(part);
      const after = readFileSync(statePath, "utf8");
      expect(
        after
          .replace(/iteration_count: 2\n/, "")
          .replace(/session_id: "s1"\n/, "")
          .replace(/started_at: .*\n/, ""),
      ).toBe(text);
      const record = JSON.parse(readFileSync(join(root, ".claude", "continuation-loop.history.jsonl"), "utf8").trim());
      expect(record).toMatchObject({ decision: "continue", metric: null });
    });
  }
});
