// A long loop's checkpoints in .git (docs/REFERENCE.md "Checkpoints"): written with plumbing, which never runs git's
// automatic packing, so every 20th Stop runs the check `git commit` runs. The long state is built directly: a loop
// at iteration 20 in a repository whose loose objects already pass git's threshold, as thousands of checkpoints
// leave it.
import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { makeProject, runHook } from "../support/runHook.js";

const git = (root: string, ...args: string[]) =>
  execFileSync("git", ["-c", "user.name=t", "-c", "user.email=t@t", ...args], { cwd: root, encoding: "utf8" });
const stop = (root: string, reply: string) =>
  runHook("stop", { session_id: "s1", cwd: root, hook_event_name: "Stop", last_assistant_message: reply });
const cli = (root: string, ...args: string[]) => runHook("cli", {}, { args, env: { CLAUDE_PROJECT_DIR: root } });

/**
 * git's automatic check estimates the loose objects from one folder of 256, `objects/17`, and acts above
 * `gc.auto` (6700 by default), i.e. above 27 there. Files whose blobs land there, committed (so reachable,
 * as a checkpoint's are) with git's own check off.
 */
function commitLooseObjects(root: string, count: number): void {
  let made = 0;
  for (let n = 0; made < count; n++) {
    const text = `generated ${n}\n`;
    const id = createHash("sha1")
      .update(`blob ${Buffer.byteLength(text)}\0${text}`)
      .digest("hex");
    if (!id.startsWith("17")) continue;
    writeFileSync(join(root, `gen-${made}.txt`), text);
    made++;
  }
  git(root, "-c", "maintenance.auto=false", "-c", "gc.auto=0", "add", ".");
  git(root, "-c", "maintenance.auto=false", "-c", "gc.auto=0", "commit", "-qm", "many files");
}

const looseIn17 = (root: string) =>
  existsSync(join(root, ".git/objects/17")) ? readdirSync(join(root, ".git/objects/17")).length : 0;
const packedRefs = (root: string) =>
  existsSync(join(root, ".git/packed-refs")) ? readFileSync(join(root, ".git/packed-refs"), "utf8") : "";

function makeRepo(extraConfig: [string, string][]) {
  const { root } = makeProject(
    "---\nmax_iterations: 10000\niteration_count: 20\ncheckpoints: true\nstall_limit: 0\n---\nGoal\n",
  );
  writeFileSync(join(root, ".gitignore"), ".claude/\n");
  writeFileSync(join(root, "app.txt"), "v0\n");
  git(root, "init", "-q");
  // In the foreground, so that the test sees the packing done when the hook exits.
  git(root, "config", "gc.autoDetach", "false");
  for (const [key, value] of extraConfig) git(root, "config", key, value);
  commitLooseObjects(root, 40);
  expect(looseIn17(root)).toBeGreaterThan(27);
  return root;
}

describe("checkpoints in a long loop's repository", () => {
  it("are packed with the loose objects once git's own threshold is passed, and still list and restore", () => {
    const root = makeRepo([]);
    writeFileSync(join(root, "app.txt"), "v1\n");
    const first = stop(root, "one");
    expect(first.code, first.stderr).toBe(2);

    expect(looseIn17(root)).toBe(0);
    expect(packedRefs(root)).toMatch(/ refs\/continuation-loop\/default\/20$/m);
    expect(existsSync(join(root, ".git/refs/continuation-loop/default/20"))).toBe(false);

    writeFileSync(join(root, "app.txt"), "v2\n");
    expect(stop(root, "two").code).toBe(2);
    const list = cli(root, "checkpoints");
    expect(list.stdout).toMatch(/^\s+20\s+\d{4}-/m);
    expect(list.stdout).toMatch(/^\s+21\s+\d{4}-/m);
    const restored = cli(root, "restore", "20");
    expect(restored.code, restored.stderr).toBe(0);
    expect(readFileSync(join(root, "app.txt"), "utf8")).toBe("v1\n");
  });

  it("are left loose where the repository turned git's automatic maintenance off", () => {
    const root = makeRepo([["maintenance.auto", "false"]]);
    writeFileSync(join(root, "app.txt"), "v1\n");
    expect(stop(root, "one").code).toBe(2);

    expect(looseIn17(root)).toBeGreaterThan(27);
    expect(existsSync(join(root, ".git/refs/continuation-loop/default/20"))).toBe(true);
  });
});
