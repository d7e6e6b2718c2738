// Two sessions of one project acting at the same moment (docs/REFERENCE.md "Several loops"), made deterministic
// by the test-only pause points (src/io/crashPoint.ts): each gets its own loop, no Stop is lost.
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { parseState } from "../../src/core/parseState.js";
import { type Run, type SpawnOptions, spawnBundle } from "../support/processes.js";
import { makeProject, readHistory } from "../support/runHook.js";

/**
 * The first hook stops holding a state file's lock; the second starts, and once it finds that lock held, both go
 * on: the second then waits for the first's save.
 */
async function raceForLock(bundle: "stop" | "prompt", first: SpawnOptions, second: SpawnOptions): Promise<[Run, Run]> {
  const armed = (opts: SpawnOptions, point: string) => ({
    ...opts,
    env: { ...opts.env, CONTINUATION_LOOP_TEST_CRASH_AT: `${point}:pause` },
  });
  let later: Promise<Run> | undefined;
  const earlier = spawnBundle(bundle, {
    ...armed(first, "lock-taken"),
    whilePaused: () =>
      new Promise<void>((holding) => {
        later = spawnBundle(bundle, { ...armed(second, "lock-wait"), whilePaused: holding });
      }),
  });
  const run = await earlier;
  return [run, await (later as Promise<Run>)];
}

const promptInput = (root: string, session: string, prompt: string) =>
  JSON.stringify({ session_id: session, cwd: root, hook_event_name: "UserPromptSubmit", prompt });
const stopInput = (root: string, session: string) =>
  JSON.stringify({
    session_id: session,
    cwd: root,
    hook_event_name: "Stop",
    stop_hook_active: false,
    last_assistant_message: `turn of ${session}`,
  });
const ownerOf = (path: string) => parseState(readFileSync(path, "utf8"), "state").session_id;

describe("two sessions at the same moment", () => {
  it("two /loop-start without --name: the first gets the default file, the later one a named file, both started", async () => {
    const { root, statePath } = makeProject();
    const start = (session: string, goal: string) => ({
      cwd: root,
      stdin: promptInput(root, session, `/continuation-loop:loop-start ${goal}`),
    });
    const [a, b] = await raceForLock("prompt", start("A", "Fix the parser"), start("B", "Write the docs"));
    for (const run of [a, b]) expect(run.stdout, run.stderr).toContain('"additionalContext"');
    expect(ownerOf(statePath)).toBe("A");
    const named = join(root, ".claude", "continuation-loop.write-the-docs.local.md");
    expect(existsSync(named), b.stdout).toBe(true);
    expect(ownerOf(named)).toBe("B");
    expect(b.stdout).toContain(".claude/continuation-loop.write-the-docs.local.md");
  });

  it("two sessions stopping at once over one file written by hand: exactly one claims it, the other says nothing", async () => {
    const { root, statePath, historyPath } = makeProject("---\nmax_iterations: 10\n---\nShared goal\n");
    const stop = (session: string) => ({ cwd: root, stdin: stopInput(root, session) });
    const [a, b] = await raceForLock("stop", stop("A"), stop("B"));
    expect(a.code).toBe(2);
    expect(b).toMatchObject({ code: 0, stdout: "", stderr: "continuation-loop: paused at lock-wait\n" });
    expect(ownerOf(statePath)).toBe("A");
    expect(readHistory(historyPath).map((r) => [r.session, r.iteration, r.decision])).toEqual([["A", 1, "continue"]]);
  });

  it("two sessions stopping at once over two files written by hand: each claims one, no Stop lost", async () => {
    const { root, statePath, historyPath } = makeProject("---\nmax_iterations: 10\n---\nFirst goal\n");
    const second = join(root, ".claude", "continuation-loop.second.local.md");
    writeFileSync(second, "---\nmax_iterations: 10\n---\nSecond goal\n");
    const stop = (session: string) => ({ cwd: root, stdin: stopInput(root, session) });
    const [a, b] = await raceForLock("stop", stop("A"), stop("B"));
    expect([a.code, b.code], b.stderr).toEqual([2, 2]);
    expect([ownerOf(statePath), ownerOf(second)]).toEqual(["A", "B"]);
    expect(b.stderr).toContain("Second goal");
    expect(readHistory(historyPath).map((r) => [r.state_file, r.session, r.iteration])).toEqual([
      [".claude/continuation-loop.local.md", "A", 1],
      [".claude/continuation-loop.second.local.md", "B", 1],
    ]);
  });
});
