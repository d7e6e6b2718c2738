// A loop's life around the Stop decision: the short reminder, Esc pausing, a loop stopped from
// elsewhere or deleted under its owner (docs/REFERENCE.md "What you see while a loop runs", "Pausing", "Several loops").
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, utimesSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { spawnBundle } from "../support/processes.js";
import { makeProject, readHistory as history, runHook } from "../support/runHook.js";

const MARKER = "[SYSTEM REMINDER - CONTINUATION LOOP ACTIVE]";
const stop = (root: string, session = "s1", reply = "working") =>
  runHook("stop", { session_id: session, cwd: root, hook_event_name: "Stop", last_assistant_message: reply });
const prompt = (root: string, text: string, session = "s1", transcript?: string) =>
  runHook("prompt", {
    session_id: session,
    cwd: root,
    hook_event_name: "UserPromptSubmit",
    prompt: text,
    ...(transcript && { transcript_path: transcript }),
  });

describe("what Claude is sent", () => {
  it("the full prompt first and after news; one line otherwise", () => {
    const { root, statePath } = makeProject(
      '---\nmax_iterations: 10\ncompletion_promise: "ALL DONE"\nstall_limit: 0\n---\nFix the parser.\n',
    );
    const first = stop(root);
    expect(first.code).toBe(2);
    expect(first.stderr).toContain("Fix the parser.");
    const second = stop(root, "s1", "more work");
    expect(second.code).toBe(2);
    expect(second.stderr.trimEnd().split("\n")).toHaveLength(1);
    expect(second.stderr.startsWith(`${MARKER} iteration 3/10 (7 left)`)).toBe(true);
    expect(second.stderr).toContain('"ALL DONE"');
    expect(second.stderr).not.toContain("Fix the parser.");
    // A changed goal is news: sent in full at the next stop.
    writeFileSync(statePath, readFileSync(statePath, "utf8").replace("Fix the parser.", "Fix the lexer."));
    const third = stop(root, "s1", "again");
    expect(third.stderr).toContain("Fix the lexer.");
    expect(stop(root, "s1", "and again").stderr.trimEnd().split("\n")).toHaveLength(1);
  });

  it("an edit that changes nothing the full prompt says is no news: the short reminder", () => {
    const { root, statePath } = makeProject(
      "---\nmax_iterations: 10\nmax_duration: 2h\nmaxCost: 5\nstall_limit: 0\n---\nFix the parser.\n",
    );
    expect(stop(root).stderr).toContain("Fix the parser.");
    const edits: [string, (text: string) => string][] = [
      ["a comment line, which moves the misspelled key's line", (t) => t.replace("---\n", "---\n# tuned by hand\n")],
      ["the same duration spelled otherwise", (t) => t.replace("max_duration: 2h", "max_duration: 120m")],
      ["blank lines after the goal", (t) => `${t}\n\n`],
    ];
    for (const [what, edit] of edits) {
      writeFileSync(statePath, edit(readFileSync(statePath, "utf8")));
      const next = stop(root, "s1", what);
      expect(next.code, what).toBe(2);
      expect(next.stderr.trimEnd().split("\n"), what).toHaveLength(1);
    }
    // A value that does change is news again.
    writeFileSync(statePath, readFileSync(statePath, "utf8").replace("120m", "90m"));
    expect(stop(root, "s1", "shorter").stderr).toContain("Fix the parser.");
  });
});

describe("a goal of many KB", () => {
  it("only the loop's first record keeps it, and each iteration's time runs from the record before", () => {
    // Written an hour ago: an iteration timed from the start instead of the record before would take an hour.
    const anHourAgo = new Date(Date.now() - 3_600_000).toISOString();
    const goal = `${"Ünïcode goal line with 目標 and more words to make it long.\n".repeat(2_000)}`;
    const { root, historyPath } = makeProject(
      `---\nmax_iterations: 10\nsession_id: s1\nstarted_at: ${anHourAgo}\n---\n${goal}`,
    );
    for (const reply of ["one", "two", "three"]) expect(stop(root, "s1", reply).code).toBe(2);
    const records = history(historyPath);
    expect(records.map((r) => typeof r.goal)).toEqual(["string", "undefined", "undefined"]);
    expect(records[0]?.goal).toBe(goal);
    for (const next of records.slice(1)) expect(next.duration_s).toBeLessThan(60);
  });
});

