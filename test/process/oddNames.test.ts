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
const stop = (root: string, reply = "working") =>
  runHook("stop", { session_id: "s1", cwd: root, hook_event_name: "Stop", last_assistant_message: reply });
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
