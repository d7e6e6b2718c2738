import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { SLASH_NAMES } from "../../src/app/loopCommands.js";
import { renderPromptOutput } from "../../src/app/promptHook.js";
import { isSlashCommand, runSlashCommand } from "../../src/app/slashCommands.js";
import { matchLoopCommand } from "../../src/core/loopCommand.js";
import { parseState } from "../../src/core/parseState.js";

const REPO = resolve(import.meta.dirname, "../..");

/** The prompt hook's command path, in-process. */
async function handleLoopPrompt(
  stdin: string,
  c: { env: Record<string, string>; cwd: string; now: number; packageRoot: string },
) {
  let input: Record<string, unknown>;
  try {
    input = JSON.parse(stdin) as Record<string, unknown>;
  } catch {
    return undefined;
  }
  const command = matchLoopCommand(String(input.prompt));
  if (!command || !isSlashCommand(command.name)) return undefined;
  const ctx = { ...c, home: tmpdir(), now: () => c.now, readStdin: () => "", out: () => {}, err: () => {} };
  return runSlashCommand(command, input, ctx);
}
const NOW = Date.parse("2026-03-01T10:00:00Z");
let project: string;
const statePath = () => join(project, ".claude", "continuation-loop.local.md");
const historyPath = () => join(project, ".claude", "continuation-loop.history.jsonl");
const history = () =>
  readFileSync(historyPath(), "utf8")
    .trim()
    .split("\n")
    .map((l) => JSON.parse(l) as Record<string, unknown>);

/** Each session runs in a Claude Code process of its own, both running: session-A in this one, the others in init. */
function typed(prompt: string, session = "session-A", now = NOW) {
  const stdin = JSON.stringify({ session_id: session, cwd: project, hook_event_name: "UserPromptSubmit", prompt });
  const env = { CLAUDE_PROJECT_DIR: project, CLAUDE_PID: session === "session-A" ? String(process.pid) : "1" };
  return handleLoopPrompt(stdin, { env, cwd: "/", now, packageRoot: REPO });
}

beforeEach(() => {
  project = mkdtempSync(join(tmpdir(), "cl-prompt-"));
});
afterEach(() => rmSync(project, { recursive: true, force: true }));