describe("/loop-pause and /loop-resume", () => {
  it("the iteration after a resume counts its time from the resume, not from the pause", () => {
    const { root } = makeProject("---\nmax_iterations: 10\nsession_id: s1\n---\nGoal\n");
    expect(stop(root).code).toBe(2);
    expect(String(prompt(root, "/loop-pause").json?.reason)).toContain("loop paused");
    // The pause began an hour ago.
    const historyPath = join(root, ".claude/continuation-loop.history.jsonl");
    const anHourAgo = new Date(Date.now() - 3_600_000).toISOString();
    const backdated = history(historyPath).map((r) => `${JSON.stringify({ ...r, time: anHourAgo })}\n`);
    writeFileSync(historyPath, backdated.join(""));
    expect(String(prompt(root, "/loop-resume").json?.systemMessage)).toContain("loop resumed");
    expect(stop(root).code).toBe(2);
    const [pause, resume, next] = history(historyPath).slice(-3);
    expect(pause).toMatchObject({ decision: "pause", reason: "paused" });
    expect(resume).toMatchObject({ decision: "resume", reason: "resumed", iteration: 2, session: "s1" });
    expect(next).toMatchObject({ decision: "continue", iteration: 2 });
    expect(next?.duration_s).toBeLessThan(60);
  });

  it("a pause and a resume made by editing active are recorded too, and the time between is not the iteration's", () => {
    const { root, statePath, historyPath } = makeProject("---\nmax_iterations: 10\nsession_id: s1\n---\nGoal\n");
    expect(stop(root).code).toBe(2);
    writeFileSync(
      statePath,
      readFileSync(statePath, "utf8").replace("max_iterations", "active: false\nmax_iterations"),
    );
    // The Stops of the person's own turns while it is paused: one record of the pause.
    expect(stop(root, "s1", "my own turn")).toMatchObject({ code: 0, stdout: "" });
    expect(stop(root, "s1", "another turn of mine")).toMatchObject({ code: 0, stdout: "" });
    expect(history(historyPath).slice(1)).toEqual([
      expect.objectContaining({ decision: "pause", reason: "active_false", iteration: 2, session: "s1" }),
    ]);
    expect(runHook("cli", "", { args: ["status"], cwd: root }).stdout).toContain("paused: active is false");
    // The loop started two hours ago, the pause began an hour ago; the person set active: true a minute ago.
    const anHourAgo = new Date(Date.now() - 3_600_000).toISOString();
    const backdated = history(historyPath).map((r) => `${JSON.stringify({ ...r, time: anHourAgo })}\n`);
    writeFileSync(historyPath, backdated.join(""));
    const twoHoursAgo = new Date(Date.now() - 7_200_000).toISOString();
    const resumed = readFileSync(statePath, "utf8")
      .replace("active: false", "active: true")
      .replace(/started_at: .*/, `started_at: "${twoHoursAgo}"`);
    writeFileSync(statePath, resumed);
    const aMinuteAgo = new Date(Date.now() - 60_000);
    utimesSync(statePath, aMinuteAgo, aMinuteAgo);
    // As after /loop-resume, Claude gets the full prompt.
    const going = stop(root);
    expect(going.code).toBe(2);
    expect(going.stderr).toContain("Goal:");
    const [pause, resume, next] = history(historyPath).slice(-3);
    expect(pause).toMatchObject({ decision: "pause", reason: "active_false" });
    expect(resume).toMatchObject({ decision: "resume", reason: "active_true", iteration: 2, session: "s1" });
    // Timed when the person saved the file.
    expect(Math.abs(Date.parse(String(resume?.time)) - aMinuteAgo.getTime())).toBeLessThan(1000);
    expect(next).toMatchObject({ decision: "continue", iteration: 2 });
    expect(next?.duration_s).toBeGreaterThanOrEqual(59);
    expect(next?.duration_s).toBeLessThan(120);
    // Running again: nothing more to record.
    expect(stop(root).code).toBe(2);
    expect(
      history(historyPath)
        .slice(-2)
        .map((r) => r.decision),
    ).toEqual(["continue", "continue"]);
  });
});

describe("Esc pauses the loop", () => {
  it("an interrupted last turn pauses the loop before the next prompt, once; /loop-resume resumes it", () => {
    const { root, statePath, historyPath } = makeProject("---\nmax_iterations: 10\nsession_id: s1\n---\nGoal\n");
    const transcript = join(root, "t.jsonl");
    const line = (type: string, content: unknown) => `${JSON.stringify({ type, message: { role: type, content } })}\n`;
    writeFileSync(transcript, line("user", "go") + line("assistant", [{ type: "text", text: "work" }]));
    // Not interrupted: nothing happens.
    expect(prompt(root, "hello", "s1", transcript).stdout).toBe("");
    writeFileSync(transcript, line("user", [{ type: "text", text: "[Request interrupted by user]" }]), { flag: "a" });
    const paused = prompt(root, "what is the status?", "s1", transcript);
    expect(String(paused.json?.systemMessage)).toMatch(/paused at iteration 1\/10.*\/loop-resume/);
    expect(readFileSync(statePath, "utf8")).toContain("active: false");
    // The history records the pause, as /loop-pause's, for the report.
    expect(history(historyPath)).toEqual([
      expect.objectContaining({ session: "s1", iteration: 1, decision: "pause", reason: "interrupted" }),
    ]);
    // The Stop after the user's prompt does not continue the loop.
    expect(stop(root)).toMatchObject({ code: 0, stdout: "" });
    // Told once: the loop is already paused.
    expect(prompt(root, "and now?", "s1", transcript).stdout).toBe("");
    expect(history(historyPath)).toHaveLength(1);
    // Another session's interrupted turn does not touch this loop.
    const resumed = prompt(root, "/loop-resume", "s1", transcript);
    expect(String(resumed.json?.systemMessage)).toContain("loop resumed");
    expect(readFileSync(statePath, "utf8")).toContain("active: true");
    expect(stop(root).code).toBe(2);
  });

  it("waiting in plan mode, an interrupted turn (a rejected plan) leaves the loop waiting, not paused", () => {
    const { root, statePath, historyPath } = makeProject("---\nmax_iterations: 10\nsession_id: s1\n---\nGoal\n");
    const transcript = join(root, "t.jsonl");
    const planStop = (mode: string) =>
      runHook("stop", {
        session_id: "s1",
        cwd: root,
        hook_event_name: "Stop",
        last_assistant_message: "planned",
        permission_mode: mode,
      });
    expect(planStop("plan").code).toBe(0);
    writeFileSync(
      transcript,
      `${JSON.stringify({ type: "user", message: { role: "user", content: "[Request interrupted by user]" } })}\n`,
    );
    expect(prompt(root, "plan it again", "s1", transcript).stdout).toBe("");
    expect(readFileSync(statePath, "utf8")).not.toContain("active: false");
    // The first Stop outside plan mode goes on from the same iteration, as without the interruption.
    expect(planStop("default").code).toBe(2);
    expect(history(historyPath).map((r) => `${r.decision}:${r.iteration}`)).toEqual(["waiting_plan:1", "continue:1"]);
  });

  it("/loop-status right after an interruption pauses the loop first and says so, without a model turn", () => {
    const { root, statePath } = makeProject("---\nmax_iterations: 10\nsession_id: s1\n---\nGoal\n");
    const transcript = join(root, "t.jsonl");
    writeFileSync(
      transcript,
      `${JSON.stringify({ type: "user", message: { role: "user", content: "[Request interrupted by user]" } })}\n`,
    );
    const status = prompt(root, "/loop-status", "s1", transcript);
    expect(status.json?.decision).toBe("block");
    const reason = String(status.json?.reason);
    expect(reason).toMatch(/paused at iteration 1\/10/);
    expect(reason).toMatch(/paused/i);
    expect(reason.split("\n").length).toBeGreaterThan(1);
    expect(readFileSync(statePath, "utf8")).toContain("active: false");
    // /loop-stop and /loop-resume are not pause checks: resume resumes at once.
    expect(String(prompt(root, "/loop-resume", "s1", transcript).json?.systemMessage)).toContain("loop resumed");
    expect(readFileSync(statePath, "utf8")).toContain("active: true");
  });
});

