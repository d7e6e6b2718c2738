// `continuation-loop run`'s pure parts: its arguments, the decision after Claude Code exits, what it prints.
import xterm from "@xterm/headless";
import { describe, expect, it } from "vitest";
import { decideAfterExit, decideBackoff, findRootRefusedArgs, type LoopStatus } from "../../src/core/decideRun.js";
import type { LoopError } from "../../src/core/errors.js";
import type { HistoryRecord } from "../../src/core/history.js";
import { parseRunArgs } from "../../src/core/parseRunArgs.js";
import { parseState } from "../../src/core/parseState.js";
import { isLoopContinuation } from "../../src/core/protocol.js";
import { makeRuntime } from "../../src/core/sidecar.js";
import {
  applyRecord,
  renderLiveLine,
  renderRecordLine,
  renderRefusedTools,
  renderRestartPrompt,
  renderRunEnd,
  type RunView,
} from "../../src/core/renderRun.js";
import { cellWidth, clipToCells, wrapToCells } from "../../src/core/cellWidth.js";

const refusal = (argv: string[]): LoopError => {
  try {
    parseRunArgs(argv);
  } catch (error) {
    return error as LoopError;
  }
  throw new Error(`parseRunArgs(${JSON.stringify(argv)}) did not refuse`);
};

describe("parseRunArgs", () => {
  it("splits run's options, the loop's flags, the goal and Claude Code's arguments", () => {
    const request = parseRunArgs([
      "--until",
      "npm test",
      "--report",
      "out.md",
      "--max-iterations=20",
      "--max-restarts",
      "5",
      "Fix",
      "the",
      "tests",
      "--",
      "--permission-mode",
      "acceptEdits",
      "--allowedTools",
      "Bash(npm test) Edit",
    ]);
    expect(request).toMatchObject({
      report: "out.md",
      html: undefined,
      maxRestarts: 5,
      help: false,
      claudeArgs: ["--permission-mode", "acceptEdits", "--allowedTools", "Bash(npm test) Edit"],
    });
    expect(request.start).toMatchObject({ fields: { until: "npm test", max_iterations: 20 }, goal: "Fix the tests" });
  });

  it("takes a value that looks like an option as the flag's value, as start does", () => {
    const request = parseRunArgs(["--until", "--report", "Go"]);
    expect(request.report).toBeUndefined();
    expect(request.start).toMatchObject({ fields: { until: "--report" }, goal: "Go" });
  });

  it("without a goal takes over a loop: only --name, and run's own options", () => {
    expect(parseRunArgs(["--name", "auth", "--html", "r.html"])).toMatchObject({
      start: undefined,
      name: "auth",
      html: "r.html",
      maxRestarts: 3,
    });
    expect(parseRunArgs(["--", "--model", "x"])).toMatchObject({ start: undefined, claudeArgs: ["--model", "x"] });
    expect(refusal(["--max-iterations", "3"]).describe()).toContain("loop flags need a goal");
  });

  it.each([
    [["--max-iterations", "zero", "Go"], "--max-iterations: invalid value"],
    [["--max-restarts", "-1", "Go"], "--max-restarts: invalid value"],
    [["--report"], "--report: needs a value"],
    [["--report=a", "--report=b", "Go"], "--report: given twice"],
    [["--help=yes"], "--help: takes no value"],
    [["--nope", "Go"], "unknown option --nope"],
    [["Go", "--", "--resume", "abc"], "--resume is run's to set"],
    [["Go", "--", "--session-id=abc"], "--session-id is run's to set"],
    [["Go", "--", "-p"], "-p is run's to set"],
  ])("refuses %j, naming the command and the flag", (argv, message) => {
    const error = refusal(argv);
    expect(error.code).toBe("USAGE");
    expect(error.describe()).toContain("continuation-loop run");
    expect(error.describe()).toContain(message);
  });

  it("an unknown option lists run's own and points at start's, without start's hint about --", () => {
    const message = refusal(["--nope", "Go"]).describe();
    expect(message).toContain("run's own --report, --html, --max-restarts, --help");
    expect(message).not.toContain('put "--" before a goal');
  });

  it("--help asks for the usage", () => {
    expect(parseRunArgs(["--help"]).help).toBe(true);
  });
});

