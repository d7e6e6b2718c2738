// `continuation-loop run` through the real Claude Code CLI: a loop driven in the foreground, Claude Code
// killed mid-loop and started again, each exit code, the report on the job summary.
import { execFileSync, spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import {
  apiError,
  type MessagesServer,
  type RecordedRequest,
  type ScriptedReply,
  text,
  toolUse,
} from "./support/messagesServer.js";
import { allMessagesText, lastUserText } from "./support/requestText.js";
import { LOOP_MARKER, type LoopProject, PLUGIN_DIR, trustProject } from "./support/loopProject.js";
import { startRunCommand } from "./support/runCommand.js";
import { CLAUDE_VERSIONS, cleanEnv, NEWEST, runClaude } from "./support/runClaude.js";
import { readProcessRunning } from "../../src/io/processes.js";
import { killPid } from "../support/pids.js";
import { perTest } from "./support/perTest.js";
import { itOnNewest } from "./support/pins.js";

const t = perTest();
/** The running test's server, and what lets its held request go: tests read them. */
let server: MessagesServer | undefined;
let release: (() => void) | undefined;

/** A loop project; after the test its held request is let go, then what it left running is killed. */
function makeProject(): LoopProject {
  t.onEnd(() => release?.());
  return t.project({ killProcesses: true });
}

/** A scripted model whose n-th main request (from 1) gets `reply(n)`; the `holdAt`-th is held and reported. */
async function scriptedModel(reply: (n: number) => ScriptedReply, holdAt?: number) {
  let held!: (req: RecordedRequest) => void;
  const reached = new Promise<RecordedRequest>((resolve) => {
    held = resolve;
  });
  const released = new Promise<void>((resolve) => {
    release = resolve;
  });
  let n = 0;
  server = await t.server(async (req) => {
    n++;
    if (n === holdAt) {
      held(req);
      await released;
    }
    return reply(n);
  });
  return { server, reached };
}

/** The Stop decisions of the loop, in order: `iteration:decision`. */
const stops = (p: LoopProject) =>
  p
    .history()
    .filter((h) => h.decision === "continue" || h.decision === "end" || h.decision === "pause")
    .map((h) => `${String(h.iteration)}:${String(h.decision)}`);

/** The progress lines `run` printed on stderr (not a terminal: one per record). */
const progress = (stderr: string) => stderr.split("\n").filter((line) => /^\[\d+\/\d+\]/.test(line));

/** Resolves once the process has died (SIGKILL lands a moment after the call), as the product sees it. */
async function gone(pid: number): Promise<void> {
  while (readProcessRunning(String(pid))) await new Promise((resolve) => setTimeout(resolve, 50));
}

describe.each(CLAUDE_VERSIONS)("Claude Code %s", (version) => {
  const run = (p: LoopProject, args: string[], env: Record<string, string> = {}) =>
    startRunCommand(version, {
      cwd: p.proj,
      dir: p.root,
      baseUrl: (server as MessagesServer).url,
      home: p.home,
      args,
      env,
    });

  it("starts Claude Code again after a SIGKILL at iteration 3 of 6: iterations 1..6 each once, exit 0, the report on the job summary", async () => {
    const p = makeProject();
    trustProject(p);
    const summary = path.join(p.root, "summary.md");
    fs.writeFileSync(summary, "# An earlier step\n");
    const { reached } = await scriptedModel(
      (n) => text(n >= 7 ? "All six done. <promise>DONE</promise>" : `reply ${n}`),
      3,
    );
    const r = run(p, ["--max-iterations", "6", "Count to six"], { GITHUB_STEP_SUMMARY: summary });

    await reached;
    const [first] = r.claudePids();
    expect(first).toBeGreaterThan(0);
    killPid(first as number);
    release?.();
    const done = await r.done;

    expect(done.code, done.stderr).toBe(0);
    expect(r.claudePids()).toHaveLength(2);
    expect(stops(p)).toEqual(["1:continue", "2:continue", "3:continue", "4:continue", "5:continue", "6:end"]);
    expect(p.history().at(-1)).toMatchObject({ decision: "end", reason: "completed", iteration: 6 });
    expect(p.readState()).toBeUndefined();

    // The second Claude Code resumed the same conversation, told the loop goes on at iteration 3.
    const main = (server as MessagesServer).mainRequests;
    expect(main).toHaveLength(7);
    const resumed = main[3] as RecordedRequest;
    expect(lastUserText(resumed)).toContain(LOOP_MARKER);
    expect(lastUserText(resumed)).toContain("iteration 3/6");
    expect(allMessagesText(resumed)).toContain("reply 2");
    expect(new Set(p.history().map((h) => h.session)).size).toBe(1);

    expect(done.stderr).toContain("Claude Code was killed (SIGKILL) with the loop at iteration 3/6");
    const lines = progress(done.stderr);
    expect(lines.map((line) => line.split(" ")[0])).toEqual(["[1/6]", "[2/6]", "[3/6]", "[4/6]", "[5/6]", "[6/6]"]);
    expect(lines.at(-1)).toContain("completed");

    const written = fs.readFileSync(summary, "utf8");
    expect(written.startsWith("# An earlier step\n")).toBe(true);
    expect(written).toContain("## Continuation loop: completed");
    expect(written).toMatch(/^\| 6 \|/m);
  });

  itOnNewest(version)("exits 1 when the loop ends at a limit, with the report in --report and --html", async () => {
    const p = makeProject();
    await scriptedModel((n) => text(`still going ${n}`));
    const r = run(p, ["--report", "loop.md", "--html", "loop.html", "--max-iterations", "2", "Keep going"]);
    const done = await r.done;

    expect(done.code, done.stderr).toBe(1);
    expect(r.claudePids()).toHaveLength(1);
    expect(stops(p)).toEqual(["1:continue", "2:end"]);
    expect(p.history().at(-1)).toMatchObject({ reason: "max_iterations" });
    expect(progress(done.stderr).at(-1)).toMatch(/^\[2\/2\] .*max_iterations/);
    expect(fs.readFileSync(path.join(p.proj, "loop.md"), "utf8")).toContain("## Continuation loop: max_iterations");
    expect(fs.readFileSync(path.join(p.proj, "loop.html"), "utf8")).toContain("<svg");
  });

  it("a tool no rule allows is refused at every iteration in -p: run says so on each line and names how to allow it", async () => {
    const p = makeProject();
    // Each iteration calls a command no rule allows, then replies.
    await scriptedModel((n) =>
      n % 2 === 1
        ? toolUse("Bash", { command: "node -e \"require('fs').writeFileSync('made.txt', 'x')\"", description: "Make" })
        : text(`could not make it ${n}`),
    );
    const r = run(p, ["--report", "loop.md", "--max-iterations", "3", "Make the file"]);
    const done = await r.done;

    expect(done.code, done.stderr).toBe(1);
    expect(fs.existsSync(path.join(p.proj, "made.txt"))).toBe(false);
    expect(stops(p)).toEqual(["1:continue", "2:continue", "3:end"]);
    // Before the first iteration: the mode asks, and nobody answers in -p.
    expect(done.stderr).toMatch(/permission mode default asks before each tool/);
    // No prompt is open in -p: Claude Code sends no permission notification, and `run` never shows a wait.
    expect(p.history().some((h) => h.decision === "waiting_permission")).toBe(false);
    expect(done.stderr).not.toMatch(/waiting_permission|waiting for your permission/);
    // 2.1.332 marks a refused call in the transcript; 2.1.197 marks none, so nothing is named there.
    if (version === CLAUDE_VERSIONS.at(-1)) {
      expect(progress(done.stderr)).toEqual(
        expect.arrayContaining([expect.stringMatching(/^\[1\/3\] .*\(refused: Bash\)$/)]),
      );
      expect(progress(done.stderr).filter((line) => line.includes("(refused: Bash)"))).toHaveLength(3);
      expect(done.stderr).toMatch(/refused Bash \(at 3 iterations\).*-- --allowedTools Bash/);
      expect(fs.readFileSync(path.join(p.proj, "loop.md"), "utf8")).toMatch(/^\| 1 \|.*tools refused: Bash/m);
    } else {
      expect(progress(done.stderr)).toHaveLength(3);
    }
  });

  itOnNewest(version)("exits 3 when Claude asks the person, leaving the paused loop in place", async () => {
    const p = makeProject();
    await scriptedModel((n) =>
      text(n === 2 ? "I need a decision. <loop-pause>Which database should I use?</loop-pause>" : `step ${n}`),
    );
    const r = run(p, ["--max-iterations", "5", "Set up the storage"]);
    const done = await r.done;

    expect(done.code, done.stderr).toBe(3);
    expect(r.claudePids()).toHaveLength(1);
    expect(stops(p)).toEqual(["1:continue", "2:pause"]);
    expect(done.stderr).toContain("paused for you at iteration 2/5: Which database should I use?");
    expect(p.readState()).toContain("iteration_count: 2");
  });

  it("takes over the loop of a run killed whole: `run` with no goal finishes it, each iteration once", async () => {
    const p = makeProject();
    const { reached } = await scriptedModel((n) => text(n >= 6 ? "<promise>DONE</promise>" : `part ${n}`), 3);
    const first = run(p, ["--max-iterations", "5", "Write five parts"]);
    await reached;
    first.kill();
    await first.done;
    for (const pid of first.claudePids()) {
      killPid(pid);
      await gone(pid);
    }
    release?.();
    expect(p.readState()).toContain("iteration_count: 3");

    const second = run(p, ["--max-restarts", "0"]);
    const done = await second.done;
    expect(done.code, done.stderr).toBe(0);
    expect(done.stderr).toContain("taken over from session");
    expect(stops(p)).toEqual(["1:continue", "2:continue", "3:continue", "4:continue", "5:end"]);
    expect(p.history().find((h) => h.decision === "resume")).toMatchObject({ reason: "taken over", iteration: 3 });
  });

  /**
   * A `run` of four parts killed with SIGKILL while the scripted API holds its `holdAt`-th request: the pid of the
   * Claude Code it left, still in that turn. DONE comes at the fifth request.
   */
  async function killRunAt(p: LoopProject, holdAt: number): Promise<number> {
    const { reached } = await scriptedModel((n) => text(n >= 5 ? "<promise>DONE</promise>" : `part ${n}`), holdAt);
    const first = run(p, ["--max-iterations", "4", "Write four parts"]);
    await reached;
    process.kill(first.pid, "SIGKILL");
    await first.done;
    const [orphan] = first.claudePids();
    expect(orphan).toBeDefined();
    return orphan as number;
  }

  it("a Claude Code left behind by a run killed with SIGKILL ends with its turn; `run` with no goal goes on from that iteration, once", async () => {
    const p = makeProject();
    const orphan = await killRunAt(p, 2);
    release?.();
    await gone(orphan);

    // Its turn ended and nothing went on: one request per iteration, and iteration 2 not counted.
    expect((server as MessagesServer).mainRequests).toHaveLength(2);
    expect(stops(p)).toEqual(["1:continue"]);
    expect(p.history().at(-1)).toMatchObject({ decision: "refused", reason: "run_gone" });
    expect(p.readState()).toContain("iteration_count: 2");

    const second = run(p, ["--max-restarts", "0"]);
    const done = await second.done;
    expect(done.code, done.stderr).toBe(0);
    expect(stops(p)).toEqual(["1:continue", "2:continue", "3:continue", "4:end"]);
    expect(p.history().find((h) => h.decision === "resume")).toMatchObject({ reason: "taken over", iteration: 2 });
  });

  itOnNewest(version)(
    "a run killed with SIGKILL before its loop's first Stop: while the Claude Code it left runs, a second run is refused, naming it; after, it takes the loop from iteration 1",
    async () => {
      const p = makeProject();
      // The first request is the left Claude Code's turn, which counts for nothing; the next run's are 2 to 5.
      const orphan = await killRunAt(p, 1);

      const refused = await run(p, ["--max-restarts", "0"]).done;
      expect(refused.code, refused.stderr).toBe(2);
      expect(refused.stderr).toContain(`(pid ${orphan})`);
      expect((server as MessagesServer).mainRequests).toHaveLength(1);

      release?.();
      await gone(orphan);
      expect(stops(p)).toEqual([]);
      expect(p.history().at(-1)).toMatchObject({ decision: "refused", reason: "run_gone" });

      const second = run(p, ["--max-restarts", "0"]);
      const done = await second.done;
      expect(done.code, done.stderr).toBe(0);
      expect(stops(p)).toEqual(["1:continue", "2:continue", "3:continue", "4:end"]);
    },
  );

  itOnNewest(version)(
    "a second `run` with no goal while one drives the loop is refused, naming that run; the first goes on",
    async () => {
      const p = makeProject();
      // Held before the loop's first Stop, when no Claude Code process is yet known to own it.
      const { reached } = await scriptedModel((n) => text(n >= 3 ? "<promise>DONE</promise>" : `part ${n}`), 1);
      const first = run(p, ["--max-iterations", "5", "Write parts"]);
      await reached;
      const second = await run(p, []).done;
      release?.();
      const done = await first.done;

      expect(second.code, second.stderr).toBe(2);
      expect(second.stderr).toContain(`driven by continuation-loop run (pid ${first.pid}), which still runs`);
      expect(done.code, done.stderr).toBe(0);
      expect(first.claudePids()).toHaveLength(1);
      expect(stops(p)).toEqual(["1:continue", "2:continue", "3:end"]);
      expect(p.history().some((h) => h.decision === "resume")).toBe(false);
    },
  );

  it("/loop-resume --force in a session takes the loop from a live run: that run ends (exit 1, taken over), the loop goes on there", async () => {
    const p = makeProject();
    // Held: the run's second turn, then the session's first, so the run ends while the loop goes on elsewhere.
    const gate = () => {
      let open!: () => void;
      let reached!: () => void;
      const at = new Promise<void>((resolve) => {
        reached = resolve;
      });
      const opened = new Promise<void>((resolve) => {
        open = resolve;
      });
      return { at, reached, open, opened };
    };
    const runTurn = gate();
    const sessionTurn = gate();
    let n = 0;
    server = await t.server(async () => {
      n++;
      const hold = n === 2 ? runTurn : n === 3 ? sessionTurn : undefined;
      if (hold) {
        hold.reached();
        await hold.opened;
      }
      return text(`part ${n}`);
    });
    release = () => {
      runTurn.open();
      sessionTurn.open();
    };
    const first = run(p, ["--max-iterations", "4", "Write parts"]);
    await runTurn.at;
    const session = runClaude({
      version,
      prompt: "/continuation-loop:loop-resume --force",
      baseUrl: server.url,
      cwd: p.proj,
      home: p.home,
      pluginDirs: [PLUGIN_DIR],
    });
    await sessionTurn.at;
    runTurn.open();
    const done = await first.done;
    sessionTurn.open();
    const resumed = await session;

    expect(done.code, done.stderr).toBe(1);
    expect(done.stderr).toContain(`taken over by session ${resumed.sessionId} at iteration 2/4`);
    expect(first.claudePids()).toHaveLength(1);
    expect(resumed.code, resumed.stderr).toBe(0);
    expect(p.history().find((h) => h.decision === "resume")).toMatchObject({
      reason: "taken over",
      session: resumed.sessionId,
      iteration: 2,
    });
    expect(stops(p)).toEqual(["1:continue", "2:continue", "3:continue", "4:end"]);
    expect(
      new Set(
        p
          .history()
          .slice(2)
          .map((h) => h.session),
      ),
    ).toEqual(new Set([resumed.sessionId]));
  });

  it("in GitHub Actions no text Claude wrote reaches the runner as a workflow command: they are stopped for the run, its own lines never start with Claude's", async () => {
    const p = makeProject();
    // The reply's own line breaks, a lone CR among them (the runner starts a line there too), lead to commands.
    await scriptedModel((n) =>
      text(
        n === 1
          ? "Done.\r::add-mask::first\n::stop-commands::guess"
          : "::error::the last reply\r::add-mask::last <promise>DONE</promise>",
      ),
    );
    const r = run(p, ["--max-iterations", "3", "Anything"], { GITHUB_ACTIONS: "true" });
    const done = await r.done;

    expect(done.code, done.stderr).toBe(0);
    expect(stops(p)).toEqual(["1:continue", "2:end"]);
    const lines = (output: string) => output.split(/\r\n?|\n/).filter((line) => line !== "");
    const commands = (output: string) => lines(output).filter((line) => /^\s*(::|##\[)/.test(line));
    // stdout opens with the runner's stop and a token nobody else saw, and closes with it; Claude's last reply,
    // which Claude Code prints there, lies between them.
    const out = lines(done.stdout);
    const token = /^::stop-commands::(continuation-loop-[0-9a-f-]{36})$/.exec(out[0] ?? "")?.[1];
    expect(token, done.stdout).toBeDefined();
    expect(out.at(-1)).toBe(`::${token}::`);
    expect(commands(done.stdout).filter((line) => line.includes(token as string))).toHaveLength(2);
    expect(done.stdout).toContain("::error::the last reply");
    // stderr: the progress lines quote the replies, never at a line's start.
    expect(progress(done.stderr)[0]).toMatch(/ "Done\."$/);
    expect(commands(done.stderr)).toEqual([]);
  });

  // A container job runs as root; Claude Code refuses to bypass permissions there (docs/HEADLESS.md "Running as root").
  it.runIf(process.getuid?.() === 0)(
    "as root: Claude Code exits at its start with --dangerously-skip-permissions, so run refuses it before any start; with IS_SANDBOX=1 the loop runs",
    async () => {
      const p = makeProject();
      await scriptedModel((n) => text(n >= 2 ? "<promise>DONE</promise>" : `step ${n}`));
      const claudeArgs = ["--", "--dangerously-skip-permissions"];
      // What run spares: Claude Code itself, started that way as root, exits before any request.
      const direct = spawnSync(version.bin, ["-p", "hi", "--dangerously-skip-permissions"], {
        cwd: p.proj,
        env: cleanEnv({ baseUrl: (server as MessagesServer).url, home: p.home }),
        encoding: "utf8",
        timeout: 60_000,
      });
      expect(direct.status, direct.stderr).toBe(1);
      expect((server as MessagesServer).mainRequests).toHaveLength(0);

      const refused = await run(p, ["--max-iterations", "3", "Anything", ...claudeArgs]).done;
      expect(refused.code, refused.stderr).toBe(4);
      expect(refused.stderr.trim().split("\n")).toHaveLength(1);
      expect(refused.stderr).toContain("IS_SANDBOX=1");
      expect(p.readState()).toBeUndefined();

      const r = run(p, ["--max-iterations", "3", "Anything", ...claudeArgs], { IS_SANDBOX: "1" });
      const done = await r.done;
      expect(done.code, done.stderr).toBe(0);
      expect(r.claudePids()).toHaveLength(1);
      expect(stops(p)).toEqual(["1:continue", "2:end"]);
    },
  );

  itOnNewest(version)(
    "in a checkout as actions/checkout leaves it (one commit deep, HEAD detached, no git identity): checkpoints, scope, restore and the stall check work",
    async () => {
      const p = makeProject();
      const git = (cwd: string, ...args: string[]) =>
        execFileSync("git", args, { cwd, encoding: "utf8", env: noIdentity });
      // No user.name or user.email anywhere, and git told not to guess one.
      const noIdentity = {
        PATH: process.env.PATH ?? "",
        HOME: p.home,
        GIT_CONFIG_NOSYSTEM: "1",
        GIT_CONFIG_COUNT: "1",
        GIT_CONFIG_KEY_0: "user.useConfigOnly",
        GIT_CONFIG_VALUE_0: "true",
      };
      const origin = path.join(p.root, "origin");
      fs.mkdirSync(path.join(origin, "src"), { recursive: true });
      const identity = ["-c", "user.name=dev", "-c", "user.email=dev@example.invalid"];
      git(origin, "init", "-q");
      for (const n of [1, 2, 3]) {
        fs.writeFileSync(path.join(origin, "src", "app.txt"), `version ${n}\n`);
        git(origin, "add", ".");
        git(origin, ...identity, "commit", "-qm", `commit ${n}`);
      }
      fs.rmSync(p.proj, { recursive: true, force: true });
      git(p.root, "clone", "-q", "--depth", "1", `file://${origin}`, p.proj);
      git(p.proj, "checkout", "-q", "--detach");
      expect(git(p.proj, "rev-parse", "--is-shallow-repository").trim()).toBe("true");
      expect(() =>
        execFileSync("git", ["var", "GIT_COMMITTER_IDENT"], { cwd: p.proj, env: noIdentity, stdio: "ignore" }),
      ).toThrow();
      const head = git(p.proj, "rev-parse", "HEAD");

      // Iterations 1 and 2 each write a file in src; iteration 3 writes outside the scope, so the loop pauses.
      const file = (name: string) => path.join(p.proj, name);
      const writes = ["src/one.txt", "src/two.txt", "docs/three.txt"];
      let idle = false;
      await scriptedModel((n) =>
        idle
          ? text("Nothing left to change.")
          : n % 2 === 1 && n <= 5
            ? toolUse("Write", { file_path: file(writes[(n - 1) / 2] as string), content: `step ${(n + 1) / 2}\n` })
            : text(`Wrote step ${n / 2}.`),
      );
      const r = run(
        p,
        ["--checkpoints", "--scope", "src", "--stall-limit", "2", "--max-iterations", "5", "Improve src", "--"].concat([
          "--permission-mode",
          "acceptEdits",
        ]),
        noIdentity,
      );
      const done = await r.done;

      expect(done.code, done.stderr).toBe(3);
      expect(stops(p)).toEqual(["1:continue", "2:continue", "3:pause"]);
      expect(done.stderr).toContain("docs/three.txt");
      const cli = (...args: string[]) =>
        execFileSync(process.execPath, [path.join(PLUGIN_DIR, "hooks", "cli.js"), ...args], {
          cwd: p.proj,
          encoding: "utf8",
          env: { ...noIdentity, CLAUDE_PROJECT_DIR: p.proj },
        });
      // A pause records no checkpoint; the change outside the scope is the person's to undo.
      expect(cli("checkpoints")).toMatch(/^\s+1\s.*\n\s+2\s.*\n*$/m);
      fs.rmSync(file("docs"), { recursive: true });
      cli("restore", "1");
      expect(fs.readFileSync(file("src/one.txt"), "utf8")).toBe("step 1\n");
      expect(fs.existsSync(file("src/two.txt"))).toBe(false);
      expect(git(p.proj, "rev-parse", "HEAD")).toBe(head);
      expect(git(p.proj, "status", "--porcelain", "--", "src")).toBe("?? src/one.txt\n");

      // The stall check reads the working tree there too: the same reply and no change end the next loop.
      cli("stop");
      idle = true;
      const stalled = await run(p, ["--stall-limit", "2", "--max-iterations", "6", "Tidy src"], noIdentity).done;
      expect(stalled.code, stalled.stderr).toBe(1);
      expect(p.history().at(-1)).toMatchObject({ decision: "end", reason: "stalled" });
    },
  );

  it("passes Ctrl-C on to Claude Code and exits 130, the loop left running for a later run", async () => {
    const p = makeProject();
    const { reached } = await scriptedModel((n) => text(`part ${n}`), 3);
    const r = run(p, ["--max-iterations", "5", "Write five parts"]);
    await reached;
    process.kill(r.pid, "SIGINT");
    release?.();
    const done = await r.done;

    expect(done.code, done.stderr).toBe(130);
    expect(r.claudePids()).toHaveLength(1);
    expect(done.stderr).toContain("stopped by SIGINT");
    expect(p.readState()).toContain("iteration_count: 3");
    expect(stops(p)).toEqual(["1:continue", "2:continue"]);
  });

  it("exits 4 after one start when the API refuses the key (401): the status on stderr, the loop left as it was", async () => {
    const p = makeProject();
    const refused = () => apiError(401);
    server = await t.server(refused, { auxReply: refused });
    const started = Date.now();
    const r = run(p, ["--max-iterations", "5", "Anything"]);
    const done = await r.done;

    expect(done.code, done.stderr).toBe(4);
    // No restart: one Claude Code, one request, well inside the restarts' own 2 s + 4 s + 8 s.
    expect(r.claudePids()).toHaveLength(1);
    expect((server as MessagesServer).mainRequests).toHaveLength(1);
    expect(Date.now() - started).toBeLessThan(14_000);
    const end = done.stderr.trim().split("\n").at(-1) ?? "";
    expect(end).toMatch(/could not run: the API answered 401\b/);
    expect(end).toContain("ANTHROPIC_API_KEY");
    expect(end).toContain("Exit 4.");
    expect(done.stderr).not.toContain("starting it again in");
    // Not ended, not counted: the same loop, at its first iteration, for a run with the key fixed.
    expect(p.readState()).toContain("iteration_count: 1");
    expect(p.readState()).toContain("active: true");
    expect(stops(p)).toEqual([]);
  });

  it("exits 4 after one start when Claude Code has no credentials at all (not logged in): no request is made", async () => {
    const p = makeProject();
    await scriptedModel((n) => text(`never ${n}`));
    const r = run(p, ["Anything"], { ANTHROPIC_API_KEY: "" });
    const done = await r.done;

    expect(done.code, done.stderr).toBe(4);
    expect(r.claudePids()).toHaveLength(1);
    expect((server as MessagesServer).mainRequests).toHaveLength(0);
    expect(done.stderr).toMatch(/could not run: Claude Code reported authentication_failed\b.*ANTHROPIC_API_KEY/);
    expect(p.readState()).toContain("iteration_count: 1");
  });

  itOnNewest(version)(
    "a rate limit keeps the restarts: exit 4 only after --max-restarts restarts without a new iteration",
    async () => {
      const p = makeProject();
      server = await t.server(() => apiError(429));
      const r = run(p, ["--max-restarts", "1", "Anything"], {
        CLAUDE_CODE_MAX_RETRIES: "0",
        CONTINUATION_LOOP_WAIT_SCALE: "0.05",
      });
      const done = await r.done;

      expect(done.code, done.stderr).toBe(4);
      expect(r.claudePids()).toHaveLength(2);
      expect(done.stderr).toContain("starting it again in");
      expect(done.stderr).toContain("Claude Code could not run: it exited with code 1, 2 times in a row");
      expect(p.readState()).toContain("iteration_count: 1");
    },
  );
});

// 2.1.332 keeps a `-p` run up while a task it started in the background runs (docs/HEADLESS.md): a server
// that never ends would hold `run`, and a CI job, long after the loop's end.
describe(`Claude Code ${NEWEST.name}`, () => {
  it("a server Claude left running in the background does not hold `run` past the loop's end: Claude Code is stopped, exit 0", async () => {
    const p = makeProject();
    trustProject(p);
    const pidFile = path.join(p.root, "server.pid");
    const replies = [
      toolUse("Bash", {
        command: `echo $$ > '${pidFile}'; while :; do sleep 1; done`,
        run_in_background: true,
        description: "dev server",
      }),
      text("The server is up."),
      text("Checked every page. <promise>DONE</promise>"),
    ];
    await scriptedModel((n) => replies[n - 1] ?? text(`not expected ${n}`));
    const r = startRunCommand(NEWEST, {
      cwd: p.proj,
      dir: p.root,
      baseUrl: (server as MessagesServer).url,
      home: p.home,
      args: ["--background-wait", "3s", "--max-iterations", "4", "Check the pages", "--", "--allowedTools", "Bash"],
    });
    const done = await r.done;

    expect(done.code, done.stderr).toBe(0);
    expect(r.claudePids()).toHaveLength(1);
    expect(p.history().map((h) => `${h.decision}:${h.reason}`)).toEqual([
      "waiting_background:background_tasks",
      "resume:background_wait",
      "end:completed",
    ]);
    // One line says why Claude Code was stopped; its exit ended the server it had started.
    expect(done.stderr).toMatch(/loop has ended and Claude Code still runs .*background.*stopping it/);
    const serverPid = Number(fs.readFileSync(pidFile, "utf8"));
    expect(serverPid).toBeGreaterThan(0);
    await gone(serverPid);
    expect((server as MessagesServer).mainRequests).toHaveLength(3);
  });
});
