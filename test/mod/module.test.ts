// The companion module's own tests, run offline by `claude plugin test` with Claude Code's testing kit:
// every `$` call the module makes is answered here, in memory.
import type { ClassicResultOf, CommandRunInput, CommandRunResult, On, SessionUsage } from "claude-code";
import { describe, expect, mock, test, type Engine } from "claude-code/testing";

const ROOT = "/project";
const MARKER = "[SYSTEM REMINDER - CONTINUATION LOOP ACTIVE]";

/** The world beneath the module: what it calls, answered and recorded. */
function world(on: On, env: Record<string, string> = {}) {
  mock.env(on, { CLAUDE_PROJECT_DIR: ROOT, ...env });
  const clock = mock.clock(on, { now: 1_700_000_000_000 });
  const seen = {
    env: {} as Record<string, string | undefined>,
    registered: [] as { name: string; immediate?: true }[],
    submitted: [] as string[],
    aborted: [] as string[],
    runs: [] as { argv: readonly string[]; init?: { env?: Readonly<Record<string, string>>; stdin?: string } }[],
    logged: [] as string[],
    promptOut: "",
    /** The prompts the UserPromptSubmit settings hooks ran for. */
    promptHooks: [] as string[],
    /** What the settings Stop hooks answer, given this Stop's id. */
    stopAnswer: (_id: string | undefined): ClassicResultOf["classic.Stop"] => ({}),
    /** What Claude Code's own run of a command answers. */
    commandAnswer: { text: "the command itself" } as CommandRunResult,
    /** This session's loop in the project's files, while it runs: its state file's text. */
    loop: undefined as string | undefined,
    /** The prompt hook's run ends the loop (its file goes), as /loop-stop does. */
    promptEndsLoop: false,
    /** The state file's lock is held: a writer is inside its commit. */
    locked: false,
    /** Runs of the helper's `view`. */
    views: 0,
  };
  on("env.set", (_$, e) => {
    seen.env[e.name] = e.value;
    return { value: {} };
  });
  on("command.register", (_$, e) => {
    seen.registered.push(e);
    return { value: { command: e.name } };
  });
  on("session.version", () => ({ value: { version: "2.1.331" } }));
  on("session.id", () => ({ value: "s1" }));
  on("session.info", () => ({ value: { transcriptPath: "/t/s1.jsonl" } }));
  on("session.usage", () => ({ value: { cost: { usd: 0.25 } } as SessionUsage }));
  const stateFile = `${ROOT}/.claude/continuation-loop.local.md`;
  on("fs.list", () => ({
    value: seen.loop ? [{ name: "continuation-loop.local.md", kind: "file", mtimeMs: 0, size: 1, isLink: false }] : [],
  }));
  on("fs.read", (_$: unknown, e: { path: string }) => {
    if (seen.loop !== undefined && e.path === stateFile) return { value: seen.loop };
    throw new Error("no such file");
  });
  on("fs.stat", (_$: unknown, e: { path: string }) => {
    if (seen.locked && e.path === `${stateFile}.lock`)
      return { value: { kind: "file", size: 6, mtimeMs: Date.now(), isLink: false } };
    throw new Error("no such file");
  });
  on("ui.invalidate", () => ({ value: undefined }));
  on("ui.log", (_$: unknown, e: { text: string }) => {
    seen.logged.push(e.text);
    return { value: undefined };
  });
  on("prompt.submit", (_$: unknown, e: { text: string }) => {
    seen.submitted.push(e.text);
    return e;
  });
  on("turn.abort", (_$: unknown, e: { turnId: string }) => {
    seen.aborted.push(e.turnId);
    return { value: undefined };
  });
  on("process.run", (_$, e) => {
    // `continuation-loop view`: the sidecar the hooks would save for the loop's files, or refused when there are none.
    if (e.argv.includes("view")) {
      seen.views++;
      const view = { view: { state_digest: "d", state: { active: true, session_id: "s1" } }, pause: null };
      const stdout = seen.loop ? JSON.stringify(view) : "";
      return {
        value: { exitCode: seen.loop ? 0 : 1, stdout, stderr: "", isStdoutTruncated: false, isStderrTruncated: false },
      };
    }
    seen.runs.push(e);
    if (seen.promptEndsLoop) seen.loop = undefined;
    return {
      value: { exitCode: 0, stdout: seen.promptOut, stderr: "", isStdoutTruncated: false, isStderrTruncated: false },
    };
  });
  on("session.start", (_$, e) => ({ cwd: e.cwd }));
  on("classic.Stop", () => seen.stopAnswer(seen.env.CONTINUATION_LOOP_STOP_ID));
  on("classic.UserPromptSubmit", (_$: unknown, e: { prompt: string }) => {
    seen.promptHooks.push(e.prompt);
    return { additionalContext: ["from the hooks beneath"] };
  });
  on("command.run", () => seen.commandAnswer);
  on("turn.start", (_$: unknown, e: { turnId: string }) => ({ turnId: e.turnId }));
  return { clock, seen };
}