const state = (extra = "") =>
  parseState(`---\nmax_iterations: 6\nstarted_at: "2026-01-01T00:00:00.000Z"\n${extra}---\nGoal\n`);
const running = (extra = "", waitUntil?: number): LoopStatus => ({
  kind: "running",
  state: state(extra),
  runtime: makeRuntime(),
  waitUntil,
});
const T0 = Date.parse("2026-01-01T00:00:00.000Z");
const killed = { code: null, signal: "SIGKILL" };

describe("decideAfterExit", () => {
  it("ends with the loop: completed 0, a limit or a stop 1, paused or invalid 3", () => {
    const ended = (reason: string): LoopStatus => ({ kind: "ended", reason, record: undefined });
    expect(decideAfterExit(ended("completed"), killed, 0, 3, T0)).toMatchObject({ kind: "exit", code: 0 });
    for (const reason of ["max_iterations", "max_cost", "stalled", "no_improvement", "stopped", "vanished"])
      expect(decideAfterExit(ended(reason), killed, 0, 3, T0)).toMatchObject({ kind: "exit", code: 1 });
    const paused: LoopStatus = { kind: "paused", state: state(), why: "Which database?" };
    expect(decideAfterExit(paused, killed, 0, 3, T0)).toMatchObject({ kind: "exit", code: 3, why: "paused" });
    // A session took the loop over (/loop-resume --force): it goes on there, never restarted here.
    expect(decideAfterExit({ kind: "taken", session: "s-2" }, killed, 0, 3, T0)).toMatchObject({
      kind: "exit",
      code: 1,
      why: "taken",
    });
    expect(decideAfterExit({ kind: "invalid", message: "bad" }, killed, 0, 3, T0)).toMatchObject({ code: 3 });
  });

  it("restarts a running loop with a growing wait, at most N times in a row", () => {
    expect(decideAfterExit(running(), killed, 0, 3, T0)).toEqual({ kind: "restart", delayMs: 2000, attempt: 1 });
    expect(decideAfterExit(running(), killed, 2, 3, T0)).toEqual({ kind: "restart", delayMs: 8000, attempt: 3 });
    expect(decideAfterExit(running(), killed, 3, 3, T0)).toMatchObject({ kind: "exit", code: 4, why: "restarts" });
    expect(decideAfterExit(running(), killed, 0, 0, T0)).toMatchObject({ kind: "exit", code: 4 });
    expect(decideBackoff(30)).toBe(5 * 60_000);
  });

  it("never restarts a process that could not start, or that refused its start before it saved its session", () => {
    const error = { code: null, signal: null, error: "ENOENT" };
    expect(decideAfterExit(running(), error, 0, 3, T0)).toMatchObject({ kind: "exit", code: 4 });
    const refused = { code: 1, signal: null, refusedAtStart: true };
    expect(decideAfterExit(running(), refused, 0, 3, T0)).toMatchObject({ kind: "exit", code: 4, why: "restarts" });
    expect(decideAfterExit(running(), { code: 1, signal: null }, 0, 3, T0)).toMatchObject({ kind: "restart" });
  });

  it("waits for the loop's own wait after an API error, when it is longer", () => {
    expect(decideAfterExit(running("", T0 + 60_000), killed, 0, 3, T0)).toMatchObject({ delayMs: 60_000 });
    expect(decideAfterExit(running("", T0 + 500), killed, 0, 3, T0)).toMatchObject({ delayMs: 2000 });
  });

  it("ends at once (exit 4, the loop left running) after an API error no restart mends; a rate limit or an overload keeps the restarts", () => {
    const refused = { status: 401, type: "authentication_error", kind: "authentication_failed" };
    expect(decideAfterExit(running(), killed, 0, 3, T0, refused)).toEqual({
      kind: "exit",
      code: 4,
      why: "api",
      failure: refused,
      lasting: "credentials",
    });
    expect(decideAfterExit(running(), killed, 0, 3, T0, { kind: "authentication_failed" })).toMatchObject({
      why: "api",
    });
    for (const passing of [{ status: 429, kind: "rate_limit" }, { status: 529 }, { kind: "server_error" }, undefined])
      expect(decideAfterExit(running(), killed, 0, 3, T0, passing)).toMatchObject({ kind: "restart", attempt: 1 });
    // The loop's own end or pause still decides first.
    const ended: LoopStatus = { kind: "ended", reason: "completed", record: undefined };
    expect(decideAfterExit(ended, killed, 0, 3, T0, refused)).toMatchObject({ code: 0, why: "ended" });
  });

  it("never goes past max_duration: not restarted once it has passed, or would pass during the wait", () => {
    const timed = running("max_duration: 1h\n");
    expect(decideAfterExit(timed, killed, 0, 3, T0 + 3_600_000)).toMatchObject({ kind: "exit", code: 1, why: "time" });
    expect(decideAfterExit(timed, killed, 0, 3, T0 + 3_599_000)).toMatchObject({ kind: "exit", code: 1 });
    expect(decideAfterExit(timed, killed, 0, 3, T0 + 3_000_000)).toMatchObject({ kind: "restart" });
  });
});

