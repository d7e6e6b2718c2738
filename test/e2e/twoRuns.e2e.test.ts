// Two `continuation-loop run` in one project, and `run` beside a person's session, through the real Claude Code
// CLI: one loop has one driver; the other is refused at once (exit 2) naming who drives it.
import { describe, expect, it } from "vitest";
import { type MessagesServer, text } from "./support/messagesServer.js";
import { type LoopProject, PLUGIN_DIR } from "./support/loopProject.js";
import { type RunCommand, startRunCommand } from "./support/runCommand.js";
import { type ClaudeVersion, NEWEST, runClaude } from "./support/runClaude.js";
import { perTest } from "./support/perTest.js";

const t = perTest();

/** A scripted model whose n-th request (from 1) gets `reply(n)`; the `holdAt`-th waits until `release()`. */
async function scriptedModel(reply: (n: number) => string, holdAt: number) {
  let reached!: () => void;
  let release!: () => void;
  const at = new Promise<void>((resolve) => {
    reached = resolve;
  });
  const released = new Promise<void>((resolve) => {
    release = resolve;
  });
  let n = 0;
  const server = await t.server(async () => {
    n++;
    if (n === holdAt) {
      reached();
      await released;
    }
    return text(reply(n));
  });
  t.onEnd(() => release());
  return { server, at, release };
}

/** The Stop decisions of one loop, in order: `iteration:decision`. */
const stops = (p: LoopProject, stateFile: string) =>
  p
    .history()
    .filter((h) => h.state_file === stateFile && ["continue", "end", "pause"].includes(String(h.decision)))
    .map((h) => `${String(h.iteration)}:${String(h.decision)}`);

const DEFAULT = ".claude/continuation-loop.local.md";
const parts = (n: number) => (n >= 3 ? "<promise>DONE</promise>" : `part ${n}`);