describe("a loop ended without its owner", () => {
  it("stopped from another session: the owner is told once at its next Stop", () => {
    const { root, statePath } = makeProject("---\nmax_iterations: 10\n---\nGoal\n");
    expect(stop(root, "owner").code).toBe(2);
    expect(prompt(root, "/loop-stop --name default", "other").json?.decision).toBe("block");
    expect(existsSync(statePath)).toBe(false);
    const told = stop(root, "owner");
    expect(told.code).toBe(0);
    expect(String(told.json?.systemMessage)).toContain("was stopped from session other");
    expect(stop(root, "owner")).toMatchObject({ code: 0, stdout: "" });
  });

  it("a deleted state file is reported once, neutrally, and recorded as vanished, so it can be started again", () => {
    const { root, statePath, historyPath } = makeProject("---\nmax_iterations: 10\nmax_duration: 2h\n---\nGoal\n");
    expect(stop(root, "owner").code).toBe(2);
    expect(stop(root, "owner").code).toBe(2);
    rmSync(statePath);
    const told = stop(root, "owner");
    expect(told.json?.systemMessage).toBe(
      "continuation-loop: .claude/continuation-loop.local.md was deleted, so the loop ended (recorded as vanished; /loop-stop records it as stopped).",
    );
    expect(history(historyPath).at(-1)).toMatchObject({
      decision: "end",
      reason: "vanished",
      session: "owner",
      iteration: 2,
      goal: "Goal\n",
      fields: { max_iterations: 10, max_duration: "2h" },
    });
    expect(stop(root, "owner")).toMatchObject({ code: 0, stdout: "" });
    // Another session is never told about it.
    mkdirSync(join(root, ".claude"), { recursive: true });
    expect(stop(root, "someone-else")).toMatchObject({ code: 0, stdout: "" });
    // Its end keeps its goal and fields, as every end does: /loop-start --again starts it again.
    expect(String(prompt(root, "/loop-start --again", "owner").json?.systemMessage)).toContain("loop started");
    const restarted = readFileSync(statePath, "utf8");
    expect(restarted).toContain('max_duration: "2h"');
    expect(restarted.endsWith("---\nGoal\n")).toBe(true);
  });

  it("a long loop's deleted state file still ends with its goal, from far back in the history", () => {
    const { root, statePath, historyPath } = makeProject("---\nmax_iterations: 9000\n---\nGoal\n");
    expect(stop(root, "owner").code).toBe(2);
    // Thousands of iterations later: the loop's first record, with its goal, lies megabytes back.
    const first = history(historyPath).at(-1) ?? {};
    const { goal: _goal, fields: _fields, ...later } = first;
    const lines = Array.from({ length: 4000 }, (_, i) =>
      JSON.stringify({ ...later, iteration: i + 2, reply_line: "x".repeat(200) }),
    );
    writeFileSync(historyPath, `${lines.join("\n")}\n`, { flag: "a" });
    rmSync(statePath);
    expect(stop(root, "owner").code).toBe(0);
    expect(history(historyPath).at(-1)).toMatchObject({
      decision: "end",
      reason: "vanished",
      iteration: 4001,
      goal: "Goal\n",
      fields: { max_iterations: 9000 },
    });
  });

  it("a state file an editor saves by moving the old one away first is not taken for deleted", async () => {
    const { root, statePath, historyPath } = makeProject("---\nmax_iterations: 10\n---\nGoal\n");
    expect(stop(root, "owner").code).toBe(2);
    // Emacs' first save: the old file becomes the backup, then the new text is written under the name.
    const saved = readFileSync(statePath, "utf8").replace("max_iterations: 10", "max_iterations: 20");
    renameSync(statePath, `${statePath}~`);
    const run = await spawnBundle("stop", {
      cwd: root,
      env: { CONTINUATION_LOOP_TEST_CRASH_AT: "return-wait:pause" },
      stdin: JSON.stringify({ session_id: "owner", cwd: root, last_assistant_message: "working" }),
      whilePaused: () => writeFileSync(statePath, saved),
    });
    expect(run.code).toBe(2);
    expect(run.stderr).toContain("iteration 3/20");
    expect(history(historyPath).map((r) => r.reason)).toEqual(["continue", "continue"]);
  });

  describe('an edit landing inside a Stop\'s save (docs/REFERENCE.md "Steering a running loop")', () => {
    /** One Stop whose save a user edit lands inside (a pause point, src/io/crashPoint.ts): `edit` runs there. */
    const stopWithEditInside = (root: string, reply: string, edit: () => void) =>
      spawnBundle("stop", {
        cwd: root,
        env: { CONTINUATION_LOOP_TEST_CRASH_AT: "fsync-done:pause" },
        stdin: JSON.stringify({ session_id: "owner", cwd: root, last_assistant_message: reply }),
        whilePaused: edit,
      });

    it("an edit landing inside a Stop's save is decided on as edited: a new promise the reply carries completes", async () => {
      const { root, statePath, historyPath } = makeProject(
        "---\nmax_iterations: 10\ncompletion_promise: NEVER\nuntil: echo run >> until.log; exit 1\n---\nGoal\n",
      );
      expect(stop(root, "owner").code).toBe(2);
      const edited = () =>
        writeFileSync(
          statePath,
          readFileSync(statePath, "utf8").replace("NEVER", "SHIPPED").replace("exit 1", "exit 0"),
        );
      const run = await stopWithEditInside(root, "All SHIPPED.", edited);
      expect(run.code, run.stderr).toBe(0);
      expect(existsSync(statePath)).toBe(false);
      expect(history(historyPath).at(-1)).toMatchObject({ decision: "end", reason: "completed", promise: "SHIPPED" });
      // The command the edit changed ran as edited; the first Stop's ran once.
      expect(readFileSync(join(root, "until.log"), "utf8")).toBe("run\nrun\nrun\n");
    });

    it("a command an edit inside a Stop's save leaves as it was is not run again for that Stop", async () => {
      const { root, statePath } = makeProject(
        "---\nmax_iterations: 10\nuntil: echo run >> until.log; exit 1\n---\nGoal\n",
      );
      expect(stop(root, "owner").code).toBe(2);
      const edited = () => writeFileSync(statePath, readFileSync(statePath, "utf8").replace("Goal", "New goal"));
      const run = await stopWithEditInside(root, "working", edited);
      expect(run.code).toBe(2);
      expect(run.stderr).toContain("New goal");
      expect(readFileSync(join(root, "until.log"), "utf8")).toBe("run\nrun\n");
    });

    it("a checklist added inside a Stop's save is in that Stop's full prompt, and the news is sent once", async () => {
      const { root, statePath } = makeProject("---\nmax_iterations: 10\n---\nGoal\n");
      writeFileSync(join(root, "TODO.md"), "- [ ] write the parser\n- [ ] test it\n");
      expect(stop(root, "owner").code).toBe(2);
      const edited = () =>
        writeFileSync(
          statePath,
          readFileSync(statePath, "utf8").replace("max_iterations", "checklist: TODO.md\nmax_iterations"),
        );
      const run = await stopWithEditInside(root, "working", edited);
      expect(run.code).toBe(2);
      expect(run.stderr).toContain("Checklist (TODO.md): 0/2 done · next: write the parser");
      const next = stop(root, "owner", "more work");
      expect(next.stderr.trimEnd().split("\n")).toHaveLength(1);
      expect(next.stderr).toContain("Checklist 0/2 done");
    });
  });

  it("a subagent's stop is not a turn of the loop", () => {
    const { root, statePath } = makeProject("---\nmax_iterations: 10\n---\nGoal\n");
    const run = runHook("stop", { session_id: "s1", cwd: root, agent_id: "a1", last_assistant_message: "x" });
    expect(run).toMatchObject({ code: 0, stdout: "" });
    expect(readFileSync(statePath, "utf8")).not.toContain("iteration_count");
    // Whatever else its input holds: nothing of it is the loop's, nothing is said.
    const odd = runHook("stop", { session_id: 5, cwd: root, agent_id: "a1", stop_hook_active: 1 });
    expect(odd).toMatchObject({ code: 0, stdout: "", stderr: "" });
  });

  it("a field no Stop reads, of a type Claude Code may change, never stops the loop", () => {
    const { root } = makeProject("---\nmax_iterations: 10\n---\nGoal\n");
    const run = runHook("stop", { session_id: "s1", cwd: root, stop_hook_active: "yes", last_assistant_message: "x" });
    expect(run.code).toBe(2);
    expect(run.stderr).toContain("iteration 2/10");
  });
});

