// Races (docs/ARCHITECTURE.md, "One state-file transaction"): Stop hooks fired at once, a user editing the state file while a hook saves it,
// and two sessions claiming one loop. No increment and no user edit may be lost.
import { spawn } from "node:child_process";
import { existsSync, readdirSync, readFileSync, renameSync, unlinkSync, utimesSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { parseFrontmatter } from "../../src/core/frontmatter.js";
import { parseState } from "../../src/core/parseState.js";
import { spawnBundle, type Run, stopInput } from "../support/processes.js";
import { makeProject } from "../support/runHook.js";

const iterationOf = (path: string) => parseState(readFileSync(path, "utf8"), "state").iteration_count;
const historyLines = (root: string) => {
  const path = join(root, ".claude", "continuation-loop.history.jsonl");
  return existsSync(path)
    ? readFileSync(path, "utf8")
        .trim()
        .split("\n")
        .filter(Boolean)
        .map((l) => JSON.parse(l) as Record<string, unknown>)
    : [];
};
/** The user's editor: read, change the goal and the limit, write the whole file (in place or by rename). */
function userEdit(statePath: string, version: number, how: "in place" | "rename"): void {
  const text = readFileSync(statePath, "utf8");
  const close = text.indexOf("\n---\n");
  const edited = `${text.slice(0, close).replace(/max_iterations: \d+/, `max_iterations: ${1000 + version}`)}\n---\nGoal v${version}\n`;
  if (how === "in place") writeFileSync(statePath, edited);
  else {
    writeFileSync(`${statePath}.editor-swap`, edited);
    renameSync(`${statePath}.editor-swap`, statePath);
  }
}
/** Does the file hold the user's edit number `version` (goal and limit), with their comment? */
const keeps = (text: string, version: number) => {
  const data = parseFrontmatter(text, "state").data;
  return (
    parseState(text, "state").body === `Goal v${version}\n` &&
    data.max_iterations === 1000 + version &&
    text.startsWith("---\n# the user's loop\n")
  );
};
/** The tight-loop writer process (argv: state file, duration in ms); prints its last version. */
const WRITER = `
import { readFileSync, renameSync, writeFileSync } from "node:fs";
const [path, ms] = process.argv.slice(-2);
const end = Date.now() + Number(ms);
const nap = (t) => Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, t);
let version = 0;
while (Date.now() < end) {
  version++;
  const text = readFileSync(path, "utf8");
  const close = text.indexOf("\\n---\\n");
  const edited = text.slice(0, close).replace(/max_iterations: \\d+/, "max_iterations: " + (1000 + version)) + "\\n---\\nGoal v" + version + "\\n";
  if (version % 2) writeFileSync(path, edited);
  else { writeFileSync(path + ".editor-swap", edited); renameSync(path + ".editor-swap", path); }
  nap(Math.random() < 0.5 ? 0 : Math.random() * 5);
}
process.stdout.write(String(version));
`;
/** A Stop hook that did not continue must say why, never crash. */
const explained = (run: Run) => run.code === 0 && /"systemMessage":"continuation-loop: /.test(run.stdout);

describe.concurrent("races", () => {
  it("two Stop hooks of one session at once: every exit 2 is exactly one increment", { timeout: 60_000 }, async () => {
    const { root, statePath } = makeProject("---\nmax_iterations: 10000\nstall_limit: 0\n---\nGoal\n");
    const ROUNDS = 40;
    let blocks = 0;
    let other = 0;
    for (let round = 0; round < ROUNDS; round++) {
      const before = iterationOf(statePath);
      const runs = await Promise.all(
        [0, 1].map((i) => spawnBundle("stop", { cwd: root, stdin: stopInput(root, "s1", `round ${round} hook ${i}`) })),
      );
      const continued = runs.filter((r) => r.code === 2).length;
      for (const run of runs) if (run.code !== 2) expect(explained(run), run.stdout + run.stderr).toBe(true);
      blocks += continued;
      other += runs.length - continued;
      expect(iterationOf(statePath) - before, `round ${round}`).toBe(continued);
    }
    const continues = historyLines(root).filter((r) => r.decision === "continue").length;
    console.log(
      `races/same session: ${ROUNDS} rounds, ${blocks} exit-2 runs, ${other} other, iteration 1 -> ${iterationOf(statePath)}, lost increments ${1 + blocks - iterationOf(statePath)}`,
    );
    expect(iterationOf(statePath)).toBe(1 + blocks);
    expect(continues).toBe(blocks);
    expect(blocks).toBeGreaterThan(ROUNDS); // both hooks of a round normally get through, one after the other
  });

  // An ordinary Stop writes only the count's digits in place (4 → 5); 9 → 10 rewrites the whole file.
  it.each([
    ["written in place", 4],
    ["a whole-file save", 9],
  ])(
    "a user edit landing inside the hook's save (%s) is re-read and kept, never overwritten",
    {
      timeout: 60_000,
    },
    async (how, count) => {
      const { root, statePath } = makeProject(
        "---\n# the user's loop\nmax_iterations: 1000\nstall_limit: 0\n---\nGoal v0\n",
      );
      const dir = join(root, ".claude");
      const ROUNDS = Number(process.env.RACE_EDIT_ROUNDS ?? 10);
      // The hook stops between writing its new version and its last check before the rename
      // (a pause point, src/io/crashPoint.ts), so the edit lands inside the save every time.
      const env = { CONTINUATION_LOOP_TEST_CRASH_AT: "fsync-done:pause" };
      const outcome = { merged: 0, userAfter: 0, lost: 0, notCounted: 0 };
      const notes: string[] = [];
      for (let round = 1; round <= ROUNDS; round++) {
        const before = readFileSync(statePath, "utf8");
        writeFileSync(statePath, before.replace(/iteration_count: \d+/, `iteration_count: ${count}`));
        const iteration = iterationOf(statePath);
        let edited = false;
        const whilePaused = () => {
          userEdit(statePath, round, round % 2 ? "in place" : "rename");
          edited = true;
        };
        const run = await spawnBundle("stop", {
          cwd: root,
          env,
          whilePaused,
          stdin: stopInput(root, "s1", `round ${round}`),
        });
        expect(edited, run.stdout + run.stderr).toBe(true);
        if (run.code !== 2) {
          expect(explained(run), run.stdout + run.stderr).toBe(true);
          outcome.notCounted++;
        }
        const text = readFileSync(statePath, "utf8");
        if (!keeps(text, round)) {
          outcome.lost++;
          notes.push(`round ${round}: edit lost, file is ${JSON.stringify(text)}`);
        } else if (iterationOf(statePath) === iteration + 1) outcome.merged++;
        else outcome.userAfter++;
      }
      expect(readdirSync(dir).filter((n) => n.endsWith(".tmp") || n.endsWith(".lock"))).toEqual([]);
      console.log(
        `races/edit inside the save (${how}): ${ROUNDS} edits (half in place, half by rename), ${JSON.stringify(outcome)}${notes.map((n) => `\n  ${n}`).join("")}`,
      );
      expect(outcome.lost).toBe(0);
      // Every edit landed inside a save: the hook re-read it and counted on top of it.
      expect(outcome.merged).toBe(ROUNDS);
    },
  );

  it("a writer rewriting goal and limit in a tight loop while hooks run: the last edit survives", {
    timeout: 60_000,
  }, async () => {
    const { root, statePath } = makeProject(
      "---\n# the user's loop\nmax_iterations: 1000\nstall_limit: 0\n---\nGoal v0\n",
    );
    // A separate process, like an editor: read, change goal and max_iterations, write (in place or
    // by rename), a few hundred times with sub-millisecond to few-millisecond gaps.
    const writer = spawn(process.execPath, ["--input-type=module", "-e", WRITER, statePath, "2500"], {
      stdio: ["ignore", "pipe", "inherit"],
    });
    let last = "";
    writer.stdout.on("data", (d: Buffer) => (last += d.toString()));
    const writerDone = new Promise<void>((resolve) => writer.on("close", () => resolve()));
    let writing = true;
    void writerDone.then(() => (writing = false));
    const codes = { continued: 0, notCounted: 0 };
    const said = new Set<string>();
    for (let turn = 0; writing; turn++) {
      const run = await spawnBundle("stop", { cwd: root, stdin: stopInput(root, "s1", `turn ${turn}`) });
      if (run.code === 2) codes.continued++;
      else {
        expect(explained(run), run.stdout + run.stderr).toBe(true);
        // Never a false alarm about the file's content: only "kept changing, not counted".
        expect(run.stdout).toContain("kept changing while the hook saved it; this Stop was not counted");
        said.add(run.stdout.trim());
        codes.notCounted++;
      }
    }
    const after = await spawnBundle("stop", { cwd: root, stdin: stopInput(root, "s1", "after the writer") });
    expect(after.code).toBe(2);
    const version = Number(last.trim());
    expect(version).toBeGreaterThan(50);
    const text = readFileSync(statePath, "utf8");
    console.log(
      `races/tight-loop writer: ${version} user writes, hooks: ${JSON.stringify(codes)}, last edit kept: ${keeps(text, version)}`,
    );
    expect(keeps(text, version), text).toBe(true);
  });

  it("two sessions claiming an unowned loop at once: exactly one owner, the other untouched and silent", {
    timeout: 60_000,
  }, async () => {
    const ROUNDS = 30;
    const owners: Record<string, number> = { A: 0, B: 0 };
    for (let round = 0; round < ROUNDS; round++) {
      const { root, statePath } = makeProject("---\nmax_iterations: 10\n---\nShared goal\n");
      const [a, b] = await Promise.all(
        ["A", "B"].map((s) => spawnBundle("stop", { cwd: root, stdin: stopInput(root, s, `session ${s}`) })),
      );
      const state = parseState(readFileSync(statePath, "utf8"), "state");
      expect(state.session_id === "A" || state.session_id === "B", `round ${round}: owner ${state.session_id}`).toBe(
        true,
      );
      const [winner, loser] = state.session_id === "A" ? [a!, b!] : [b!, a!];
      owners[state.session_id!]!++;
      expect(winner.code).toBe(2);
      expect(loser).toMatchObject({ code: 0, stdout: "", stderr: "" });
      expect(state.iteration_count).toBe(2);
      expect(historyLines(root)).toEqual([
        expect.objectContaining({ session: state.session_id, decision: "continue" }),
      ]);
    }
    console.log(`races/claim: ${ROUNDS} rounds, owners ${JSON.stringify(owners)}, double owners 0`);
  });
});

/** A lock taken over "at once": the hook dies by SIGKILL if it ever starts to wait for a live holder (src/io/crashPoint.ts). */
const DIE_IF_IT_WAITS = { CONTINUATION_LOOP_TEST_CRASH_AT: "lock-wait" };

describe.concurrent("locks left behind", () => {
  const project = () => makeProject("---\nmax_iterations: 100\nstall_limit: 0\n---\nGoal\n");
  const input = (root: string) => stopInput(root, "s1", "turn");
  /** A loop whose lock a running process holds and never releases, and the state file's bytes. */
  const lockedProject = () => {
    const made = project();
    writeFileSync(`${made.statePath}.lock`, `${process.pid} now\n`);
    return { ...made, before: readFileSync(made.statePath) };
  };

  it("a lock whose owner died (SIGKILL) is taken over at once", async () => {
    const { root, statePath } = project();
    writeFileSync(`${statePath}.lock`, `999999999 ${new Date().toISOString()}\n`);
    const run = await spawnBundle("stop", { cwd: root, env: DIE_IF_IT_WAITS, stdin: input(root) });
    expect(run.code, run.stderr).toBe(2);
    expect(existsSync(`${statePath}.lock`)).toBe(false);
  });

  it("the temp files of a killed holder go when its lock is taken over; a live writer's stay; an ordinary Stop sweeps nothing", async () => {
    const { root, statePath } = project();
    const dir = join(root, ".claude");
    const dead = ".continuation-loop.local.md.999999999.abc123.tmp";
    const deadSidecar = ".continuation-loop.runtime.json.999999999.def456.tmp";
    const live = `.continuation-loop.local.md.${process.pid}.zzzzzz.tmp`;
    for (const name of [dead, deadSidecar, live]) writeFileSync(join(dir, name), "half a save");
    // No lock taken over: the folder is not swept, even of a dead writer's temp file.
    expect((await spawnBundle("stop", { cwd: root, stdin: input(root) })).code).toBe(2);
    const temps = () =>
      readdirSync(dir)
        .filter((n) => n.endsWith(".tmp"))
        .sort();
    expect(temps()).toEqual([dead, deadSidecar, live].sort());
    // The killed writer's lock is taken over: its temp files go, the live writer's stays.
    writeFileSync(`${statePath}.lock`, `999999999 ${new Date().toISOString()}\n`);
    expect((await spawnBundle("stop", { cwd: root, stdin: input(root) })).code).toBe(2);
    expect(temps()).toEqual([live]);
    expect(iterationOf(statePath)).toBe(3);
  });

  it("a lock older than 10 s is taken over even when its pid is alive", async () => {
    const { root, statePath } = project();
    writeFileSync(`${statePath}.lock`, `${process.pid} then\n`);
    const old = (Date.now() - 11_000) / 1000;
    utimesSync(`${statePath}.lock`, old, old);
    const run = await spawnBundle("stop", { cwd: root, env: DIE_IF_IT_WAITS, stdin: input(root) });
    expect(run.code, run.stderr).toBe(2);
  });

  it("a fresh lock of a live hook is waited for, then the Stop counts", async () => {
    const { root, statePath } = project();
    writeFileSync(`${statePath}.lock`, `${process.pid} now\n`);
    // The hook stops where it has found the lock held and starts to wait (src/io/crashPoint.ts).
    let released = false;
    const whilePaused = () => {
      expect(iterationOf(statePath)).toBe(1); // not counted while the lock is held
      unlinkSync(`${statePath}.lock`); // its owner releases it
      released = true;
    };
    const env = { CONTINUATION_LOOP_TEST_CRASH_AT: "lock-wait:pause" };
    const done = await spawnBundle("stop", { cwd: root, env, whilePaused, stdin: input(root) });
    expect(released, done.stderr).toBe(true);
    expect(done.code).toBe(2);
    expect(iterationOf(statePath)).toBe(2);
  });

  it("a fresh lock that is never released: after a bounded wait the Stop is not counted and the file is untouched", {
    timeout: 20_000,
  }, async () => {
    const { root, statePath, before } = lockedProject();
    const run = await spawnBundle("stop", { cwd: root, stdin: input(root) });
    expect(run.code).toBe(0);
    expect(run.stdout).toContain("is locked by another hook; this Stop was not counted");
    expect(run.ms).toBeGreaterThanOrEqual(4_500);
    expect(run.ms).toBeLessThan(9_000);
    expect(readFileSync(statePath).equals(before)).toBe(true);
  });

  it("a command that meets a lock never released: one line naming the file once, exit 1, the file untouched", {
    timeout: 20_000,
  }, async () => {
    const { root, statePath, before } = lockedProject();
    const run = await spawnBundle("cli", { cwd: root, args: ["stop"] });
    expect(run.code).toBe(1);
    expect(run.stderr).toBe(
      "continuation-loop: .claude/continuation-loop.local.md is locked by another hook. Expected the lock to be released; try again in a moment.\n",
    );
    expect(readFileSync(statePath).equals(before)).toBe(true);
  });
});
