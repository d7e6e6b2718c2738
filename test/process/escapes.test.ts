// A loop whose goal and `until` output hold escape sequences, through the bundled hooks: Claude (and the
// person's screen, where Claude Code shows the continuation) gets text; the state file keeps its bytes.
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { makeProject, runHook } from "../support/runHook.js";
import { runCli } from "./support/cli.js";

const CONTROL = /[\x00-\x08\x0b-\x1f\x7f-\x9f]/;
const GOAL = "Fix the build\x1b[2J\x1b[H now \x1b]0;PWNED\x07and \x1b]52;c;cHduZWQ=\x07ship\r\n50%\r100%\x08\x07\n";
/** A red failure line and a progress bar redrawn 2,000 times, as a test runner with colour forced prints them. */
const UNTIL =
  "printf 'step 1 ok\\n'; i=0; while [ $i -lt 2000 ]; do printf '\\r\\033[2Kdownloading %d' $i; i=$((i+1)); done; printf '\\n\\033[31mFAIL\\033[39m sum.test.ts \\033[2m>\\033[22m adds\\n'; exit 1";

describe("hooks/stop.js with escape sequences in the loop's data", () => {
  it("continues with the goal and the until output as text, and keeps the state file's bytes", () => {
    const text = `---\nmax_iterations: 5\nuntil: ${JSON.stringify(UNTIL)}\n---\n${GOAL}`;
    const { root, statePath } = makeProject(text);
    const run = runHook("stop", { session_id: "s1", cwd: root, hook_event_name: "Stop", stop_hook_active: false });
    expect(run.code).toBe(2);
    expect(run.stderr).not.toMatch(CONTROL);
    // The goal keeps its lines (a lone CR ends one there): only the escapes and controls are gone.
    expect(run.stderr).toContain("Goal:\nFix the build now and ship\n50%\n100%\n");
    expect(run.stderr).toContain("step 1 ok\ndownloading 1999\nFAIL sum.test.ts > adds");
    // The Stop added its count, session and start to the frontmatter: the rest is the file as it was, byte for byte.
    const after = readFileSync(statePath);
    const body = Buffer.from(`---\n${GOAL}`, "utf8");
    expect(after.subarray(after.length - body.length).equals(body), after.toString("utf8")).toBe(true);
    expect(after.toString("utf8").startsWith(`---\nmax_iterations: 5\nuntil: ${JSON.stringify(UNTIL)}\n`)).toBe(true);
    expect(after.toString("utf8")).toMatch(/\niteration_count: 2\n---\n/);
  });

  it("gives the goal again as text after a compaction and after a rewind", () => {
    const { root } = makeProject(`---\nmax_iterations: 5\n---\n${GOAL}`);
    const stop = runHook("stop", { session_id: "s1", cwd: root, hook_event_name: "Stop", stop_hook_active: false });
    expect(stop.code).toBe(2);
    const compacted = runHook("session", {
      session_id: "s1",
      cwd: root,
      hook_event_name: "SessionStart",
      source: "compact",
    });
    const rewound = runHook(
      "prompt",
      { session_id: "s1", cwd: root, hook_event_name: "UserPromptSubmit", prompt: stop.stderr },
      { env: { CONTINUATION_LOOP_REWOUND: "1" } },
    );
    for (const run of [compacted, rewound]) {
      const output = run.json?.hookSpecificOutput as { additionalContext?: string } | undefined;
      expect(output?.additionalContext, run.stdout + run.stderr).toContain("Fix the build now and ship\n50%\n100%");
      expect(output?.additionalContext).not.toMatch(CONTROL);
    }
  });
});

describe("a loop's data with bidi overrides and isolates", () => {
  const BIDI = /[\u202a-\u202e\u2066-\u2069]/;
  // An override left open reverses the rest of its line in a terminal with bidi, past the text that held it.
  const GOAL = "Rename report\u202e.txt\u202c files \u2067fast\u2069 and \u05e9\u05dc\u05d5\u05dd\u200f keep Hebrew\n";

  it("reaches Claude and the person's terminal without them, the Hebrew and its mark kept; the file keeps its bytes", () => {
    const text = `---\nmax_iterations: 5\n---\n${GOAL}`;
    const { root, statePath } = makeProject(text);
    const stop = runHook("stop", { session_id: "s1", cwd: root, hook_event_name: "Stop", stop_hook_active: false });
    expect(stop.code).toBe(2);
    expect(stop.stderr).not.toMatch(BIDI);
    expect(stop.stderr).toContain("Rename report.txt files fast and \u05e9\u05dc\u05d5\u05dd\u200f keep Hebrew");
    const status = runCli(["status"], { cwd: root });
    expect(status.code, status.stderr).toBe(0);
    expect(status.stdout).toContain("Rename report.txt files fast");
    expect(status.stdout + status.stderr).not.toMatch(BIDI);
    expect(readFileSync(statePath, "utf8").endsWith(`---\n${GOAL}`)).toBe(true);
  });
});
