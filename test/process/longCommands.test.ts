// A Stop whose `until` (or `verify`, `metric`) takes minutes (docs/ARCHITECTURE.md "The path of one Stop"): the
// command runs before the state file's lock is taken, so a pause, a stop or the status line's cost record meanwhile
// gets the lock at once and is never lost; the Stop then decides on the files as they are, and the person's change wins.
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { parseState } from "../../src/core/parseState.js";
import { CRASH_SIGNS, spawnBundle } from "../support/processes.js";
import { killPid, waitForPidFile } from "../support/pids.js";
import { makeProject, readHistory } from "../support/runHook.js";

/** Says it runs (with the Stop hook's pid), then fails once `go` exists: a command as long as the test wants. */
const UNTIL = `until: "echo $PPID > running; while [ ! -e go ]; do sleep 0.05; done; exit 1"`;
const LOOP = `---\nsession_id: s1\nmax_iterations: 10\n${UNTIL}\n---\nGoal\n`;

/** The projects whose `until` was started: each is let go once the file's tests (concurrent) are done, passed or failed, so none loops on. */
const started: string[] = [];
afterAll(() => {
  for (const root of started.splice(0)) writeFileSync(join(root, "go"), "");
});

/** A Stop of the loop, started; resolves once its `until` runs, with the Stop's run to await and the Stop hook's pid. */
async function startStop(root: string) {
  started.push(root);
  const stdin = JSON.stringify({
    session_id: "s1",
    cwd: root,
    hook_event_name: "Stop",
    stop_hook_active: false,
    last_assistant_message: "Still working.",
  });
  const run = spawnBundle("stop", { cwd: root, stdin, timeoutMs: 60_000 });
  const hookPid = await waitForPidFile(join(root, "running"));
  return { run, hookPid };
}

const cli = (root: string, args: string[], stdin = "") => spawnBundle("cli", { cwd: root, args, stdin });
const prompt = (root: string, text: string) =>
  spawnBundle("prompt", {
    cwd: root,
    stdin: JSON.stringify({ session_id: "s1", cwd: root, hook_event_name: "UserPromptSubmit", prompt: text }),
    env: { CLAUDE_PROJECT_DIR: root },
  });
const statusLine = (root: string, cost: number) =>
  cli(root, ["statusline"], JSON.stringify({ session_id: "s1", cwd: root, cost: { total_cost_usd: cost } }));
const spendOf = (root: string) =>
  (
    JSON.parse(readFileSync(join(root, ".claude", "continuation-loop.runtime.json"), "utf8")) as {
      spend?: { figure: number } | null;
    }
  ).spend?.figure;

describe.concurrent("a long until and the state file's lock", () => {
  it.each([
    ["continuation-loop pause", (root: string) => cli(root, ["pause"]), /loop paused at iteration 1\/10/],
    ["/loop-pause", (root: string) => prompt(root, "/loop-pause"), /loop paused at iteration 1\/10/],
    ["continuation-loop stop", (root: string) => cli(root, ["stop"]), /loop stopped by the user at iteration 1\/10/],
  ])(
    "%s while the Stop's until runs: done at once, and it wins over the Stop",
    { timeout: 60_000 },
    async (name, act, said) => {
      const { root, statePath, historyPath } = makeProject(LOOP);
      const { run: stop } = await startStop(root);
      // The Stop holds no lock while its command runs.
      expect(existsSync(`${statePath}.lock`)).toBe(false);
      const cost = await statusLine(root, 1.25);
      expect(cost.code).toBe(0);
      expect(spendOf(root)).toBe(1.25);
      const acted = await act(root);
      expect(acted.code, acted.stdout + acted.stderr).toBe(0);
      expect(acted.stdout).toMatch(said);
      writeFileSync(join(root, "go"), "");
      const stopped = await stop;
      // Claude stops: the loop was paused or stopped meanwhile, so this Stop neither continues nor counts.
      expect(stopped.code, stopped.stderr).toBe(0);
      expect(stopped.stdout + stopped.stderr).not.toMatch(CRASH_SIGNS);
      expect(stopped.stdout).not.toContain('"decision":"block"');
      const records = readHistory(historyPath);
      expect(
        records.filter((r) => r.decision === "continue"),
        name,
      ).toEqual([]);
      if (name.includes("stop")) expect(existsSync(statePath)).toBe(false);
      else {
        expect(parseState(readFileSync(statePath, "utf8"), "state")).toMatchObject({
          active: false,
          iteration_count: 1,
        });
        expect(spendOf(root)).toBe(1.25);
      }
      expect(existsSync(`${statePath}.lock`)).toBe(false);
    },
  );

  it("a cost recorded while the until runs is kept by the Stop's save", { timeout: 60_000 }, async () => {
    const { root, statePath } = makeProject(LOOP);
    const { run: stop } = await startStop(root);
    expect((await statusLine(root, 2.5)).code).toBe(0);
    writeFileSync(join(root, "go"), "");
    const stopped = await stop;
    expect(stopped.code, stopped.stdout).toBe(2);
    expect(parseState(readFileSync(statePath, "utf8"), "state").iteration_count).toBe(2);
    expect(spendOf(root)).toBe(2.5);
  });

  it("a Stop killed while its until runs (the hook's timeout) leaves no lock: a pause is done at once", {
    timeout: 60_000,
  }, async () => {
    const { root, statePath } = makeProject(LOOP);
    const { run: stop, hookPid } = await startStop(root);
    killPid(hookPid);
    expect((await stop).signal).toBe("SIGKILL");
    const paused = await cli(root, ["pause"]);
    writeFileSync(join(root, "go"), "");
    expect(paused.code, paused.stderr).toBe(0);
    expect(paused.stdout).toMatch(/loop paused at iteration 1\/10/);
    expect(parseState(readFileSync(statePath, "utf8"), "state").active).toBe(false);
  });
});
