// Checkpoints, scope and the unchanged-turn check in repositories as people have them (docs/REFERENCE.md
// "Checkpoints"): a .gitattributes filter whose program is not installed.
import { execFileSync } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { makeProject, runHook } from "../support/runHook.js";

const git = (root: string, ...args: string[]) =>
  execFileSync("git", ["-c", "user.name=t", "-c", "user.email=t@t", ...args], { cwd: root, encoding: "utf8" });
const stop = (root: string) =>
  runHook("stop", { session_id: "s1", cwd: root, hook_event_name: "Stop", last_assistant_message: "working" });

describe("a .gitattributes filter whose program is not installed", () => {
  it("checkpoints are skipped, said once naming the filter; scope still sees changes, in and outside it", () => {
    const { root } = makeProject("---\nmax_iterations: 10\ncheckpoints: true\nscope: [src]\n---\nGoal\n");
    mkdirSync(join(root, "src"));
    mkdirSync(join(root, "docs"));
    writeFileSync(join(root, ".gitignore"), ".claude/\n");
    // As a clone of a Git LFS repository on a machine without git-lfs: the filter is configured and required.
    writeFileSync(join(root, ".gitattributes"), "*.bin filter=lfs diff=lfs merge=lfs -text\n");
    writeFileSync(join(root, "src/a.ts"), "a\n");
    git(root, "init", "-q");
    git(root, "add", "-A");
    git(root, "commit", "-qm", "base");
    const program = "continuation-loop-test-no-such-filter";
    git(root, "config", "filter.lfs.process", `${program} filter-process`);
    git(root, "config", "filter.lfs.clean", `${program} clean -- %f`);
    git(root, "config", "filter.lfs.required", "true");

    writeFileSync(join(root, "src/model.bin"), "weights 1\n");
    const first = stop(root);
    expect(first.code, first.stdout).toBe(2);
    const told = String(first.json?.systemMessage);
    expect(told).toContain(`filter "lfs" runs ${program}, which is not installed`);
    expect(told).toContain("checkpoints: false");

    writeFileSync(join(root, "src/model.bin"), "weights 2\n");
    const second = stop(root);
    expect(second.code, second.stdout).toBe(2);
    expect(second.json?.systemMessage).toBeUndefined();
    expect(git(root, "for-each-ref", "refs/continuation-loop")).toBe("");

    // A filtered file outside scope is still seen.
    writeFileSync(join(root, "docs/plot.bin"), "plot\n");
    const paused = stop(root);
    expect(paused.code).toBe(0);
    expect(String(paused.json?.systemMessage)).toContain("changed outside scope (src): docs/plot.bin");
  });
});