describe("notify", () => {
  it.each([
    ["on by default: the loop's end rings the terminal", "", true],
    ["notify: false keeps it quiet", "notify: false\n", false],
  ])("%s", (_name, extra, rings) => {
    const { root } = makeProject(`---\nmax_iterations: 5\ncompletion_promise: DONE\n${extra}---\nGoal\n`);
    const run = stop(root, "s1", "DONE");
    expect(run.code).toBe(0);
    expect(run.json?.terminalSequence).toBe(rings ? "\u0007" : undefined);
    expect(String(run.json?.systemMessage)).toContain("completed");
  });
});

describe("the end's next step", () => {
  it("after a limit, names the command that runs the loop again (with its name); after completion, none", () => {
    const { root } = makeProject("---\nmax_iterations: 2\nstall_limit: 0\n---\nGoal\n");
    expect(stop(root, "s1", "one").code).toBe(2);
    const ended = String(stop(root, "s1", "two").json?.systemMessage);
    expect(ended).toContain("reached max_iterations");
    expect(ended).toMatch(/ \/loop-start --again runs it again from 1\/2\.$/);
    // The command it names does what it says.
    expect(String(prompt(root, "/loop-start --again", "s2").json?.systemMessage)).toContain("loop started");

    const named = join(root, ".claude/continuation-loop.docs.local.md");
    writeFileSync(named, "---\nmax_iterations: 1\nsession_id: s3\n---\nDocs\n");
    expect(String(stop(root, "s3", "once").json?.systemMessage)).toMatch(
      / \/loop-start --again --name docs runs it again from 1\/1\.$/,
    );

    writeFileSync(named, "---\nmax_iterations: 5\ncompletion_promise: DONE\nsession_id: s3\n---\nDocs\n");
    expect(String(stop(root, "s3", "DONE").json?.systemMessage)).not.toContain("--again");
  });
});

