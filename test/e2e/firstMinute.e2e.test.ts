// The first minute (README "Quick start") through the real Claude Code CLI on both pinned versions:
// /loop-start with no condition ends on <promise>DONE</promise>; a hand-written file with no promise
// runs to its limit; --until completes a loop, its failure reaching Claude first; a committed `until`
// never runs.
import { execFileSync } from "node:child_process";
import { randomUUID } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { LOOP_MARKER, type LoopProject, PLUGIN_DIR } from "./support/loopProject.js";
import { type Script, text } from "./support/messagesServer.js";
import { lastUserText } from "./support/requestText.js";
import { CLAUDE_VERSIONS, describeRun, runClaude } from "./support/runClaude.js";
import { perTest } from "./support/perTest.js";
import { itOnNewest } from "./support/pins.js";

const t = perTest();

/** Fails its first run with a test failure on its output, passes from the second (counted in .attempts). */
const CHECK = [
  "n=$(cat .attempts 2>/dev/null || echo 0); n=$((n+1)); echo $n > .attempts",
  'if [ "$n" -ge 2 ]; then echo "all 12 tests pass"; exit 0; fi',
  'echo "FAIL test/auth.test.ts: expected 200, got 500"; exit 1',
].join("\n");

describe.each(CLAUDE_VERSIONS)("Claude Code %s: the first minute", (version) => {
  async function run(prompt: string, script: Script, setup?: (p: LoopProject) => void) {
    const p = t.project();
    setup?.(p);
    const server = await t.server(script);
    const r = await runClaude({
      version,
      prompt,
      baseUrl: server.url,
      cwd: p.proj,
      home: p.home,
      pluginDirs: [PLUGIN_DIR],
      sessionId: randomUUID(),
      allowedTools: [],
    });
    expect(r.code, describeRun(r)).toBe(0);
    expect(server.exhausted, "the loop ran past the scripted replies").toBe(false);
    return { p, sent: server.mainRequests.map((req) => lastUserText(req)), end: p.history().at(-1) };
  }

  it("a loop started with no condition ends when Claude writes <promise>DONE</promise>, not at its limit", async () => {
    const { p, sent, end } = await run("/continuation-loop:loop-start Fix the failing tests", [
      text("Done, all fixed."),
      text("All fixed and checked.\n<promise>DONE</promise>"),
      text("never sent"),
    ]);
    expect(sent).toHaveLength(2);
    expect(sent[1]).toContain(LOOP_MARKER);
    expect(sent[1]).toContain("<promise>DONE</promise>");
    expect(end).toMatchObject({ decision: "end", reason: "completed", iteration: 2, promise: "DONE" });
    expect(p.readState()).toBeUndefined();
  });

  it("a hand-written file with no promise runs to its limit, whatever Claude writes", async () => {
    const { sent, end } = await run(
      "go",
      [text("<promise>DONE</promise>"), text("<promise>DONE</promise>"), text("DONE"), text("never sent")],
      (p) => p.writeState("---\nmax_iterations: 3\n---\nKeep improving the docs.\n"),
    );
    expect(sent).toHaveLength(3);
    expect(sent[1]).toContain("There is no completion phrase");
    expect(end).toMatchObject({ decision: "end", reason: "max_iterations", iteration: 3 });
  });

  it("--until completes the loop when the command passes; its failure reaches Claude first", async () => {
    const { p, sent, end } = await run(
      '/continuation-loop:loop-start --until "sh ./check.sh" Fix the failing tests',
      [text("Fixed the handler."), text("Fixed the rest."), text("never sent")],
      (p) => fs.writeFileSync(path.join(p.proj, "check.sh"), CHECK),
    );
    expect(sent).toHaveLength(2);
    // The continuation Claude receives after the first stop: the command, its status, its output.
    expect(sent[1]).toContain(LOOP_MARKER);
    expect(sent[1]).toContain("the until command `sh ./check.sh` exited with status 1");
    expect(sent[1]).toContain("FAIL test/auth.test.ts: expected 200, got 500");
    expect(p.history()[0]).toMatchObject({
      decision: "continue",
      iteration: 1,
      until_failure: "`sh ./check.sh` exited with status 1",
    });
    expect(end).toMatchObject({ decision: "end", reason: "completed", iteration: 2 });
    expect(end).not.toHaveProperty("promise");
    expect(fs.readFileSync(path.join(p.proj, ".attempts"), "utf8").trim()).toBe("2");
  });

  itOnNewest(version)("a committed state file never runs its until command", async () => {
    const git = (cwd: string, ...args: string[]) =>
      execFileSync("git", ["-c", "user.name=t", "-c", "user.email=t@t", ...args], { cwd, stdio: "pipe" });
    const { p, sent } = await run("go", [text("Looked around."), text("never sent")], (p) => {
      p.writeState('---\nmax_iterations: 5\nuntil: "touch ran-until.txt"\n---\nFix everything.\n');
      git(p.proj, "init", "-q");
      git(p.proj, "add", "-f", ".claude/continuation-loop.local.md");
      git(p.proj, "commit", "-qm", "a loop that came with the repository");
    });
    // The session ended after its one Stop, which recorded its refusal: the command never ran.
    expect(sent).toHaveLength(1);
    expect(p.history()).toEqual([expect.objectContaining({ decision: "refused", reason: "tracked_by_git" })]);
    expect(fs.existsSync(path.join(p.proj, "ran-until.txt"))).toBe(false);
    expect(p.readState()).toContain("until:");
  });
});