describe("handleLoopPrompt: /loop-start", () => {
  it("creates the loop bound to the session, with the goal verbatim, and tells Claude to begin", async () => {
    const goal = 'Fix "the" parser; don\'t run $(touch /tmp/x) or `id`\nand line two';
    const out = await typed(
      `/continuation-loop:loop-start --max-iterations 2 --completion-promise "it's done" ${goal}`,
    );
    const state = parseState(readFileSync(statePath(), "utf8"));
    expect(state).toMatchObject({
      max_iterations: 2,
      completion_promise: ["it's done"],
      session_id: "session-A",
      started_at: "2026-03-01T10:00:00.000Z",
      body: `${goal}\n`,
    });
    expect(out?.block).toBeUndefined();
    expect(out?.additionalContext).toContain("Begin working on the goal now");
    expect(out?.additionalContext).toContain(goal);
    expect(out?.additionalContext).toContain('"it\'s done"');
    expect(out?.additionalContext).toContain("iterations 1/2 (1 left)");
    expect(out?.systemMessage).toContain("loop started");
  });

  it.each([
    ["a bad value", "/loop-start --max-iterations lots Go", "--max-iterations: invalid value"],
    ["no goal", "/loop-start --max-iterations 3", "a goal is required"],
    ["an unknown template", "/loop-start --template nope Go", 'no template named "nope"'],
  ])("blocks %s with a clear reason and writes nothing", async (_name, prompt, reason) => {
    const out = await typed(prompt);
    expect(out?.block).toContain(reason);
    expect(existsSync(statePath())).toBe(false);
  });

  it("shows the usage card for /loop-start with no goal, namespaced or not, without starting", async () => {
    for (const command of ["/loop-start", "/continuation-loop:loop-start"]) {
      const block = (await typed(command))?.block ?? "";
      // Fitted to an answer's width in an 80-column terminal: the namespaced command takes the shorter example.
      expect(block).toContain(`${command} --until "npm test" Fix the ${command.includes(":") ? "" : "failing "}tests`);
      for (const row of block.split("\n")) expect(row.length, row).toBeLessThanOrEqual(70);
      expect(block).not.toContain("--completion-promise");
    }
    expect(existsSync(statePath())).toBe(false);
  });

  it("answers every command's --help in rows that fit an answer in an 80-column terminal", async () => {
    for (const name of SLASH_NAMES) {
      const block = (await typed(`/continuation-loop:loop-${name} --help`))?.block ?? "";
      expect(block, name).toContain(`Usage: /continuation-loop:loop-${name}`);
      for (const row of block.split("\n")) expect(row.length, row).toBeLessThanOrEqual(70);
    }
  });

  it("names the command as typed in a refusal, namespaced or not", async () => {
    for (const command of ["/loop-start", "/continuation-loop:loop-start"])
      expect((await typed(`${command} --max-iteration 3 Go`))?.block).toMatch(
        new RegExp(
          `^continuation-loop: ${command}: unknown option --max-iteration \\(did you mean --max-iterations\\?\\)`,
        ),
      );
    expect((await typed("/loop-status --nmae x"))?.block).toContain("unknown option --nmae (did you mean --name?)");
    expect(existsSync(statePath())).toBe(false);
  });

  it("shows the usage for --help without starting", async () => {
    expect((await typed("/loop-start --help"))?.block).toContain("--completion-promise");
    expect(existsSync(statePath())).toBe(false);
  });

  it("gives a second session a named loop, refuses a second loop in one session, and replaces it with --force", async () => {
    await typed("/loop-start --max-iterations 5 First goal");
    const before = readFileSync(statePath(), "utf8");
    const other = await typed("/loop-start Second goal for B", "session-B");
    expect(other?.block).toBeUndefined();
    expect(other?.systemMessage).toContain(".claude/continuation-loop.second-goal-for-b.local.md");
    expect(readFileSync(statePath(), "utf8")).toBe(before);
    const named = join(project, ".claude", "continuation-loop.second-goal-for-b.local.md");
    expect(parseState(readFileSync(named, "utf8"))).toMatchObject({
      body: "Second goal for B\n",
      session_id: "session-B",
    });

    const refused = await typed("/loop-start Third goal", "session-A");
    expect(refused?.block).toContain("this session already runs a loop (default)");
    expect(readFileSync(statePath(), "utf8")).toBe(before);
    const forced = await typed("/loop-start --force Third goal", "session-A");
    expect(forced?.block).toBeUndefined();
    expect(parseState(readFileSync(statePath(), "utf8"))).toMatchObject({
      body: "Third goal\n",
      session_id: "session-A",
    });
    expect(history()).toEqual([
      expect.objectContaining({ reason: "stopped", goal: "First goal\n", session: "session-A" }),
    ]);
  });

  it("--name picks the file; a taken name is refused", async () => {
    const out = await typed("/loop-start --name auth-fix Fix auth");
    expect(out?.systemMessage).toContain(".claude/continuation-loop.auth-fix.local.md");
    const again = await typed("/loop-start --name auth-fix Other", "session-B");
    expect(again?.block).toContain("a loop is already running");
    expect((await typed("/loop-start --name ../x Go"))?.block).toContain("--name: invalid loop name");
  });

  it("treats the same start from the same session a moment later as one start (a hook registered twice)", async () => {
    await typed("/loop-start Same goal");
    const before = readFileSync(statePath(), "utf8");
    const again = await typed("/loop-start Same goal", "session-A", NOW + 500);
    expect(again?.block).toBeUndefined();
    expect(readFileSync(statePath(), "utf8")).toBe(before);
    expect((await typed("/loop-start Same goal", "session-A", NOW + 60_000))?.block).toContain("already runs a loop");
  });

  it("--again [N] [--force] restarts a finished loop, read as restart's words", async () => {
    await typed("/loop-start --max-iterations 4 First goal");
    await typed("/loop-stop");
    await typed("/loop-start --max-iterations 6 Second goal");
    await typed("/loop-stop");
    const again = await typed("/loop-start --force --again 2", "session-B");
    expect(again?.systemMessage).toContain("loop started");
    expect(parseState(readFileSync(statePath(), "utf8"))).toMatchObject({ max_iterations: 4, body: "First goal\n" });
    expect((await typed("/loop-start --again 0"))?.block).toBe(
      'continuation-loop: /loop-start: N: invalid value. Expected a whole number of at least 1; received "0".',
    );
    expect((await typed("/loop-start --again 1 2"))?.block).toContain('/loop-start: unexpected argument "2"');
    // --again further on is the goal's.
    expect((await typed("/loop-start --name later Try --again later", "session-C"))?.systemMessage).toContain(
      "loop started",
    );
  });

  it("uses a template", async () => {
    await typed("/loop-start --template tdd Add parsing of dates");
    const state = parseState(readFileSync(statePath(), "utf8"));
    expect(state).toMatchObject({ verify: "npm test", max_iterations: 20 });
    expect(state.body).toContain("## Goal\nAdd parsing of dates\n");
  });
});