const view: RunView = {
  shown: ".claude/continuation-loop.local.md",
  name: "default",
  iteration: 1,
  max: 20,
  startedAt: T0,
  spend: undefined,
  detail: "working",
};
const at = (seconds: number) => new Date(T0 + seconds * 1000).toISOString();

describe("what Claude Code refuses as root", () => {
  it("names the word of CLAUDE_ARGS that bypasses permissions, as root and outside a sandbox Claude Code is told of", () => {
    const refused = (args: string[], uid: number | undefined = 0, env: Record<string, string> = {}) =>
      findRootRefusedArgs(args, uid, env);
    expect(refused(["--model", "x", "--dangerously-skip-permissions"])).toBe("--dangerously-skip-permissions");
    expect(refused(["--allow-dangerously-skip-permissions"])).toBe("--allow-dangerously-skip-permissions");
    expect(refused(["--permission-mode", "bypassPermissions"])).toBe("--permission-mode bypassPermissions");
    expect(refused(["--permission-mode=bypassPermissions"])).toBe("--permission-mode=bypassPermissions");
    expect(refused(["--permission-mode", "acceptEdits", "--allowedTools", "Edit"])).toBeUndefined();
    expect(refused(["--dangerously-skip-permissions"], 1000)).toBeUndefined();
    // No uid at all (Windows).
    expect(findRootRefusedArgs(["--dangerously-skip-permissions"], undefined, {})).toBeUndefined();
    expect(refused(["--dangerously-skip-permissions"], 0, { IS_SANDBOX: "1" })).toBeUndefined();
    expect(refused(["--dangerously-skip-permissions"], 0, { IS_SANDBOX: "true" })).toBe(
      "--dangerously-skip-permissions",
    );
    expect(refused(["--dangerously-skip-permissions"], 0, { CLAUDE_CODE_BUBBLEWRAP: "1" })).toBeUndefined();
  });
});