describe("after compaction", () => {
  const session = (root: string, source: string, id = "s1") =>
    runHook("session", { session_id: id, cwd: root, hook_event_name: "SessionStart", source });

  it("SessionStart(compact) gives Claude the marker, goal and iteration again; nothing for other starts or sessions", () => {
    const { root } = makeProject(
      "---\nmax_iterations: 10\niteration_count: 4\nsession_id: s1\n---\nPort the parser.\n",
    );
    const run = session(root, "compact");
    expect(run.code).toBe(0);
    const context = String((run.json?.hookSpecificOutput as { additionalContext?: string })?.additionalContext);
    expect(context.startsWith(MARKER)).toBe(true);
    expect(context).toContain("iteration 4/10");
    expect(context).toContain("Port the parser.");
    expect(session(root, "startup")).toMatchObject({ code: 0, stdout: "" });
    expect(session(root, "compact", "other")).toMatchObject({ code: 0, stdout: "" });
    // And the next Stop sends the full prompt again.
    expect(stop(root).stderr).toContain("Port the parser.");
  });
  it("gives the limits as the loop has used them, not as at its start", () => {
    const started = new Date(Date.now() - 60_000).toISOString();
    const { root, statePath } = makeProject(
      `---\nmax_iterations: 10\niteration_count: 4\nmax_tokens: 200000\nsession_id: s1\nstarted_at: "${started}"\n---\nPort the parser.\n`,
    );
    writeFileSync(
      statePath.replace(/local\.md$/, "runtime.json"),
      JSON.stringify({ loop: { started_at: started, session_id: "s1" }, output_tokens: 150000 }),
    );
    const run = session(root, "compact");
    const context = String((run.json?.hookSpecificOutput as { additionalContext?: string })?.additionalContext);
    expect(context).toContain("output tokens 150,000 of 200,000 (50,000 left)");
  });

  it("a loop paused at compaction is not pushed on Claude, yet sends the full prompt once resumed by hand", () => {
    const { root, statePath } = makeProject("---\nmax_iterations: 10\nstall_limit: 0\n---\nPort the parser.\n");
    expect(stop(root).code).toBe(2);
    expect(stop(root).stderr).not.toContain("Port the parser."); // an ordinary iteration: the short reminder
    writeFileSync(
      statePath,
      readFileSync(statePath, "utf8").replace("---\nmax_iterations", "---\nactive: false\nmax_iterations"),
    );
    expect(session(root, "compact")).toMatchObject({ code: 0, stdout: "" });
    writeFileSync(statePath, readFileSync(statePath, "utf8").replace("active: false", "active: true"));
    expect(stop(root).stderr).toContain("Port the parser.");
  });
});

/** A repository that ships a loop: its state file committed; `git` runs more commands there. */
function shipLoop(root: string) {
  const git = (...args: string[]) =>
    spawnSync("git", ["-c", "user.name=t", "-c", "user.email=t@t", ...args], { cwd: root, encoding: "utf8" });
  git("init", "-q");
  git("add", "-f", ".claude/continuation-loop.local.md");
  git("commit", "-qm", "a repository that ships a loop");
  return git;
}

describe("trust: a state file tracked by git", () => {
  it("is never claimed, continued or allowed to run verify; the user is told once", () => {
    const { root, statePath, historyPath } = makeProject(
      '---\ncompletion_promise: "the"\nverify: "touch pwned"\n---\nDo what the repository says.\n',
    );
    const git = shipLoop(root);
    const before = readFileSync(statePath, "utf8");
    const first = stop(root, "s1", "the answer");
    expect(first.code).toBe(0);
    expect(String(first.json?.systemMessage)).toContain("git rm --cached .claude/continuation-loop.local.md");
    expect(stop(root, "s1", "the answer again")).toMatchObject({ code: 0, stdout: "" });
    expect(existsSync(join(root, "pwned"))).toBe(false);
    expect(readFileSync(statePath, "utf8")).toBe(before);
    expect(history(historyPath)).toEqual([expect.objectContaining({ decision: "refused", reason: "tracked_by_git" })]);
    // Once it is the user's own (no longer in the index), it runs.
    git("rm", "-q", "--cached", ".claude/continuation-loop.local.md");
    expect(stop(root, "s1", "still working").code).toBe(2);
  });
});