describe("handleLoopPrompt: /loop-stop and /loop-status", () => {
  it("stops another session's loop, records it, and says so to Claude and the user", async () => {
    await typed("/loop-start --max-iterations 4 Keep going");
    const out = await typed("/loop-stop --name default", "session-Z");
    expect(existsSync(statePath())).toBe(false);
    expect(out?.block).toContain("loop stopped by the user at iteration 1/4");
    expect(out?.block).toContain("was removed");
    expect(out?.additionalContext).toBeUndefined();
    expect(history().at(-1)).toMatchObject({
      decision: "end",
      reason: "stopped",
      goal: "Keep going\n",
      session: "session-A",
    });
  });

  it("stops a loop whose file is invalid", async () => {
    mkdirSync(join(project, ".claude"));
    writeFileSync(statePath(), "---\nmax_iterations: [\n---\nBroken goal\n");
    const out = await typed("/continuation-loop:loop-stop");
    expect(out?.block).toContain("moved aside unchanged");
    expect(existsSync(statePath())).toBe(false);
    expect(history().at(-1)).toMatchObject({ reason: "stopped", goal: "Broken goal\n" });
  });

  it("says when there is nothing to stop", async () => {
    expect((await typed("/loop-stop"))?.block).toContain("no loop is running");
  });

  it("answers the status itself (a block, no model turn), and lists other sessions' loops", async () => {
    await typed("/loop-start --max-iterations 4 --max-tokens 1000 Keep going");
    const out = await typed("/loop-status --name default", "session-Z", NOW + 65_000);
    expect(out?.additionalContext).toBeUndefined();
    expect(out?.block).toContain("iteration 1/4");
    expect(out?.block).toContain("output tokens 0 of 1,000");
    expect(out?.block).toContain("1m 5s elapsed");
    expect(out?.block).toContain("not this one's");
    expect(out?.block).toContain("ends when: Claude writes <promise>DONE</promise>");
    // A session with no loop of its own is shown the project's first, once.
    const mine = await typed("/loop-status", "session-Z", NOW + 65_000);
    expect(mine?.block).toContain("not this one's");
    expect(mine?.block).not.toContain("other loop");
  });

  it("shows this session's loop in at most 8 rows, and a row per other loop only with --all", async () => {
    await typed("/loop-start --max-iterations 4 Mine");
    await typed("/loop-start --name docs Docs", "session-B");
    await typed("/loop-start --name api Api", "session-C");
    const glance = (await typed("/loop-status"))?.block ?? "";
    expect(glance.split("\n")).toHaveLength(7);
    expect(glance).toMatch(/other loops: (docs, api|api, docs) /);
    const all = (await typed("/loop-status --all"))?.block ?? "";
    expect(all.split("\n")).toHaveLength(8);
    expect(all).toContain("other loop docs: running, iteration 1/10");
    expect(all).toContain("other loop api: running, iteration 1/10");
  });

  it("stops or pauses another session's loop only by its name, from a session that runs none", async () => {
    await typed("/loop-start --max-iterations 4 Keep going");
    for (const command of ["/loop-stop", "/loop-pause"]) {
      const refused = await typed(command, "session-Z");
      expect(refused?.block).toBe(
        `continuation-loop: .claude/continuation-loop.local.md: this session runs no loop; default is session session-A's. Expected ${command} --name default to ${command.slice(6)} it.`,
      );
    }
    expect(parseState(readFileSync(statePath(), "utf8"))).toMatchObject({ active: true, session_id: "session-A" });
    expect((await typed("/loop-pause --name default", "session-Z"))?.block).toContain("loop paused at iteration 1/4");
    expect((await typed("/loop-stop", "session-A"))?.block).toContain("loop stopped by the user at iteration 1/4");
  });

  it("resumes a paused loop, and takes over another session's only with --force", async () => {
    await typed("/loop-start --max-iterations 4 Keep going");
    writeFileSync(statePath(), readFileSync(statePath(), "utf8").replace("active: true", "active: false"));
    expect((await typed("/loop-resume --name default", "session-Z"))?.block).toContain("--force to take it over");
    const out = await typed("/loop-resume");
    expect(out?.systemMessage).toContain("loop resumed at iteration 1/4");
    expect(out?.additionalContext).toContain("Keep going");
    expect(parseState(readFileSync(statePath(), "utf8"))).toMatchObject({ active: true, session_id: "session-A" });
    await typed("/loop-resume --name default --force", "session-Z");
    expect(parseState(readFileSync(statePath(), "utf8")).session_id).toBe("session-Z");
  });

  it("answers --help and refuses a flag the table does not give it, naming the command and its flags", async () => {
    const help = (await typed("/loop-stop --help"))?.block ?? "";
    expect(help.split("\n")[0]).toBe("Usage: /loop-stop [--name NAME] [--all]");
    expect(help).toMatch(/^ {2}--all {2,}every loop of the project$/m);
    expect((await typed("/continuation-loop:loop-report --help"))?.block).not.toContain("--html");
    // A flag of the terminal's: the helper's command that takes it, for a `!` line.
    expect((await typed("/loop-report --html page.html"))?.block).toMatch(
      /^continuation-loop: \/loop-report: --html: for a terminal only\. Expected !node .*cli\.js report --html FILE \(a ! line runs it from Claude Code\)\.$/,
    );
    expect((await typed("/loop-status --project=../web"))?.block).toMatch(
      /--project: for a terminal only\. Expected !node .*cli\.js status --project DIR/,
    );
    expect((await typed("/loop-report --nmae x"))?.block).toBe(
      "continuation-loop: /loop-report: unknown option --nmae (did you mean --name?). Expected one of --name NAME, --help.",
    );
    expect((await typed("/loop-pause now"))?.block).toBe(
      'continuation-loop: /loop-pause: unexpected argument "now". Expected /loop-pause [--name NAME].',
    );
    expect(existsSync(join(project, "page.html"))).toBe(false);
  });

  it("blocks the status of an invalid state file with the field and line", async () => {
    mkdirSync(join(project, ".claude"));
    writeFileSync(statePath(), "---\nmax_iterations: 0\n---\nGoal\n");
    expect((await typed("/loop-status"))?.block).toMatch(/line 2: max_iterations: invalid value/);
  });
});