/** A slash command typed at the prompt. */
const typed = (command: string, args = ""): CommandRunInput => ({
  command,
  args,
  origin: { kind: "composer" },
  presentation: { isFullscreen: true, columns: 120 },
});

async function start($: Engine, on: On, env: Record<string, string> = {}, loop?: string) {
  const w = world(on, env);
  w.seen.loop = loop;
  await $.session.start({ cwd: ROOT, surface: null, isInteractive: true });
  return w;
}

describe("start", () => {
  test("registers the three controls to run mid-turn and tells the command hooks it is live", async ($, on) => {
    const { seen } = await start($, on);
    expect(seen.registered.map((c) => [c.name, c.immediate])).toEqual([
      ["loop-stop", true],
      ["loop-pause", true],
      ["loop-status", true],
    ]);
    expect(seen.env.CONTINUATION_LOOP_MODULE_LIVE).toBe("2.1.331");
  });

  test("CONTINUATION_LOOP_MODULE=0: registers nothing and sets nothing", async ($, on) => {
    const { seen } = await start($, on, { CONTINUATION_LOOP_MODULE: "0" });
    expect(seen.registered).toEqual([]);
    expect(seen.env).toEqual({});
  });
});

describe("the loop's view", () => {
  // The state file read, its sidecar not saved with that text (none here): a hand edit, or a commit caught between
  // the state file's rename and its sidecar's.
  const loop = '---\nsession_id: "s1"\n---\nDocs\n';

  test("a read with the state file's lock held (a commit in progress) runs no helper", async ($, on) => {
    const w = world(on);
    w.seen.loop = loop;
    w.seen.locked = true;
    await $.session.start({ cwd: ROOT, surface: null, isInteractive: true });
    expect(w.seen.views).toBe(0);
  });

  test("the same read with the lock free runs the helper once for the text", async ($, on) => {
    const { seen } = await start($, on, {}, loop);
    expect(seen.views).toBe(1);
  });
});

describe("Stop", () => {
  test("a continuation nothing else continues becomes one prompt from the plugin", async ($, on) => {
    const { clock, seen } = await start($, on);
    seen.stopAnswer = (id) => ({ additionalContext: [`${MARKER} iteration 2/5\n[continuation-loop stop ${id}]\n`] });
    const result = await $.classic.Stop({ stop_hook_active: false, last_assistant_message: "done" } as never);
    expect(result).toEqual({});
    expect(seen.env.CONTINUATION_LOOP_COST_USD).toBe("0.25");
    await clock.advance(0);
    expect(seen.submitted).toEqual([`${MARKER} iteration 2/5\n`]);
  });

  test("another hook's block stands as it was, the continuation beside it, and nothing is sent", async ($, on) => {
    const { clock, seen } = await start($, on);
    const block = '[node "/other/stop.js"]: run the linter first';
    seen.stopAnswer = (id) => ({
      block,
      additionalContext: [`${MARKER} iteration 2/5\n[continuation-loop stop ${id}]\n`],
    });
    const result = await $.classic.Stop({ stop_hook_active: false, last_assistant_message: "done" } as never);
    expect(result).toEqual({ block, additionalContext: [`${MARKER} iteration 2/5\n`] });
    await clock.advance(1000);
    expect(seen.submitted).toEqual([]);
  });

  test("an older Stop's continuation or another hook's text is left alone", async ($, on) => {
    const { clock, seen } = await start($, on);
    const stale = { additionalContext: [`${MARKER} iteration 2/5\n[continuation-loop stop old-0000-id]\n`] };
    seen.stopAnswer = () => stale;
    expect(await $.classic.Stop({ stop_hook_active: false } as never)).toEqual(stale);
    await clock.advance(1000);
    expect(seen.submitted).toEqual([]);
  });

  test("its own continuation runs no UserPromptSubmit hook beneath; every other prompt runs them", async ($, on) => {
    const { clock, seen } = await start($, on);
    const text = `${MARKER} iteration 2/5\n`;
    seen.stopAnswer = (id) => ({ additionalContext: [`${text}[continuation-loop stop ${id}]\n`] });
    await $.classic.Stop({ stop_hook_active: false, last_assistant_message: "done" } as never);
    await clock.advance(0);
    expect(seen.submitted).toEqual([text]);
    expect(await $.classic.UserPromptSubmit({ prompt: text } as never)).toEqual({});
    expect(seen.promptHooks).toEqual([]);
    // The same text again (typed by a person), and any other prompt: the hooks beneath run.
    for (const prompt of [text, "please go on"])
      expect(await $.classic.UserPromptSubmit({ prompt } as never)).toEqual({
        additionalContext: ["from the hooks beneath"],
      });
    expect(seen.promptHooks).toEqual([text, "please go on"]);
  });

  test("a fault at the Stop step leaves the hooks' answer as they gave it", async ($, on) => {
    const { seen } = await start($, on, { CONTINUATION_LOOP_MODULE_FAULT: "stop" });
    let given: ClassicResultOf["classic.Stop"] = {};
    seen.stopAnswer = (id) => {
      given = { additionalContext: [`${MARKER} iteration 2/5\n[continuation-loop stop ${id}]\n`] };
      return given;
    };
    expect(await $.classic.Stop({ stop_hook_active: false } as never)).toEqual(given);
    expect(seen.submitted).toEqual([]);
  });
});