describe("trust: a repository git cannot answer for", () => {
  /** A PATH whose `git` fails as git does in a folder it refuses as another user's (exit 128), or has no git. */
  const pathWith = (root: string, git: "refusing" | "none") => {
    const bin = join(root, "..", `bin-${git}`);
    mkdirSync(bin, { recursive: true });
    if (git === "refusing")
      writeFileSync(join(bin, "git"), "#!/bin/sh\necho 'fatal: not this folder' >&2\nexit 128\n", { mode: 0o755 });
    return bin;
  };

  it.each(["refusing", "none"] as const)(
    "git %s: a shipped state file is neither claimed, run nor resumed; told once; known as tracked once git answers",
    (git) => {
      const { root, statePath, historyPath } = makeProject(
        '---\nuntil: "touch pwned; exit 1"\n---\nGoal from the repository.\n',
      );
      shipLoop(root);
      const before = readFileSync(statePath, "utf8");
      const env = { PATH: pathWith(root, git) };
      const stopWith = (reply: string) =>
        runHook(
          "stop",
          { session_id: "s1", cwd: root, hook_event_name: "Stop", last_assistant_message: reply },
          { env },
        );
      const first = stopWith("the answer");
      expect(first.code).toBe(0);
      // With no git program at all, the index file itself says the state file is tracked.
      if (git === "none") expect(String(first.json?.systemMessage)).toContain("is tracked by git");
      else {
        expect(String(first.json?.systemMessage)).toContain(
          "git could not say whether .claude/continuation-loop.local.md",
        );
        expect(String(first.json?.systemMessage)).toContain(`safe.directory ${root}`);
        // Git ran and said why (its line is in the reason): the advice points there, not at installing git.
        expect(String(first.json?.systemMessage)).toContain("(git exited with status 128: fatal: not this folder)");
        expect(String(first.json?.systemMessage)).not.toContain("install git");
      }
      expect(stopWith("again")).toMatchObject({ code: 0, stdout: "" });
      expect(existsSync(join(root, "pwned"))).toBe(false);
      expect(readFileSync(statePath, "utf8")).toBe(before);
      expect(history(historyPath)).toEqual([
        expect.objectContaining({
          decision: "refused",
          reason: git === "none" ? "tracked_by_git" : "git_cannot_say",
        }),
      ]);
      // Nor does `resume --force` take it over.
      const resumed = runHook("cli", "", {
        cwd: root,
        args: ["resume", "--force"],
        env: { ...env, CLAUDE_PROJECT_DIR: root },
      });
      expect(resumed.code).toBe(1);
      expect(resumed.stdout + resumed.stderr).toContain(
        git === "none"
          ? "the state file is tracked by git"
          : "git could not say whether the state file came with the repository",
      );
      expect(readFileSync(statePath, "utf8")).toBe(before);
      // Where git answers, it is known for what it is: tracked, so still not run (told once: already, without git).
      const answered = stop(root, "s1", "the answer");
      if (git === "none") expect(answered).toMatchObject({ code: 0, stdout: "" });
      else expect(String(answered.json?.systemMessage)).toContain("is tracked by git");
      expect(existsSync(join(root, "pwned"))).toBe(false);
    },
  );

  it("a loop of the user's own runs no until while git cannot answer, and says why", () => {
    const { root } = makeProject('---\nsession_id: s1\nuntil: "touch ran; exit 1"\n---\nGoal\n');
    spawnSync("git", ["init", "-q"], { cwd: root });
    const run = runHook(
      "stop",
      { session_id: "s1", cwd: root, hook_event_name: "Stop", last_assistant_message: "working" },
      { env: { PATH: pathWith(root, "refusing") } },
    );
    expect(run.code).toBe(0);
    expect(String(run.json?.systemMessage)).toMatch(
      /until: git could not say whether the state file came with the repository/,
    );
    expect(existsSync(join(root, "ran"))).toBe(false);
    // With git answering, the same loop runs its until.
    expect(stop(root, "s1", "working").code).toBe(2);
    expect(existsSync(join(root, "ran"))).toBe(true);
  });
});

describe("/clear", () => {
  const session = (root: string, body: object) =>
    runHook("session", { cwd: root, ...body }, { env: { CLAUDE_PID: "4242" } });

  it("the loop carries over to the new session of the same Claude Code process, and only that one", () => {
    const { root, statePath } = makeProject("---\nmax_iterations: 10\nstall_limit: 0\n---\nKeep the goal.\n");
    expect(stop(root, "old").code).toBe(2);
    expect(session(root, { hook_event_name: "SessionEnd", session_id: "old", reason: "clear" })).toMatchObject({
      code: 0,
    });
    const start = session(root, { hook_event_name: "SessionStart", session_id: "new", source: "clear" });
    expect(String(start.json?.systemMessage)).toContain("carries over /clear");
    expect(readFileSync(statePath, "utf8")).toContain('session_id: "new"');
    // The new session continues it, with the full prompt; the old one no longer does.
    const next = stop(root, "new");
    expect(next.code).toBe(2);
    expect(next.stderr).toContain("Keep the goal.");
    expect(stop(root, "old")).toMatchObject({ code: 0, stdout: "" });
    // A start in another process, or a plain startup, takes nothing.
    const other = makeProject("---\nmax_iterations: 10\nsession_id: a\n---\nGoal\n");
    session(other.root, { hook_event_name: "SessionEnd", session_id: "a", reason: "logout" });
    expect(session(other.root, { hook_event_name: "SessionStart", session_id: "b", source: "clear" }).stdout).toBe("");
    expect(readFileSync(other.statePath, "utf8")).toContain("session_id: a");
  });

  it("Esc and then /clear: the loop carries over paused", () => {
    const { root, statePath } = makeProject("---\nmax_iterations: 10\nsession_id: old\n---\nKeep the goal.\n");
    const transcript = join(root, "old.jsonl");
    const interrupted = { type: "user", message: { role: "user", content: "[Request interrupted by user]" } };
    writeFileSync(transcript, `${JSON.stringify(interrupted)}\n`);
    session(root, { hook_event_name: "SessionEnd", session_id: "old", reason: "clear", transcript_path: transcript });
    const start = session(root, { hook_event_name: "SessionStart", session_id: "new", source: "clear" });
    expect(String(start.json?.systemMessage)).toMatch(/carries over \/clear/);
    expect(String(start.json?.systemMessage)).toMatch(/paused/);
    expect(String(start.json?.systemMessage)).toContain("/loop-resume");
    const text = readFileSync(statePath, "utf8");
    expect(text).toContain('session_id: "new"');
    expect(text).toMatch(/^active: false$/m);
    expect(stop(root, "new")).toMatchObject({ code: 0, stdout: "" });
  });
});