describe("the progress lines", () => {
  it("one line per record: iteration, elapsed, spend and the news", () => {
    const r: HistoryRecord = {
      time: at(134),
      decision: "continue",
      iteration: 3,
      cost_usd: 0.42,
      until_failure: "`npm test` exited with status 1",
    };
    expect(renderRecordLine(view, r)).toBe("[3/20] 2m14s $0.420 until: npm test exited with status 1");
    expect(renderRecordLine(view, { time: at(5), decision: "continue", iteration: 1, reply_line: "Fixed it" })).toBe(
      '[1/20] 5s "Fixed it"',
    );
    // The promise written and refused: why, not the reply that wrote it.
    const refusal = "the verify command `npm test` exited with status 1. Last output:\n\nFAIL test/a.test.ts";
    expect(
      renderRecordLine(view, { time: at(7), decision: "continue", iteration: 2, reply_line: "Done. DONE", refusal }),
    ).toBe("[2/20] 7s refused: the verify command npm test exited with status 1");
    expect(renderRecordLine(view, { time: at(9), decision: "end", iteration: 4, reason: "completed" })).toBe(
      "[4/20] 9s completed",
    );
    expect(renderRecordLine(view, { time: at(9), decision: "pause", iteration: 4, question: "Which database?" })).toBe(
      "[4/20] 9s paused: Which database?",
    );
  });

  it("text Claude wrote never starts a line: a lone CR ends the reply's first line (a CI log starts a line there)", () => {
    const line = renderRecordLine(view, {
      time: at(5),
      decision: "continue",
      iteration: 1,
      reply_line: "Done.\r::add-mask::secret\r\n::stop-commands::x",
    });
    expect(line).toBe('[1/20] 5s "Done."');
    for (const reply of ["Done.\r::add-mask::x", "::add-mask::x\r", "a\r\n::b::c", "\r::stop-commands::t"]) {
      const lines = renderRecordLine(view, { time: at(5), decision: "continue", iteration: 1, reply_line: reply });
      expect(lines.split(/\r\n?|\n/).filter((l) => /^\s*(::|##\[)/.test(l))).toEqual([]);
    }
  });

  it("a tool Claude Code refused shows on its iteration's line, and the end names each with how to allow it", () => {
    const refused = (iteration: number, tools: unknown): HistoryRecord =>
      ({
        time: at(5),
        decision: "continue",
        iteration,
        reply_line: "Could not run it",
        refused_tools: tools,
      }) as HistoryRecord;
    expect(renderRecordLine(view, refused(1, ["Bash"]))).toBe('[1/20] 5s "Could not run it" (refused: Bash)');
    let seen = applyRecord(view, refused(1, ["Bash"]));
    seen = applyRecord(seen, refused(2, ["Bash", "mcp__db__query"]));
    seen = applyRecord(seen, { time: at(9), decision: "continue", iteration: 3 });
    // A hand-edited record's odd value counts as none.
    seen = applyRecord(seen, refused(4, "Bash"));
    expect(seen.refused).toEqual({ Bash: 2, mcp__db__query: 1 });
    const line = renderRefusedTools(seen) ?? "";
    expect(line).toContain("Bash (at 2 iterations), mcp__db__query (at 1 iteration)");
    expect(line).toContain('-- --allowedTools "Bash mcp__db__query"');
    expect(line).toContain("permissions.allow");
    expect(renderRefusedTools(view)).toBeUndefined();
  });

  it("the live line shows the iteration running now and the last news, cut to the terminal's width", () => {
    const next = applyRecord(view, { time: at(10), decision: "continue", iteration: 3, cost_usd: 1.5 });
    expect(next).toMatchObject({ iteration: 4, spend: 1.5 });
    expect(renderLiveLine(next, T0 + 75_000, 80)).toBe("[4/20] 1m15s $1.50 continue");
    const long = renderLiveLine({ ...next, detail: "x".repeat(200) }, T0, 40);
    expect(long).toHaveLength(39);
    expect(long.endsWith("…")).toBe(true);
    // A reply in a wide script is cut by the cells it takes, so the line still fits its row.
    const wide = renderLiveLine({ ...next, detail: `"${"報告書を確認しました".repeat(6)}"` }, T0, 80);
    expect(cellWidth(wide)).toBeLessThanOrEqual(79);
    expect(wide.startsWith('[4/20] 0s $1.50 "報告書')).toBe(true);
    expect(wide.endsWith("…")).toBe(true);
  });

  it("a tab in the last news is one space on the live line: drawn in a terminal, its redraw leaves no row behind", async () => {
    // Go's test runner prints `FAIL<tab>package<tab>time`: a tab moves to the next stop, up to eight cells.
    const failure = `FAIL\t${"example.com/service/internal/".repeat(2)}store\t0.412s`;
    const next = applyRecord(view, { time: at(10), decision: "continue", iteration: 3, until_failure: failure });
    const line = renderLiveLine(next, T0 + 75_000, 80);
    expect(line).not.toContain("\t");
    expect(line.startsWith("[4/20] 1m15s until: FAIL example.com/")).toBe(true);
    const term = new xterm.Terminal({ cols: 80, rows: 5, allowProposedApi: true });
    const drawn = (text: string) => new Promise<void>((done) => term.write(text, done));
    await drawn(`\r\x1b[2K${line}`);
    await drawn(
      `\r\x1b[2K${renderLiveLine(applyRecord(next, { time: at(20), decision: "continue", iteration: 4 }), T0, 80)}`,
    );
    const rows = Array.from({ length: 5 }, (_, row) => term.buffer.active.getLine(row)?.translateToString(true) ?? "");
    expect(rows.filter((row) => row !== "")).toEqual(["[5/20] 0s continue"]);
    expect(clipToCells("a\tb", 10)).toBe("a b");
    expect(wrapToCells("one\ttwo three", 9)).toEqual(["one two", "    three"]);
    expect(cellWidth("a\tb")).toBe(3);
  });

  it("the end line says how the loop ended and the exit code", () => {
    const end = (why: "ended" | "paused" | "taken" | "time" | "restarts", code: 0 | 1 | 3 | 4, reason = "") =>
      renderRunEnd({
        step: { kind: "exit", code, why },
        view: { ...view, iteration: 6 },
        now: T0 + 12_000,
        reason,
        exit: { code: 1, signal: null },
        restartsInARow: 3,
        tail: "line one\nInvalid API key\n",
        session: "s-1",
        maxDuration: 3600,
      });
    expect(end("ended", 0, "completed")).toBe("continuation-loop: the loop completed at iteration 6/20, 12s. Exit 0.");
    expect(end("ended", 1, "max_iterations")).toContain("ended (max_iterations)");
    expect(end("paused", 3, "Which database?")).toContain("paused for you at iteration 6/20: Which database?");
    expect(end("paused", 3, "Which database?")).toContain("claude --resume s-1");
    expect(end("paused", 3, "Which database?")).toContain(
      "`continuation-loop resume`, then `continuation-loop run` again",
    );
    expect(end("taken", 1, "s-2")).toBe(
      "continuation-loop: the loop was taken over by session s-2 at iteration 6/20; it goes on there, so this run stops. Exit 1.",
    );
    expect(end("time", 1)).toContain("max_duration (1h)");
    const gaveUp = end("restarts", 4);
    expect(gaveUp).toContain("exited with code 1, 4 times in a row without a new iteration");
    expect(gaveUp).toContain("Invalid API key");
    expect(gaveUp).toContain("`continuation-loop run` (no goal) takes it over");
    expect(gaveUp).toContain("`continuation-loop stop` ends it");
  });

  it("the way back to a named loop names it: to take it over, stop it, resume it, or run it once fixed", () => {
    const named = (step: { code: 3 | 4; why: "paused" | "invalid" | "restarts" }) =>
      renderRunEnd({
        step: { kind: "exit", ...step },
        view: { ...view, shown: ".claude/continuation-loop.nightly.local.md", name: "nightly" },
        now: T0 + 12_000,
        reason: "active: false",
        exit: { code: 1, signal: null },
        restartsInARow: 4,
        tail: "",
        session: undefined,
        maxDuration: undefined,
      });
    expect(named({ code: 4, why: "restarts" })).toContain(
      "The loop is still in .claude/continuation-loop.nightly.local.md: `continuation-loop run --name nightly` (no goal) takes it over, `continuation-loop stop --name nightly` ends it.",
    );
    expect(named({ code: 3, why: "paused" })).toContain(
      "`continuation-loop resume --name nightly`, then `continuation-loop run --name nightly` again",
    );
    expect(named({ code: 3, why: "invalid" })).toContain(
      "The loop waits until the file is fixed; then `continuation-loop run --name nightly` again.",
    );
  });

  it("the end line after an API error no restart mends names the status and type, and what to check", () => {
    const refused = (failure: { status?: number; type?: string; kind?: string }, lasting: "credentials" | "request") =>
      renderRunEnd({
        step: { kind: "exit", code: 4, why: "api", failure, lasting },
        view: { ...view, iteration: 2 },
        now: T0 + 3_000,
        reason: "",
        exit: { code: 1, signal: null },
        restartsInARow: 0,
        tail: "",
        session: "s-1",
        maxDuration: undefined,
      });
    const key = refused({ status: 401, type: "authentication_error", kind: "authentication_failed" }, "credentials");
    expect(key).toMatch(/^continuation-loop: Claude Code could not run: the API answered 401 authentication_error,/);
    expect(key).toContain("ANTHROPIC_API_KEY");
    expect(key).toContain("`continuation-loop run` (no goal) takes it over");
    expect(key).toMatch(/Exit 4\.$/);
    expect(refused({ status: 401, kind: "authentication_failed" }, "credentials")).toContain(
      "the API answered 401 (authentication_failed),",
    );
    expect(refused({ kind: "authentication_failed" }, "credentials")).toContain(
      "Claude Code reported authentication_failed,",
    );
    expect(refused({ status: 404, type: "not_found_error" }, "request")).toContain("--model");
  });

  it("a restarted Claude Code gets the loop's marker, the iteration, the goal and what is left of its limits", () => {
    const runtime = { ...makeRuntime(), output_tokens: 1500 };
    const prompt = renderRestartPrompt(state("iteration_count: 3\nmax_tokens: 2000\n"), runtime, view.shown, T0);
    expect(isLoopContinuation(prompt)).toBe(true);
    expect(prompt).toContain("iteration 3/6");
    expect(prompt).toContain("Goal:\nGoal");
    expect(prompt).toContain("output tokens 1,500 of 2,000 (500 left)");
  });
});

describe("cellWidth", () => {
  it("counts wide characters as two cells and combining marks as none", () => {
    expect(cellWidth("plain")).toBe(5);
    expect(cellWidth("報告")).toBe(4);
    expect(cellWidth("ok 🎉")).toBe(5);
    expect(cellWidth("e\u0301")).toBe(1);
    expect(clipToCells("報告書を確認", 7)).toBe("報告書…");
    expect(clipToCells("short", 10)).toBe("short");
  });

  it("wraps a row at words under its own text, a code span kept whole (Markdown joins a span broken in two)", () => {
    const row = "  ends when: `echo the report is not written yet; exit 1` exits 0 (`test -f report.md` must pass)";
    expect(wrapToCells(row, 74)).toEqual([
      "  ends when: `echo the report is not written yet; exit 1` exits 0",
      "    (`test -f report.md` must pass)",
    ]);
    // Two rows at most, the second cut where the room ends.
    const rows = wrapToCells(row, 54);
    expect(rows).toHaveLength(2);
    expect(rows[1]).toMatch(/^ {4}`echo the report.*…$/);
    for (const fitted of rows) expect(cellWidth(fitted)).toBeLessThanOrEqual(54);
    expect(wrapToCells("a row that fits", 40)).toEqual(["a row that fits"]);
  });

  it("leaves no word alone on a wrapped row's last line when the line above can give one, with its ' · '", () => {
    const head = "continuation-loop: loop paused, iteration 4/5 · 6s elapsed · this session's";
    for (const width of [74, 66])
      expect(wrapToCells(head, width)).toEqual([
        "continuation-loop: loop paused, iteration 4/5 · 6s elapsed",
        "    · this session's",
      ]);
    // A last line of two words or more is left as it is.
    expect(wrapToCells("  one two three four five six", 22)).toEqual(["  one two three four", "    five six"]);
    // So is a line above that would keep one word.
    expect(wrapToCells("  longwordhere alone", 16)).toEqual(["  longwordhere", "    alone"]);
  });
});