describe("controls", () => {
  test("/loop-stop mid-turn: the prompt hook's own answer for this session, then the running turn ends", async ($, on) => {
    // This session's loop runs as the module starts; the prompt hook's run ends it.
    const { seen } = await start($, on, {}, '---\nsession_id: "s1"\n---\nDocs\n');
    seen.promptEndsLoop = true;
    seen.promptOut = JSON.stringify({ decision: "block", reason: "continuation-loop: loop stopped at iteration 2/5" });
    await $.turn.start({ text: "", turnId: "turn-7" });
    const result = await $.command.run(typed("loop-stop", "--name docs"));
    expect(result.text).toBe("loop stopped at iteration 2/5");
    expect(seen.aborted).toEqual(["turn-7"]);
    expect(seen.runs).toHaveLength(1);
    const run = seen.runs[0]!;
    expect(run.argv[0]).toBe("node");
    expect(run.argv[1]?.endsWith("/hooks/prompt.js")).toBe(true);
    const input = JSON.parse(run.init?.stdin ?? "");
    expect(input).toMatchObject({
      session_id: "s1",
      transcript_path: "/t/s1.jsonl",
      cwd: ROOT,
      hook_event_name: "UserPromptSubmit",
      prompt: "/loop-stop --name docs",
    });
    expect(run.init?.env?.CLAUDE_CODE_SESSION_ID).toBe("s1");
  });

  test("/loop-status mid-turn goes in the transcript at once and leaves the turn running", async ($, on) => {
    const { seen } = await start($, on);
    seen.promptOut = JSON.stringify({
      decision: "block",
      reason: "continuation-loop: loop running, iteration 2/5\n  goal: Docs",
    });
    await $.turn.start({ text: "", turnId: "turn-8" });
    const result = await $.command.run(typed("continuation-loop:loop-status"));
    expect(result.text).toBeUndefined();
    // One notice of one line: a notice draws no line breaks, and a notice per line takes two rows each.
    expect(seen.logged).toEqual(["loop running, iteration 2/5 ┃ goal: Docs"]);
    expect(seen.aborted).toEqual([]);
  });

  test("/loop-status between turns at a terminal: the prompt hook gets the width its answer has", async ($, on) => {
    const { seen } = await start($, on);
    await $.command.run(typed("loop-status"));
    expect(seen.runs.at(-1)?.init?.env?.CONTINUATION_LOOP_COLUMNS).toBe("114");
  });

  test("/loop-status headless (-p): no width, since Claude Code's 80 columns were measured by no terminal", async ($, on) => {
    const { seen } = world(on, {});
    await $.session.start({ cwd: ROOT, surface: null, isInteractive: false });
    await $.command.run(typed("loop-status"));
    expect(seen.runs).toHaveLength(1);
    expect(seen.runs[0]?.init?.env?.CONTINUATION_LOOP_COLUMNS).toBeUndefined();
  });

  test("a node too old on PATH: the prompt hook's line, and no turn is ended", async ($, on) => {
    const { seen } = await start($, on);
    const line =
      "continuation-loop: needs Node.js 20.16 or later on PATH and found v18.19.0 (check: node --version); its loops are off, and nothing else in Claude Code is affected.";
    seen.promptOut = JSON.stringify({ decision: "block", reason: line });
    await $.turn.start({ text: "", turnId: "turn-10" });
    const result = await $.command.run(typed("loop-pause"));
    expect(result.text).toBeUndefined();
    // Claude Code shows a module's answer under the plugin's name already.
    expect(seen.logged).toEqual([line.replace(/^continuation-loop: /, "")]);
    expect(seen.aborted).toEqual([]);
  });

  test("a command the hook does not answer alone runs as it would without the module", async ($, on) => {
    const { seen } = await start($, on);
    seen.promptOut = "";
    const result = await $.command.run(typed("continuation-loop:loop-pause"));
    expect(result.text).toBe("the command itself");
    expect(seen.aborted).toEqual([]);
  });
});
