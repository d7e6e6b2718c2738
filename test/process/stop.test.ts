import { appendFileSync, existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { makeProject, readHistory as history, runHook } from "../support/runHook.js";
import { assistant, jsonl, user } from "../support/transcriptLines.js";

const MARKER = "[SYSTEM REMINDER - CONTINUATION LOOP ACTIVE]";
const input = (root: string, over: object = {}) => ({
  session_id: "s1",
  cwd: root,
  hook_event_name: "Stop",
  stop_hook_active: false,
  last_assistant_message: "working",
  ...over,
});

describe("hooks/stop.js as a process", () => {
  it("no state file: exit 0, prints nothing", () => {
    const { root } = makeProject();
    const run = runHook("stop", input(root));
    expect(run).toMatchObject({ code: 0, stdout: "", stderr: "" });
  });

  it("continues with exit 2, the marker, n/max and the goal; saves the count", () => {
    const text =
      '---\n# my loop\nmax_iterations: 3   # cap\ncompletion_promise: "All tests passing"\n---\n\nFix the failing tests in test/auth.test.ts.\n';
    const { root, statePath, historyPath } = makeProject(text);
    const run = runHook("stop", input(root));
    expect(run.code).toBe(2);
    expect(run.stdout).toBe("");
    expect(run.stderr.startsWith(`${MARKER}\n`)).toBe(true);
    expect(run.stderr).toContain("iteration 2/3");
    expect(run.stderr).toContain("Fix the failing tests in test/auth.test.ts.");
    expect(run.stderr).toContain('"All tests passing"');
    const after = readFileSync(statePath, "utf8");
    expect(
      after.startsWith('---\n# my loop\nmax_iterations: 3   # cap\ncompletion_promise: "All tests passing"\n'),
    ).toBe(true);
    expect(after.endsWith("---\n\nFix the failing tests in test/auth.test.ts.\n")).toBe(true);
    expect(after).toMatch(/\niteration_count: 2\n/);
    expect(after).toMatch(/\nsession_id: "s1"\n/);
    expect(history(historyPath)).toEqual([
      expect.objectContaining({ decision: "continue", iteration: 1, session: "s1" }),
    ]);
  });

  it("stops exactly at max_iterations: N turns at most", () => {
    const { root, statePath, historyPath } = makeProject("---\nmax_iterations: 3\n---\nGoal\n");
    const codes = [1, 2, 3, 4].map(() => runHook("stop", input(root)).code);
    expect(codes).toEqual([2, 2, 0, 0]);
    expect(existsSync(statePath)).toBe(false);
    const records = history(historyPath);
    expect(records.at(-1)).toMatchObject({ decision: "end", reason: "max_iterations", iteration: 3, goal: "Goal\n" });
  });

  it("keeps a UTF-8 BOM, CRLF line ends, comments and the body byte for byte", () => {
    const { root, statePath } = makeProject();
    writeFileSync(
      statePath,
      Buffer.from("\uFEFF---\r\n# keep\r\nmax_iterations: 3 # cap\r\n---\r\nGoal \u00e9\r\n", "utf8"),
    );
    expect(runHook("stop", input(root)).code).toBe(2);
    const after = readFileSync(statePath);
    expect(after.subarray(0, 3)).toEqual(Buffer.from([0xef, 0xbb, 0xbf]));
    const text = after.toString("utf8");
    expect(text.startsWith("\uFEFF---\r\n# keep\r\nmax_iterations: 3 # cap\r\n")).toBe(true);
    expect(text).toContain("\r\niteration_count: 2\r\n");
    expect(text.endsWith("\r\n---\r\nGoal \u00e9\r\n")).toBe(true);
    expect(text.replace(/\r\n/g, "")).not.toContain("\n");
  });

  it("tells the user why the loop ended through systemMessage", () => {
    const { root } = makeProject("---\ncompletion_promise: All tests passing\n---\nGoal\n");
    const run = runHook("stop", input(root, { last_assistant_message: "Done: all TESTS   passing." }));
    expect(run.code).toBe(0);
    expect(run.json?.systemMessage).toMatch(/loop completed \(promise "All tests passing" seen\)/);
  });

  it("starts its record on a new line after a torn last history line, and leaves the fragment as it is", () => {
    const { root, historyPath } = makeProject();
    const cli = (...args: string[]) => runHook("cli", "", { cwd: root, args, env: { CLAUDE_PROJECT_DIR: root } });
    expect(cli("start", "--max-iterations", "2", "First goal").code).toBe(0);
    expect([1, 2].map(() => runHook("stop", input(root)).code)).toEqual([2, 0]);
    const torn = '{"time":"2026-11-30T04:00:00.000Z","state_fi';
    appendFileSync(historyPath, torn);
    expect(cli("start", "--max-iterations", "5", "Second goal").code).toBe(0);
    expect(runHook("stop", input(root)).code).toBe(2);
    const lines = readFileSync(historyPath, "utf8").split("\n");
    expect(lines.at(-3)).toBe(torn);
    expect(JSON.parse(lines.at(-2) ?? "")).toMatchObject({ decision: "continue", iteration: 1, goal: "Second goal\n" });
    expect(lines.at(-1)).toBe("");
    const all = cli("history", "--all", "--json").stdout.trim().split("\n");
    expect(JSON.parse(all.at(-1) ?? "")).toMatchObject({ decision: "continue", goal: "Second goal\n" });
  });

  it("leaves an invalid file byte-for-byte and explains where", () => {
    const text = "---\nmax_iterations: lots\n---\nGoal\n";
    const { root, statePath } = makeProject(text);
    const run = runHook("stop", input(root));
    expect(run.code).toBe(0);
    expect(run.stderr).toBe("");
    expect(run.json?.systemMessage).toContain(".claude/continuation-loop.local.md line 2: max_iterations");
    expect(run.json?.systemMessage).toContain("1 to 10000");
    expect(readFileSync(statePath, "utf8")).toBe(text);
  });

  it("names the line of a notes_file it refuses, as of every field it refuses", () => {
    const text = "---\nmax_iterations: 5\nnotes_file: ../NOTES.md\n---\nGoal\n";
    const { root, statePath } = makeProject(text);
    const run = runHook("stop", input(root));
    expect(run.code).toBe(0);
    expect(run.json?.systemMessage).toContain(".claude/continuation-loop.local.md line 3: notes_file:");
    expect(readFileSync(statePath, "utf8")).toBe(text);
  });

  it("a notes file a long loop grew past its bound: its head and its newest lines reach Claude, the middle left out", () => {
    const { root } = makeProject("---\nmax_iterations: 5000\nnotes_file: NOTES.md\n---\nGoal\n");
    const lines = Array.from(
      { length: 600 },
      (_, i) => `- iteration ${i + 1}: ${"tried a fix, kept it; ".repeat(3)}done`,
    );
    writeFileSync(join(root, "NOTES.md"), `# Plan\nKeep the API stable.\n${lines.join("\n")}\n`);
    const run = runHook("stop", input(root));
    expect(run.code).toBe(2);
    expect(run.stderr).toContain("# Plan\nKeep the API stable.\n- iteration 1: ");
    expect(run.stderr).toContain(`\n- iteration 600: ${"tried a fix, kept it; ".repeat(3)}done`);
    expect(run.stderr).toMatch(
      /… \(\d+ KiB left out here: the file is over 32 KiB; shorten what is done\)\n- iteration/,
    );
    expect(run.stderr).not.toContain("- iteration 300: ");
    expect(run.stderr.length).toBeLessThan(34 * 1024);
  });

  it("never touches another session's loop", () => {
    const text = "---\nsession_id: other\n---\nGoal\n";
    const { root, statePath, historyPath } = makeProject(text);
    const run = runHook("stop", input(root));
    expect(run).toMatchObject({ code: 0, stdout: "", stderr: "" });
    expect(readFileSync(statePath, "utf8")).toBe(text);
    expect(existsSync(historyPath)).toBe(false);
  });

  it("finds its own loop in a long frontmatter, whose owner line a claim put after the first 4 KiB", () => {
    const unowned = "---\nmax_iterations: 10\n---\nThe unowned loop's goal\n";
    const { root, statePath } = makeProject(unowned);
    const notes = Array.from({ length: 120 }, (_, i) => `# note ${i}: ${"why this limit was chosen ".repeat(2)}`);
    const own = `---\n${notes.join("\n")}\nmax_iterations: 10\nsession_id: "s1"\n---\nMy own goal\n`;
    expect(own.indexOf("session_id")).toBeGreaterThan(4096);
    const mine = join(root, ".claude", "continuation-loop.mine.local.md");
    writeFileSync(mine, own);
    const run = runHook("stop", input(root));
    expect(run.code).toBe(2);
    expect(run.stderr).toContain("My own goal");
    expect(readFileSync(statePath, "utf8")).toBe(unowned);
    expect(readFileSync(mine, "utf8")).toContain("iteration_count: 2");
  });

  it("a paused loop lets Claude stop and keeps the file", () => {
    const text = "---\nactive: false\n---\nGoal\n";
    const { root, statePath } = makeProject(text);
    expect(runHook("stop", input(root)).code).toBe(0);
    expect(readFileSync(statePath, "utf8")).toBe(text);
  });

  it("re-reads edits between stops: a lowered limit and a new goal take effect", () => {
    const { root, statePath } = makeProject("---\nmax_iterations: 10\n---\nOld goal\n");
    expect(runHook("stop", input(root)).stderr).toContain("Old goal");
    writeFileSync(statePath, readFileSync(statePath, "utf8").replace("Old goal", "New goal"));
    expect(runHook("stop", input(root)).stderr).toContain("New goal");
    writeFileSync(statePath, readFileSync(statePath, "utf8").replace("max_iterations: 10", "max_iterations: 3"));
    expect(runHook("stop", input(root)).code).toBe(0);
    expect(existsSync(statePath)).toBe(false);
  });

  it("max_iterations lowered under the count: status and the end line show 0 left, never fewer", () => {
    const { root, statePath } = makeProject("---\nmax_iterations: 10\niteration_count: 6\n---\nGoal\n");
    expect(runHook("stop", input(root)).code).toBe(2);
    writeFileSync(statePath, readFileSync(statePath, "utf8").replace("max_iterations: 10", "max_iterations: 5"));
    const status = runHook("cli", "", { cwd: root, args: ["status"] });
    expect(status.stdout).toContain("iterations 7/5 (0 left)");
    const end = runHook("stop", input(root));
    expect(String(end.json?.systemMessage)).toContain("Limits: iterations 7/5 (0 left)");
    expect(`${status.stdout}${end.stdout}`).not.toMatch(/-\d+ left/);
  });

  it("uses CLAUDE_PROJECT_DIR over the input cwd, and CONTINUATION_LOOP_FILE over the default", () => {
    const { root } = makeProject("---\n---\nGoal A\n");
    const elsewhere = makeProject();
    const run = runHook("stop", input(elsewhere.root), { env: { CLAUDE_PROJECT_DIR: root } });
    expect(run.stderr).toContain("Goal A");
    writeFileSync(join(root, "custom.md"), "---\n---\nGoal B\n");
    const custom = runHook("stop", input(root), { env: { CONTINUATION_LOOP_FILE: "custom.md" } });
    expect(custom.stderr).toContain("Goal B");
  });

  it("reads the reply from the end of the transcript when last_assistant_message is absent", () => {
    const { root } = makeProject("---\ncompletion_promise: SHIP IT\n---\nGoal\n");
    const transcript = join(root, "t.jsonl");
    const lines = [
      { type: "user", message: { role: "user", content: "please say SHIP IT" } },
      {
        type: "assistant",
        message: {
          id: "m1",
          role: "assistant",
          model: "claude-x",
          content: [{ type: "text", text: "Not yet." }],
          usage: { output_tokens: 7 },
        },
      },
    ];
    writeFileSync(transcript, `${lines.map((l) => JSON.stringify(l)).join("\n")}\n{"type":"assistant","mess`);
    const run = runHook("stop", input(root, { last_assistant_message: undefined, transcript_path: transcript }));
    expect(run.code).toBe(2);
    writeFileSync(
      transcript,
      `${lines.map((l) => JSON.stringify(l)).join("\n")}\n${JSON.stringify({ type: "assistant", message: { id: "m2", role: "assistant", content: [{ type: "text", text: "ship it" }], usage: { output_tokens: 3 } } })}\n`,
    );
    const done = runHook("stop", input(root, { last_assistant_message: undefined, transcript_path: transcript }));
    expect(done.code).toBe(0);
    expect(done.json?.systemMessage).toContain("completed");
  });

  it("counts the turns of a transcript that did not exist yet at the first stop", () => {
    const { root, historyPath } = makeProject("---\nmax_iterations: 5\n---\nGoal\n");
    const transcript = join(root, "late.jsonl");
    // Stop 1: Claude Code has not written the transcript yet (a new session): nothing to count.
    expect(runHook("stop", input(root, { transcript_path: transcript, last_assistant_message: "one" })).code).toBe(2);
    writeFileSync(
      transcript,
      jsonl(
        user("go"),
        assistant("m1", "one", 11),
        { type: "user", isMeta: true, message: { role: "user", content: "Stop hook feedback: ..." } },
        assistant("m2", "two", 22),
      ),
    );
    expect(runHook("stop", input(root, { transcript_path: transcript, last_assistant_message: "two" })).code).toBe(2);
    expect(history(historyPath).map((h) => h.output_tokens)).toEqual([0, 33]);
  });

  it.each([
    ["empty stdin", ""],
    ["not JSON", "hello"],
    ["truncated JSON", '{"session_id": "s1", "cwd": '],
    ["wrong types", '{"session_id": 5, "cwd": 7}'],
    ["a JSON array", "[1,2]"],
  ])("bad stdin (%s) with a loop present: exit 0, message, file untouched", (_name, stdin) => {
    const text = "---\nmax_iterations: 3\n---\nGoal\n";
    const { root, statePath } = makeProject(text);
    const run = runHook("stop", stdin, { env: { CLAUDE_PROJECT_DIR: root } });
    expect(run.code).toBe(0);
    expect(run.stderr).not.toMatch(/at .*\.js:\d+/);
    expect(run.json?.systemMessage).toMatch(/hook input/);
    expect(readFileSync(statePath, "utf8")).toBe(text);
  });
});
