// Editors saving a running loop's state file (docs/REFERENCE.md "Steering a running loop"): a Stop that meets the
// file at a moment of the save (moved away, or emptied and not yet written) waits for it, and claims no other loop.
import { readFileSync, renameSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { spawnBundle } from "../support/processes.js";
import { makeProject, runHook } from "../support/runHook.js";

const stopInput = (root: string) =>
  JSON.stringify({ session_id: "owner", cwd: root, last_assistant_message: "working" });

/** A project with the session's own loop in a named file and, beside it, a loop written by hand for later. */
function twoLoops() {
  const { root } = makeProject();
  const mine = join(root, ".claude", "continuation-loop.mine.local.md");
  const later = join(root, ".claude", "continuation-loop.local.md");
  writeFileSync(mine, "---\nmax_iterations: 10\n---\nMy goal\n");
  const first = runHook("stop", stopInput(root));
  expect(first.code).toBe(2);
  expect(first.stderr).toContain("My goal");
  writeFileSync(later, "---\nmax_iterations: 5\n---\nPrepared for later\n");
  return { root, mine, later, whole: readFileSync(mine, "utf8") };
}

describe("a Stop during an editor's save of its loop's file", () => {
  it("moved away (vim's and Emacs' backup, JetBrains' safe write): it waits for its own file and claims no other", async () => {
    const { root, mine, later, whole } = twoLoops();
    renameSync(mine, `${mine}~`);
    const run = await spawnBundle("stop", {
      cwd: root,
      env: { CONTINUATION_LOOP_TEST_CRASH_AT: "return-wait:pause" },
      stdin: stopInput(root),
      whilePaused: () => writeFileSync(mine, whole.replace("My goal", "My edited goal")),
    });
    expect(run.stderr).toContain("paused at return-wait");
    expect(run.code).toBe(2);
    expect(run.stderr).toContain("iteration 3/10");
    expect(readFileSync(mine, "utf8")).toContain("My edited goal");
    expect(readFileSync(later, "utf8")).not.toContain("session_id");
  });

  it("emptied and not yet written (vim's in-place write, VS Code, a `>` redirect): it waits for the text and claims no other", async () => {
    const { root, mine, later, whole } = twoLoops();
    writeFileSync(mine, "");
    // The Stop has found its loops (the empty file among them) and holds the lock when the editor's write lands.
    const run = await spawnBundle("stop", {
      cwd: root,
      env: { CONTINUATION_LOOP_TEST_CRASH_AT: "lock-taken:pause" },
      stdin: stopInput(root),
      whilePaused: () => writeFileSync(mine, whole.replace("max_iterations: 10", "max_iterations: 20")),
    });
    expect(run.stderr).toContain("paused at lock-taken");
    expect(run.code).toBe(2);
    expect(run.stderr).toContain("iteration 3/20");
    expect(readFileSync(later, "utf8")).not.toContain("session_id");
  });

  it("cut inside its frontmatter (the first of two writes): it is still the session's own loop", async () => {
    const { root, mine, later, whole } = twoLoops();
    writeFileSync(mine, whole.slice(0, whole.indexOf("\n") + 1));
    const run = await spawnBundle("stop", {
      cwd: root,
      env: { CONTINUATION_LOOP_TEST_CRASH_AT: "lock-taken:pause" },
      stdin: stopInput(root),
      whilePaused: () => writeFileSync(mine, whole),
    });
    expect(run.code).toBe(2);
    expect(run.stderr).toContain("iteration 3/10");
    expect(readFileSync(later, "utf8")).not.toContain("session_id");
  });
});

describe("status and view during an editor's save of a running loop's file", () => {
  /** The default loop, bound to session "owner" by its first Stop. */
  function oneLoop() {
    const { root, statePath } = makeProject("---\nmax_iterations: 10\n---\nMy goal\n");
    expect(runHook("stop", stopInput(root)).code).toBe(2);
    return { root, statePath, whole: readFileSync(statePath, "utf8") };
  }
  const cliPausedAt = (root: string, point: string, args: string[], whilePaused: () => void) =>
    spawnBundle("cli", { cwd: root, args, env: { CONTINUATION_LOOP_TEST_CRASH_AT: `${point}:pause` }, whilePaused });

  it("a file moved away a moment is waited for: status shows the loop, not 'no loop is running'", async () => {
    const { root, statePath, whole } = oneLoop();
    renameSync(statePath, `${statePath}~`);
    const run = await cliPausedAt(root, "return-wait", ["status"], () => writeFileSync(statePath, whole));
    expect(run.stderr).toContain("paused at return-wait");
    expect(run.code).toBe(0);
    expect(run.stdout).toContain("loop running, iteration 2/10");
  });

  it("a file caught empty is read again once written: status and view show the loop, not a broken file", async () => {
    const { root, statePath, whole } = oneLoop();
    for (const args of [["status"], ["view"]]) {
      writeFileSync(statePath, "");
      const run = await cliPausedAt(root, "save-wait", args, () => writeFileSync(statePath, whole));
      expect(run.stderr).toContain("paused at save-wait");
      expect(run.stderr).not.toContain("frontmatter");
      expect(run.code).toBe(0);
      expect(run.stdout).toContain(args[0] === "status" ? "loop running, iteration 2/10" : '"state_digest"');
    }
  });

  it("a Stop whose transaction reads the file empty waits for the save and continues on the text written", async () => {
    const { root, statePath, whole } = oneLoop();
    writeFileSync(statePath, "");
    const run = await spawnBundle("stop", {
      cwd: root,
      env: { CONTINUATION_LOOP_TEST_CRASH_AT: "save-wait:pause" },
      stdin: stopInput(root),
      whilePaused: () => writeFileSync(statePath, whole.replace("My goal", "My edited goal")),
    });
    expect(run.stderr).toContain("paused at save-wait");
    expect(run.code).toBe(2);
    expect(run.stderr).toContain("iteration 3/10");
    expect(readFileSync(statePath, "utf8")).toContain("My edited goal");
  });
});