describe("API errors (StopFailure)", () => {
  const failure = (root: string, session: string, error: string) =>
    runHook("session", {
      cwd: root,
      hook_event_name: "StopFailure",
      session_id: session,
      error,
      last_assistant_message: "API Error",
    });

  it("are recorded in the history and /loop-status, not counted as unchanged turns, and only for the owner", () => {
    const { root, historyPath } = makeProject("---\nmax_iterations: 10\nstall_limit: 1\n---\nGoal\n");
    expect(stop(root, "s1", "same").code).toBe(2);
    expect(failure(root, "s1", "rate_limit")).toMatchObject({ code: 0, stdout: "" });
    expect(history(historyPath).at(-1)).toMatchObject({
      decision: "api_error",
      reason: "rate_limit",
      iteration: 2,
      session: "s1",
    });
    const status = prompt(root, "/loop-status", "s1");
    expect(String(status.json?.reason)).toMatch(/last API error: rate_limit at \d\d:\d\d:\d\d UTC; /);
    // The same reply after the error is not a stall (stall_limit 1 would end the loop otherwise).
    expect(stop(root, "s1", "same").code).toBe(2);
    // Another session's API error touches nothing.
    const before = readFileSync(historyPath, "utf8");
    expect(failure(root, "other", "overloaded")).toMatchObject({ code: 0, stdout: "" });
    expect(readFileSync(historyPath, "utf8")).toBe(before);
  });
});

describe("/loop-resume from another session", () => {
  const stopAs = (root: string, session: string, pid: string) =>
    runHook(
      "stop",
      { session_id: session, cwd: root, hook_event_name: "Stop", last_assistant_message: "work" },
      { env: { CLAUDE_PID: pid } },
    );
  const resumeAs = (root: string, session: string, pid: string, args = "") =>
    runHook(
      "prompt",
      { session_id: session, cwd: root, hook_event_name: "UserPromptSubmit", prompt: `/loop-resume ${args}`.trim() },
      { env: { CLAUDE_PID: pid } },
    );
  // A process that has exited: its pid names no running process.
  const deadPid = () => String(spawnSync(process.execPath, ["-e", "process.stdout.write(String(process.pid))"]).stdout);

  it("takes over a loop whose owner's Claude Code has ended, without --force", () => {
    const { root, statePath } = makeProject("---\nmax_iterations: 10\n---\nGoal\n");
    expect(stopAs(root, "owner", deadPid()).code).toBe(2);
    const resumed = resumeAs(root, "heir", String(process.pid));
    expect(String(resumed.json?.systemMessage)).toContain("taken over from session owner, which has ended");
    expect(readFileSync(statePath, "utf8")).toContain('session_id: "heir"');
    expect(stopAs(root, "heir", String(process.pid)).code).toBe(2);
  });

  it("takes over a loop whose owner ended before its first Stop: /loop-start keeps the owner's Claude Code", () => {
    const { root, statePath } = makeProject();
    const startAs = (pid: string) =>
      runHook(
        "prompt",
        { session_id: "owner", cwd: root, hook_event_name: "UserPromptSubmit", prompt: "/loop-start Ship it" },
        { env: { CLAUDE_PID: pid } },
      );
    expect(String(startAs(deadPid()).json?.systemMessage)).toContain("loop started");
    const resumed = resumeAs(root, "heir", String(process.pid));
    expect(String(resumed.json?.systemMessage)).toContain("taken over from session owner, which has ended");
    expect(readFileSync(statePath, "utf8")).toContain('session_id: "heir"');
  });

  it("refuses a loop whose owner has not stopped once and whose process is not known, saying so", () => {
    const { root } = makeProject('---\nmax_iterations: 10\nsession_id: "owner"\n---\nGoal\n');
    const refused = resumeAs(root, "other", String(process.pid));
    expect(String(refused.json?.reason)).toMatch(/belongs to session owner, which has not stopped once yet.*--force/);
  });

  it("never takes over a state file that came with the repository", () => {
    const { root, statePath } = makeProject("---\nmax_iterations: 10\n---\nThe repository's goal\n");
    const git = (...args: string[]) => spawnSync("git", args, { cwd: root, encoding: "utf8" });
    git("init", "-q");
    git("add", "-f", ".claude/continuation-loop.local.md");
    const before = readFileSync(statePath, "utf8");
    for (const args of ["", "--force"]) {
      const refused = resumeAs(root, "s1", String(process.pid), args);
      expect(String(refused.json?.reason)).toContain("the state file is tracked by git, so no loop runs it");
      expect(String(refused.json?.reason)).toContain("git rm --cached .claude/continuation-loop.local.md");
    }
    expect(readFileSync(statePath, "utf8")).toBe(before);
    expect(stopAs(root, "s1", String(process.pid)).code).toBe(0);
  });

  it("refuses a loop whose owner still runs unless --force", () => {
    const { root, statePath } = makeProject("---\nmax_iterations: 10\n---\nGoal\n");
    // The owner's Claude Code is this test process: it runs.
    expect(stopAs(root, "owner", String(process.pid)).code).toBe(2);
    const refused = resumeAs(root, "other", "1");
    expect(refused.json?.decision).toBe("block");
    expect(String(refused.json?.reason)).toMatch(/belongs to session owner, which is still running.*--force/);
    expect(readFileSync(statePath, "utf8")).toContain('session_id: "owner"');
    const forced = resumeAs(root, "other", "1", "--force");
    expect(String(forced.json?.systemMessage)).toContain("taken over from session owner");
    expect(readFileSync(statePath, "utf8")).toContain('session_id: "other"');
  });

  it("the same session resumed in a second Claude Code while the first runs: one of them drives the loop", () => {
    const { root, statePath, historyPath } = makeProject("---\nmax_iterations: 10\n---\nGoal\n");
    const iteration = () => Number(/^iteration_count: (\d+)$/m.exec(readFileSync(statePath, "utf8"))?.[1]);
    // Two live processes stand in for the two Claude Codes: this test's, and the one that runs it.
    const [first, second] = [String(process.pid), String(process.ppid)];
    expect(stopAs(root, "s", first).code).toBe(2);
    const elsewhere = stopAs(root, "s", second);
    expect(elsewhere.code).toBe(0);
    expect(String(elsewhere.json?.systemMessage)).toContain(`runs in another Claude Code process (pid ${first})`);
    expect(stopAs(root, "s", second)).toMatchObject({ code: 0, stdout: "" });
    expect(iteration()).toBe(2);
    // /loop-resume in the second takes it over there; the first then leaves it alone.
    expect(String(resumeAs(root, "s", second).json?.systemMessage)).toContain("loop resumed");
    expect(stopAs(root, "s", second).code).toBe(2);
    expect(stopAs(root, "s", first).code).toBe(0);
    expect(iteration()).toBe(3);
    expect(
      history(historyPath)
        .filter((r) => r.decision === "continue")
        .map((r) => r.iteration),
    ).toEqual([1, 2]);
  });

  it("refuses, even with --force, to give a session that runs a loop a second one; its own loop goes on", () => {
    const { root, statePath } = makeProject("---\nmax_iterations: 10\n---\nThe ended session's goal\n");
    expect(stopAs(root, "owner", deadPid()).code).toBe(2);
    const own = join(root, ".claude", "continuation-loop.docs.local.md");
    writeFileSync(own, '---\nmax_iterations: 10\nsession_id: "heir"\n---\nThe heir\'s own goal\n');
    const before = readFileSync(statePath, "utf8");
    for (const args of ["--name default", "--name default --force"]) {
      const refused = resumeAs(root, "heir", String(process.pid), args);
      expect(refused.json?.decision).toBe("block");
      expect(String(refused.json?.reason)).toContain("/loop-stop --name docs");
    }
    expect(readFileSync(statePath, "utf8")).toBe(before);
    const next = stopAs(root, "heir", String(process.pid));
    expect(next.code).toBe(2);
    expect(next.stderr).toContain("The heir's own goal");
  });
});