describe("handleLoopPrompt leaves other prompts alone", () => {
  it.each([
    ["a plain prompt", JSON.stringify({ prompt: "hello /loop-start" })],
    ["a helper command that is no slash command", JSON.stringify({ prompt: "/loop-restart 2" })],
    ["a /loop- command of someone else's", JSON.stringify({ prompt: "/loop-forever Go" })],
    ["bad JSON", "{"],
    ["no prompt", "{}"],
    ["an array", "[]"],
  ])("%s", async (_name, stdin) => {
    expect(await handleLoopPrompt(stdin, { env: {}, cwd: project, now: NOW, packageRoot: REPO })).toBeUndefined();
  });
});

describe("renderPromptOutput", () => {
  it.each([
    [undefined, undefined, ""],
    [undefined, "TODO", { hookSpecificOutput: { hookEventName: "UserPromptSubmit", additionalContext: "TODO" } }],
    [{ block: "no" }, "TODO", { decision: "block", reason: "no" }],
    [
      { systemMessage: "hi", additionalContext: "LOOP" },
      "TODO",
      {
        systemMessage: "hi",
        hookSpecificOutput: { hookEventName: "UserPromptSubmit", additionalContext: "TODO\n\nLOOP" },
      },
    ],
  ])("%j + %j", (loop, todo, expected) => {
    const out = renderPromptOutput(loop, todo);
    expect(out === "" ? "" : JSON.parse(out)).toEqual(expected);
  });
});