// Who drives a loop is the product's own rule (the state file's lock, the driver's pid): run on the newest pin;
// run.e2e.test.ts runs `run` itself, and a second run beside the first, on both.
describe.each([NEWEST])("Claude Code %s", (version: ClaudeVersion) => {
  const run = (p: LoopProject, server: MessagesServer, args: string[]): RunCommand =>
    startRunCommand(version, { cwd: p.proj, dir: p.root, baseUrl: server.url, home: p.home, args });

  /** Two runs started together: the one refused, the one that drives. */
  async function startTogether(p: LoopProject, server: MessagesServer, args: string[]) {
    const runs = [run(p, server, args), run(p, server, args)];
    const first = await Promise.race(runs.map((r, i) => r.done.then(() => i)));
    return { refused: runs[first] as RunCommand, driver: runs[1 - first] as RunCommand };
  }

  it.each([
    ["the same --name", ["--name", "x"], ".claude/continuation-loop.x.local.md"],
    ["no --name (the same command twice)", [], DEFAULT],
  ])(
    "two `run GOAL` at the same moment with %s: one drives, the other exits 2 at once naming it; one Claude Code, each iteration once",
    async (_, name, stateFile) => {
      const p = t.project({ killProcesses: true });
      const { server, at, release } = await scriptedModel(parts, 1);
      const { refused, driver } = await startTogether(p, server, [...name, "--max-iterations", "5", "Write parts"]);
      const no = await refused.done;
      await at;
      release();
      const done = await driver.done;

      expect(no.code, no.stderr).toBe(2);
      expect(no.stderr).toContain(`driven by continuation-loop run (pid ${driver.pid}), which still runs`);
      expect(no.stderr.trim().split("\n")).toHaveLength(1);
      expect(done.code, done.stderr).toBe(0);
      expect(refused.claudePids()).toEqual(driver.claudePids());
      expect(driver.claudePids()).toHaveLength(1);
      expect(stops(p, stateFile)).toEqual(["1:continue", "2:continue", "3:end"]);
      expect(new Set(p.history().map((h) => h.state_file))).toEqual(new Set([stateFile]));
    },
  );

  it("`run --name other GOAL` beside a run: two loops, two drivers, neither continues the other's", async () => {
    const p = t.project({ killProcesses: true });
    const { server, at, release } = await scriptedModel((n) => `part ${n}`, 1);
    const first = run(p, server, ["--max-iterations", "3", "Write parts"]);
    await at;
    const second = run(p, server, ["--name", "other", "--max-iterations", "3", "Write parts"]);
    release();
    const [a, b] = await Promise.all([first.done, second.done]);

    expect([a.code, b.code], `${a.stderr}\n${b.stderr}`).toEqual([1, 1]);
    const other = ".claude/continuation-loop.other.local.md";
    expect(stops(p, DEFAULT)).toEqual(["1:continue", "2:continue", "3:end"]);
    expect(stops(p, other)).toEqual(["1:continue", "2:continue", "3:end"]);
    const sessions = (file: string) =>
      new Set(
        p
          .history()
          .filter((h) => h.state_file === file)
          .map((h) => h.session),
      );
    expect(sessions(DEFAULT).size).toBe(1);
    expect(sessions(other).size).toBe(1);
    expect([...sessions(DEFAULT)]).not.toEqual([...sessions(other)]);
  });

  it("`run` beside a session that owns the default loop: with no goal and with `--name default GOAL`, exit 2 naming the session; the session's loop goes on", async () => {
    const p = t.project({ killProcesses: true });
    const { server, at, release } = await scriptedModel(parts, 1);
    const session = runClaude({
      version,
      prompt: "/continuation-loop:loop-start --max-iterations 5 Write parts",
      baseUrl: server.url,
      cwd: p.proj,
      home: p.home,
      pluginDirs: [PLUGIN_DIR],
    });
    await at;
    const owner = /session_id: "?([\w-]+)/.exec(p.readState() ?? "")?.[1];
    const takeOver = await run(p, server, []).done;
    const replace = await run(p, server, ["--name", "default", "Other goal"]).done;
    release();
    const s = await session;

    for (const refused of [takeOver, replace]) {
      expect(refused.code, refused.stderr).toBe(2);
      expect(refused.stderr).toContain(`session ${owner}`);
    }
    expect(s.code, s.stderr).toBe(0);
    expect(stops(p, DEFAULT)).toEqual(["1:continue", "2:continue", "3:end"]);
  });

  it("/loop-start of the loop a run drives: refused naming the run; with --force the session's loop replaces it and that run ends (exit 1)", async () => {
    const p = t.project({ killProcesses: true });
    const { server, at, release } = await scriptedModel((n) => `part ${n}`, 2);
    const driver = run(p, server, ["--max-iterations", "4", "Write parts"]);
    await at;
    const start = (force: string) =>
      runClaude({
        version,
        prompt: `/continuation-loop:loop-start ${force}--name default --max-iterations 2 Other goal`,
        baseUrl: server.url,
        cwd: p.proj,
        home: p.home,
        pluginDirs: [PLUGIN_DIR],
      });
    const refused = await start("");
    expect(JSON.stringify(refused.events)).toContain(
      `driven by continuation-loop run (pid ${driver.pid}), which still runs`,
    );
    expect(p.readState()).toContain("Write parts");
    const forced = await start("--force ");
    release();
    const done = await driver.done;

    expect(forced.code, forced.stderr).toBe(0);
    expect(done.code, done.stderr).toBe(1);
    expect(driver.claudePids()).toHaveLength(1);
    // The run tells its own loop's end, not the end of the loop that replaced it.
    expect(done.stderr).toContain("the loop ended (stopped) at iteration 2/4");
    expect(done.stderr).not.toMatch(/\[\d\/2\]/);
    expect(stops(p, DEFAULT)).toEqual(["1:continue", "2:end", "1:continue", "2:end"]);
  });
});
