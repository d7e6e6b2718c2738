// Notes and checklist files that are no text or no file (docs/REFERENCE.md "Messages you may see"), and a reply
// of megabytes, through the bundled Stop hook: the hook ends by itself, says what is wrong, and changes no byte
// of the state file when it refuses.
import { spawnSync } from "node:child_process";
import { closeSync, ftruncateSync, mkdirSync, openSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { makeProject, runHook } from "../support/runHook.js";

const stop = (root: string, reply = "working") =>
  runHook("stop", { session_id: "s1", cwd: root, hook_event_name: "Stop", last_assistant_message: reply });

/** A file's stand-ins, put at `path`. */
const makers: Record<string, (path: string) => void> = {
  "UTF-16 LE (Notepad's Unicode)": (path) =>
    writeFileSync(path, Buffer.from("\uFEFF- [ ] Write the tests\r\n", "utf16le")),
  "binary (a 1 GiB sparse file)": (path) => {
    const fd = openSync(path, "w");
    ftruncateSync(fd, 1024 ** 3);
    closeSync(fd);
  },
  "a folder": (path) => mkdirSync(path),
  "a FIFO": (path) => expect(spawnSync("mkfifo", [path]).status).toBe(0),
  "a symlink loop": (path) => {
    symlinkSync(`${path}.b`, path);
    symlinkSync(path, `${path}.b`);
  },
};
const said: Record<string, RegExp> = {
  "UTF-16 LE (Notepad's Unicode)": /is UTF-16 LE \(Notepad's "Unicode"\) text, not UTF-8 text/,
  "binary (a 1 GiB sparse file)": /is binary data \(it holds NUL bytes\), not UTF-8 text/,
  "a folder": /it is not a regular file \(a folder or a pipe\)/,
  "a FIFO": /it is not a regular file \(a folder or a pipe\)/,
  "a symlink loop": /it cannot be opened \(ELOOP: a symlink loop\)/,
};

describe.concurrent("a checklist that is no text or no file: refused, saying why, the state file untouched", () => {
  for (const [what, make] of Object.entries(makers)) {
    it(what, () => {
      const { root, statePath } = makeProject("---\nmax_iterations: 10\nchecklist: PLAN.md\n---\nGoal\n");
      make(join(root, "PLAN.md"));
      const before = readFileSync(statePath);
      const run = stop(root);
      expect(run.code).toBe(0);
      const message = String(run.json?.systemMessage);
      expect(message).toMatch(
        /^continuation-loop: \.claude\/continuation-loop\.local\.md line 3: checklist: the checklist /,
      );
      expect(message).toMatch(said[what]!);
      expect(readFileSync(statePath).equals(before)).toBe(true);
    });
  }
});

describe.concurrent("doctor on a loop whose checklist the Stop hook refuses: a failure, saying why", () => {
  for (const what of ["UTF-16 LE (Notepad's Unicode)", "a FIFO"]) {
    it(what, () => {
      const { root } = makeProject("---\nmax_iterations: 10\nchecklist: PLAN.md\n---\nGoal\n");
      makers[what]!(join(root, "PLAN.md"));
      const doctor = runHook("cli", "", { cwd: root, env: { CLAUDE_PROJECT_DIR: root }, args: ["doctor"] });
      expect(doctor.code).toBe(1);
      expect(doctor.stdout).toMatch(/^ {2}FAIL {2}\.claude\/continuation-loop\.local\.md: checklist: the checklist /m);
      expect(doctor.stdout).toMatch(said[what]!);
    });
  }
});

describe.concurrent("a notes file that is no text or no file: Claude is told why in place of the notes", () => {
  for (const [what, make] of Object.entries(makers)) {
    it(what, () => {
      const { root } = makeProject("---\nmax_iterations: 10\nnotes_file: NOTES.md\n---\nGoal\n");
      make(join(root, "NOTES.md"));
      const run = stop(root);
      expect(run.code).toBe(2);
      expect(run.stderr).toMatch(/Notes \(NOTES\.md\)[^\n]*:\n\(not shown: [^\n]*\)\n/);
      expect(run.stderr).toMatch(said[what]!);
      expect(run.stderr).not.toContain("\u0000");
    });
  }
});

describe("a Stop whose session_id is blank", () => {
  it.each(["", " ", "\u2028"])("%j: the loop goes on unclaimed, never with a session_id it would refuse", (id) => {
    const { root, statePath } = makeProject("---\nmax_iterations: 10\n---\nGoal\n");
    const blank = () =>
      runHook("stop", { session_id: id, cwd: root, hook_event_name: "Stop", last_assistant_message: "working" });
    expect(blank().code).toBe(2);
    expect(readFileSync(statePath, "utf8")).not.toContain("session_id");
    const again = blank();
    expect(again.code).toBe(2);
    expect(again.stdout).toBe("");
    expect(readFileSync(statePath, "utf8")).toMatch(/^iteration_count: 3$/m);
  });
});

describe("a state file saved as UTF-16 (Notepad's Unicode)", () => {
  it("is refused naming its encoding, never rewritten; stop moves it aside and keeps its goal as text", () => {
    const { root, statePath, historyPath } = makeProject();
    const bytes = Buffer.from("\uFEFF---\r\nmax_iterations: 3\r\n---\r\nFix the caf\u00e9 tests.\r\n", "utf16le");
    writeFileSync(statePath, bytes);
    const refused = stop(root);
    expect(refused.code).toBe(0);
    expect(String(refused.json?.systemMessage)).toContain("line 1: the file is UTF-16 LE text, not UTF-8");
    expect(readFileSync(statePath).equals(bytes)).toBe(true);

    const stopped = runHook("cli", "", { cwd: root, env: { CLAUDE_PROJECT_DIR: root }, args: ["stop"] });
    expect(stopped.code).toBe(0);
    expect(stopped.stdout).toContain("moved aside unchanged");
    expect(stopped.stdout).toContain('(goal: "Fix the café tests."');
    const aside = /moved aside unchanged to (\S+) /.exec(stopped.stdout)?.[1] ?? "";
    expect(readFileSync(join(root, aside)).equals(bytes)).toBe(true);
    const record = JSON.parse(readFileSync(historyPath, "utf8").trim().split("\n").at(-1) ?? "{}");
    expect(record).toMatchObject({ reason: "stopped", goal: "Fix the café tests.\r\n" });
  });
});
