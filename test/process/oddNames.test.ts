// Names people really have, in the project's path and the files Claude edits: quotes, shell characters, glob
// characters, line breaks, non-ASCII letters in NFC and NFD (docs/REFERENCE.md "Names with odd characters").
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { readHistory, runHook } from "../support/runHook.js";

const git = (cwd: string, ...args: string[]) =>
  execFileSync("git", ["-c", "user.name=t", "-c", "user.email=t@t", ...args], { cwd, encoding: "utf8" });
const stop = (root: string, reply = "working", env: Record<string, string> = {}) =>
  runHook("stop", { session_id: "s1", cwd: root, hook_event_name: "Stop", last_assistant_message: reply }, { env });
const STATE = ".claude/continuation-loop.local.md";

/** A repository of several projects, each folder's loop file written; `tracked`: the folders whose loop file git tracks. */
function makeMonorepo(folders: string[], tracked: string[]): string {
  const top = mkdtempSync(join(tmpdir(), "cl-names-"));
  git(top, "init", "-q", "-b", "main");
  for (const folder of folders) {
    mkdirSync(join(top, folder, ".claude"), { recursive: true });
    writeFileSync(join(top, folder, STATE), "---\nmax_iterations: 5\n---\nWork in this folder.\n");
  }
  writeFileSync(join(top, "a.txt"), "a\n");
  git(top, "add", "a.txt", ...tracked.map((folder) => `${folder}/${STATE}`));
  git(top, "commit", "-qm", "base");
  return top;
}

describe("a project folder named with glob characters", () => {
  it("runs its own loop beside a folder the name would match as a pattern, whose loop file git tracks", () => {
    for (const [own, other] of [
      ["pkg[1]", "pkg1"],
      ["app*", "apps"],
      ["what?", "whatx"],
    ] as const) {
      const top = makeMonorepo([own, other], [other]);
      const root = join(top, own);
      const run = stop(root);
      expect(run.code, `${own}: ${run.stdout}${run.stderr}`).toBe(2);
      expect(readHistory(join(root, ".claude/continuation-loop.history.jsonl")).at(-1)).toMatchObject({
        decision: "continue",
      });
      // The tracked one beside it is still refused.
      expect(stop(join(top, other)).code).toBe(0);
      expect(existsSync(join(top, "pwned"))).toBe(false);
    }
  });
});

describe("a loop file pinned at a path with glob characters (CONTINUATION_LOOP_FILE)", () => {
  it("is left out of the stall check's tree, as at any other path: the same turns stall", () => {
    const root = mkdtempSync(join(tmpdir(), "cl-names-"));
    git(root, "init", "-q", "-b", "main");
    writeFileSync(join(root, "a.txt"), "a\n");
    git(root, "add", "a.txt");
    git(root, "commit", "-qm", "base");
    mkdirSync(join(root, "loops"));
    const pinned = "loops/[wip] loop*?.md";
    writeFileSync(join(root, pinned), "---\nmax_iterations: 50\nstall_limit: 2\n---\nKeep working.\n");
    const codes = [1, 2, 3, 4].map(() => stop(root, "Same reply.", { CONTINUATION_LOOP_FILE: pinned }).code);
    // Turn 2 reads the tree first, turns 3 and 4 find it the same.
    expect(codes).toEqual([2, 2, 2, 0]);
  });
});

describe("a loop file named by hand with a name no loop has", () => {
  it("doctor names each such file and the names a loop may have; a loop's own file is no warning", () => {
    const root = mkdtempSync(join(tmpdir(), "cl-names-"));
    mkdirSync(join(root, ".claude"));
    const stray = [
      "continuation-loop.caf\u00e9.local.md",
      "continuation-loop.cafe\u0301.local.md",
      "continuation-loop.my loop.local.md",
      "continuation-loop.$(touch pwned).local.md",
      "continuation-loop.line\nbreak.local.md",
    ];
    for (const name of [...stray, "continuation-loop.ok.local.md"])
      writeFileSync(join(root, ".claude", name), "---\nmax_iterations: 3\n---\nGoal\n");
    const run = runHook("cli", "", { cwd: root, args: ["doctor"], env: { HOME: join(root, "home") } });
    const warned = run.stdout.split("\n").filter((line) => line.includes("is no loop's state file"));
    expect(warned, run.stdout).toHaveLength(stray.length);
    for (const name of stray.slice(0, -1)) expect(run.stdout).toContain(`.claude/${name} is no loop's state file`);
    // One line per file: a line break in the name is shown escaped, in quotes.
    expect(run.stdout).toContain('".claude/continuation-loop.line\\nbreak.local.md" is no loop\'s state file');
    expect(warned[0]).toContain("1 to 40 characters of a-z, 0-9 and -");
    expect(run.stdout).not.toContain("continuation-loop.ok.local.md is no loop's");
    expect(existsSync(join(root, "pwned"))).toBe(false);
  });
});