describe("restart from the history", () => {
  it("/loop-start --again starts the last finished loop again with its goal and fields", () => {
    const { root, statePath } = makeProject(
      '---\nmax_iterations: 4\ncompletion_promise: "SHIPPED"\n---\nShip the release notes.\n',
    );
    expect(stop(root, "s1", "drafted").code).toBe(2);
    expect(stop(root, "s1", "All set. SHIPPED").code).toBe(0);
    expect(existsSync(statePath)).toBe(false);
    const again = prompt(root, "/loop-start --again", "s2");
    expect(String(again.json?.systemMessage)).toContain("loop started");
    const text = readFileSync(statePath, "utf8");
    expect(text).toContain("Ship the release notes.");
    expect(text).toMatch(/^max_iterations: 4$/m);
    expect(text).toMatch(/^completion_promise: "SHIPPED"$/m);
    expect(text).toContain('session_id: "s2"');
    // Nothing more to go back to: a clear refusal, nothing started.
    const tooFar = prompt(root, "/loop-start --again 5", "s3");
    expect(String(tooFar.json?.reason)).toMatch(/1 finished loop\(s\).*not 5/);
  });

  it("/loop-start --again --name NAME starts that name's last finished loop again, in its own file", () => {
    const { root, statePath } = makeProject("---\nmax_iterations: 4\n---\nShip the release notes.\n");
    expect(stop(root, "s1", "drafted").code).toBe(2);
    expect(prompt(root, "/loop-stop", "s1").code).toBe(0);
    expect(
      String(prompt(root, "/loop-start --name docs --max-iterations 3 Write the docs", "s2").json?.systemMessage),
    ).toContain("loop started");
    expect(prompt(root, "/loop-stop", "s2").code).toBe(0);
    const again = prompt(root, "/loop-start --again --name default", "s3");
    expect(String(again.json?.systemMessage)).toContain("loop started");
    expect(readFileSync(statePath, "utf8")).toContain("Ship the release notes.");
    // The session already runs a loop: the other name's comes back only in place of it, with --force.
    const docs = join(root, ".claude/continuation-loop.docs.local.md");
    expect(String(prompt(root, "/loop-start --again --name docs", "s3").json?.reason)).toContain("already runs a loop");
    expect(String(prompt(root, "/loop-start --again --force --name docs", "s3").json?.systemMessage)).toContain(
      "loop started",
    );
    expect(readFileSync(docs, "utf8")).toMatch(/^max_iterations: 3$/m);
    expect(existsSync(statePath)).toBe(false);
  });
});
