// Many sessions and loops of one project at once (docs/REFERENCE.md "Several loops"): real hook processes
// started together, not one after another. The long run (8 sessions × 200 Stops) is measured in
// docs/PERFORMANCE.md "Many loops at once"; this file keeps a short one and the crash of a lock's holder
// while others wait, made deterministic by the test-only pause points (src/io/crashPoint.ts).
import { existsSync, readdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { parseState } from "../../src/core/parseState.js";
import { CRASH_POINTS } from "../../src/io/crashPoint.js";
import { CRASH_SIGNS, type Run, spawnBundle, stopInput } from "../support/processes.js";
import { killPid } from "../support/pids.js";
import { makeProject } from "../support/runHook.js";

const promptInput = (root: string, session: string, prompt: string) =>
  JSON.stringify({ session_id: session, cwd: root, hook_event_name: "UserPromptSubmit", prompt });
const records = (root: string) => {
  const path = join(root, ".claude", "continuation-loop.history.jsonl");
  if (!existsSync(path)) return [];
  // Every line must parse: a torn or doubled line fails here.
  return readFileSync(path, "utf8")
    .split("\n")
    .filter(Boolean)
    .map((line) => JSON.parse(line) as Record<string, unknown>);
};
const stateOf = (path: string) => parseState(readFileSync(path, "utf8"), "state");
/** What a Stop that continued its loop answers: exit 2 with the continuation prompt, no crash. */
const continued = (run: Run) =>
  run.code === 2 && run.stderr.includes("CONTINUATION LOOP ACTIVE") && !CRASH_SIGNS.test(run.stderr);
/** What the loop's files leave behind when no hook runs: no lock, no temp file, no file moved aside. */
const leftovers = (root: string) =>
  readdirSync(join(root, ".claude")).filter((name) => /\.lock$|\.tmp|\.stale$|\.torn/.test(name));

/** The lock's wait limit (src/io/lock.ts) and the time a loaded machine may take to start and run a hook. */
const LOCK_WAIT_MS = 5_000;
const HOOK_MS = 10_000;

describe("several sessions' loops in one project at once", () => {
  it("each session's Stops count its own loop only, while another process reads, starts, stops and edits loops", {
    timeout: 60_000,
  }, async () => {
    const { root } = makeProject();
    const sessions = ["A", "B", "C", "D"];
    const STOPS = 10;
    const started = await Promise.all(
      sessions.map((s) =>
        spawnBundle("prompt", {
          cwd: root,
          stdin: promptInput(
            root,
            s,
            `/continuation-loop:loop-start --name ${s.toLowerCase()} --max-iterations 100 --stall-limit 0 Goal ${s}`,
          ),
        }),
      ),
    );
    for (const run of started) expect(run.stdout, run.stderr).toContain('"additionalContext"');
    // A loop written by hand: every session here owns one, so none may claim it.
    const hand = join(root, ".claude", "continuation-loop.hand.local.md");
    writeFileSync(hand, "---\nmax_iterations: 50\n---\nHand goal 0\n");

    let done = false;
    const others: Run[] = [];
    const meddle = async () => {
      const cli = (...args: string[]) => spawnBundle("cli", { cwd: root, args, env: { CLAUDE_PROJECT_DIR: root } });
      const steps = [
        () => cli("status", "--all"),
        () =>
          spawnBundle("prompt", { cwd: root, stdin: promptInput(root, "Z", "/continuation-loop:loop-status --all") }),
        () => cli("start", "--name", "extra", "--max-iterations", "5", "Extra goal"),
        () => cli("stop", "--name", "extra"),
        () => cli("restart", "--name", "extra"),
        () => cli("stop", "--name", "extra"),
        () =>
          spawnBundle("prompt", { cwd: root, stdin: promptInput(root, "Z", "/continuation-loop:loop-start Zed goal") }),
        () => spawnBundle("prompt", { cwd: root, stdin: promptInput(root, "Z", "/continuation-loop:loop-stop") }),
      ];
      for (let k = 0; !done; k++) {
        // The person's edit of the hand-written loop: another file, then `mv`.
        const text = readFileSync(hand, "utf8").replace(/Hand goal \d+/, `Hand goal ${k}`);
        writeFileSync(`${hand}.edit`, text);
        renameSync(`${hand}.edit`, hand);
        others.push(await (steps[k % steps.length] as () => Promise<Run>)());
      }
    };
    const drive = async (session: string) => {
      const runs: Run[] = [];
      for (let i = 1; i <= STOPS; i++) {
        runs.push(await spawnBundle("stop", { cwd: root, stdin: stopInput(root, session, `turn ${i} of ${session}`) }));
        if (i % 4 === 0)
          runs.push(await spawnBundle("prompt", { cwd: root, stdin: promptInput(root, session, "go on") }));
      }
      return runs;
    };
    const meddling = meddle();
    const driven = await Promise.all(sessions.map(drive));
    done = true;
    await meddling;

    for (const runs of driven) {
      const stops = runs.filter((run) => run.code !== 0 || run.stderr !== "" || run.stdout !== "");
      expect(
        stops.filter((run) => !continued(run)),
        JSON.stringify(stops.slice(0, 2)),
      ).toEqual([]);
      expect(Math.max(...runs.map((run) => run.ms))).toBeLessThan(LOCK_WAIT_MS + HOOK_MS);
    }
    for (const run of others) {
      expect([0, 1], run.stderr).toContain(run.code);
      expect(run.stderr + run.stdout).not.toMatch(CRASH_SIGNS);
    }
    const history = records(root);
    for (const s of sessions) {
      const file = `.claude/continuation-loop.${s.toLowerCase()}.local.md`;
      const state = stateOf(join(root, file));
      expect([state.session_id, state.iteration_count]).toEqual([s, STOPS + 1]);
      const mine = history.filter((r) => r.state_file === file);
      expect(mine.map((r) => [r.session, r.decision, r.iteration])).toEqual(
        Array.from({ length: STOPS }, (_, i) => [s, "continue", i + 1]),
      );
      // The sidecar reads whole.
      JSON.parse(readFileSync(join(root, `.claude/continuation-loop.${s.toLowerCase()}.runtime.json`), "utf8"));
    }
    expect(stateOf(hand).session_id).toBeUndefined();
    expect(
      history.filter((r) => sessions.includes(r.session as string) && !String(r.state_file).match(/\.[a-d]\.local/)),
    ).toEqual([]);
    expect(leftovers(root)).toEqual([]);
  });
});

/**
 * A Stop held at `point` of its save (lock held); `waiters` Stops of the same session start and stop where
 * they find the lock held; then the holder is killed (SIGKILL) and the waiters go on.
 */
async function crashWhileOthersWait(point: string, waiters: number) {
  const { root, statePath } = makeProject("---\nmax_iterations: 100\nstall_limit: 0\nsession_id: S\n---\nGoal\n");
  const stop = (n: number, at: string) => ({
    cwd: root,
    stdin: stopInput(root, "S", `reply ${n}`),
    env: { CONTINUATION_LOOP_TEST_CRASH_AT: `${at}:pause` },
  });
  let waiting: Promise<Run>[] = [];
  const holder = await spawnBundle("stop", {
    ...stop(0, point),
    whilePaused: async () => {
      const stamp = readFileSync(`${statePath}.lock`, "utf8");
      let paused = 0;
      let killed: () => void = () => {};
      const holderGone = new Promise<void>((resolve) => (killed = resolve));
      const allWaiting = new Promise<void>((resolve) => {
        waiting = Array.from({ length: waiters }, (_, n) =>
          spawnBundle("stop", {
            ...stop(n + 1, "lock-wait"),
            whilePaused: () => {
              if (++paused === waiters) resolve();
              return holderGone;
            },
          }),
        );
      });
      await allWaiting;
      // The holder dies holding the lock, as a hook killed by Claude Code's timeout does.
      killPid(Number.parseInt(stamp, 10));
      killed();
    },
  });
  return { root, statePath, holder, waited: await Promise.all(waiting) };
}

describe("a lock's holder killed while other Stops wait for it", () => {
  it.each(CRASH_POINTS)(
    "killed at %s: every waiter goes on and counts once, nothing left behind",
    {
      timeout: 60_000,
    },
    async (point) => {
      const WAITERS = 3;
      const { root, statePath, holder, waited } = await crashWhileOthersWait(point, WAITERS);
      expect(holder.signal).toBe("SIGKILL");
      for (const run of waited) expect(continued(run), run.stderr).toBe(true);
      // The holder's own increment is on disk from the rename on.
      const holderSaved =
        CRASH_POINTS.indexOf(point as (typeof CRASH_POINTS)[number]) >= CRASH_POINTS.indexOf("rename-done");
      expect(stateOf(statePath).iteration_count).toBe(1 + WAITERS + (holderSaved ? 1 : 0));
      const continues = records(root).map((r) => r.iteration);
      expect(new Set(continues).size).toBe(continues.length);
      expect(continues.length).toBe(WAITERS + (point === "history-appended" ? 1 : 0));
      JSON.parse(readFileSync(join(root, ".claude", "continuation-loop.runtime.json"), "utf8"));
      expect(leftovers(root)).toEqual([]);
    },
  );
});
