// stall_limit outside a git repository through the real CLI (docs/REFERENCE.md "How a loop ends"): every turn runs
// a Bash call and ends with the same short reply. Other commands each turn are work and the loop runs to its
// limit; the same command each turn stalls.
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { text, toolUse } from "./support/messagesServer.js";
import { PLUGIN_DIR } from "./support/loopProject.js";
import { CLAUDE_VERSIONS, describeRun, runClaude } from "./support/runClaude.js";
import { perTest } from "./support/perTest.js";

const t = perTest();

/** Is any folder from `dir` up a git repository? */
function insideGit(dir: string): boolean {
  for (let d = dir; ; d = path.dirname(d)) {
    if (fs.existsSync(path.join(d, ".git"))) return true;
    if (path.dirname(d) === d) return false;
  }
}

describe.each(CLAUDE_VERSIONS)("Claude Code %s", (version) => {
  /** Each iteration: a Bash call (`commandOf(k)`), then the reply "Done.". The loop's history. */
  async function runLoop(commandOf: (k: number) => string, maxIterations: number) {
    const p = t.project();
    expect(insideGit(p.proj)).toBe(false);
    p.writeState(`---\nmax_iterations: ${maxIterations}\nstall_limit: 2\n---\n\nKeep the build green.\n`);
    const server = await t.server((_req, index) => {
      const k = Math.floor(index / 2) + 1;
      if (k > maxIterations) return text("never sent");
      return index % 2 === 0 ? toolUse("Bash", { command: commandOf(k) }) : text("Done.");
    });
    const r = await runClaude({
      version,
      prompt: "start",
      baseUrl: server.url,
      cwd: p.proj,
      home: p.home,
      pluginDirs: [PLUGIN_DIR],
      allowedTools: ["Bash(echo:*)"],
    });
    expect(r.code, describeRun(r)).toBe(0);
    expect(server.exhausted, "the loop ran past the scripted replies").toBe(false);
    return p.history();
  }

  it("other commands each turn with the same reply run the loop to max_iterations", async () => {
    const history = await runLoop((k) => `echo step ${k}`, 5);
    expect(history.at(-1)).toMatchObject({ decision: "end", reason: "max_iterations", iteration: 5 });
  });

  it("the same command each turn with the same reply stalls", async () => {
    const history = await runLoop(() => "echo same", 8);
    // Iteration 2 repeats the reply, its calls first read; iterations 3 and 4 repeat both.
    expect(history.at(-1)).toMatchObject({ decision: "end", reason: "stalled", iteration: 4 });
  });
});
