// A torn sidecar (cut short by a kill, a full disk, a hand edit) is kept aside and said, never silently replaced
// (docs/REFERENCE.md "Files the loop keeps", "Messages you may see"): the built hooks, fed JSON on stdin.
import { existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { makeProject, runHook } from "../support/runHook.js";

const STATE = "---\nmax_iterations: 20\ncompletion_promise: DONE\ncompletion_threshold: 2\nstall_limit: 0\n---\nGoal\n";
const SHOWN = ".claude/continuation-loop.runtime.json";
const KEPT_SHOWN = `${SHOWN}.torn`;

const stop = (root: string, reply = "working", env: Record<string, string> = {}) =>
  runHook("stop", { session_id: "s1", cwd: root, hook_event_name: "Stop", last_assistant_message: reply }, { env });

/** A loop one Stop in (its promise streak at 1 of 2), with its sidecar and where the kept copy goes. */
function startedLoop() {
  const { root, statePath } = makeProject(STATE);
  expect(stop(root, "DONE").code).toBe(2);
  const sidecar = join(root, ".claude", "continuation-loop.runtime.json");
  return { root, statePath, sidecar, kept: `${sidecar}.torn` };
}

/** The one line the Stop showed the user. */
const told = (run: { stdout: string }) =>
  String((JSON.parse(run.stdout || "{}") as { systemMessage?: string }).systemMessage ?? "");

const noStack = (run: { stdout: string; stderr: string }) =>
  expect(`${run.stdout}${run.stderr}`).not.toMatch(/\n\s+at |TypeError|SyntaxError|RangeError/);

describe("a torn sidecar at a Stop", () => {
  it.each([
    ["cut short", (text: string) => text.slice(0, Math.floor(text.length / 2)), /not JSON/],
    ["valid JSON with no loop owner", () => '{"promise_streak": 1, "output_tokens": 5}\n', /"loop"/],
    ["empty", () => "", /empty/],
  ])("%s: kept aside byte for byte, said once, and the loop continues", (_name, tear, why) => {
    const { root, sidecar, kept } = startedLoop();
    const torn = tear(readFileSync(sidecar, "utf8"));
    writeFileSync(sidecar, torn);

    const run = stop(root, "DONE");
    expect(run.code).toBe(2);
    expect(run.stderr).toContain("Goal"); // the continuation, as usual
    noStack(run);
    const line = told(run);
    expect(line).toContain(SHOWN);
    expect(line).toContain(KEPT_SHOWN);
    expect(line).toMatch(why);
    expect(line).toMatch(/max_cost/);
    expect(line).toMatch(/max_tokens/);
    expect(readFileSync(kept, "utf8")).toBe(torn);
    // The new sidecar is whole, and its streak started again: this DONE is the first of two.
    expect(JSON.parse(readFileSync(sidecar, "utf8"))).toMatchObject({ promise_streak: 1 });

    // Said once: the next Stop is quiet about it, and the loop ends on the second DONE.
    const next = stop(root, "DONE");
    expect(next.code).toBe(0);
    expect(next.stdout).not.toContain(KEPT_SHOWN);
    expect(readFileSync(kept, "utf8")).toBe(torn);
  });

  it("an entry failing its schema takes its default; the rest is kept, the field named with the value expected", () => {
    const { root, sidecar, kept } = startedLoop();
    const good = JSON.parse(readFileSync(sidecar, "utf8")) as Record<string, unknown>;
    const torn = `${JSON.stringify({ ...good, spend: { figure: "lots", baseline: 0, source: "module" } }, null, 2)}\n`;
    writeFileSync(sidecar, torn);

    const run = stop(root, "DONE");
    // The streak was kept: this DONE is the second of two, and the loop ends.
    expect(run.code).toBe(0);
    noStack(run);
    const line = told(run);
    expect(line).toContain(SHOWN);
    expect(line).toContain("spend.figure: expected a number");
    expect(line).toContain(KEPT_SHOWN);
    expect(readFileSync(kept, "utf8")).toBe(torn);
  });

  it("another loop's sidecar is discarded without a word, and nothing is kept", () => {
    const { root, sidecar, kept } = startedLoop();
    const text = readFileSync(sidecar, "utf8").replace(/"session_id": "s1"/, '"session_id": "s2"');
    writeFileSync(sidecar, text);
    const run = stop(root, "DONE");
    expect(run.code).toBe(2);
    expect(run.stdout).toBe("");
    expect(existsSync(kept)).toBe(false);
    expect(JSON.parse(readFileSync(sidecar, "utf8"))).toMatchObject({ promise_streak: 1 });
  });

  it("a later torn sidecar replaces the kept copy: one per loop, never taken for a loop", () => {
    const { root, sidecar, kept } = startedLoop();
    writeFileSync(sidecar, "{ first");
    expect(stop(root).code).toBe(2);
    writeFileSync(sidecar, "{ second");
    expect(told(stop(root))).toContain(KEPT_SHOWN);
    expect(readFileSync(kept, "utf8")).toBe("{ second");
    expect(readdirSync(join(root, ".claude")).filter((n) => n.includes(".torn"))).toEqual([
      "continuation-loop.runtime.json.torn",
    ]);
    // The kept copy is no loop: status lists the one loop, and nothing of the kept copy.
    const status = runHook("cli", "", { args: ["status", "--all", "--project", root], cwd: root });
    expect(status.code).toBe(0);
    expect(status.stdout).toMatch(/\b1 loop\b/);
    expect(status.stdout).not.toContain(".torn");
  });

  it("the status line's cost figure cannot say so: it leaves the torn file as it is for the next Stop", () => {
    const { root, sidecar, kept } = startedLoop();
    writeFileSync(sidecar, "{ torn");
    const line = runHook(
      "cli",
      { session_id: "s1", cwd: root, workspace: { project_dir: root }, cost: { total_cost_usd: 1.25 } },
      { args: ["statusline"] },
    );
    expect(line.code).toBe(0);
    expect(readFileSync(sidecar, "utf8")).toBe("{ torn");
    expect(existsSync(kept)).toBe(false);
    // The next Stop keeps it aside and says so.
    const run = stop(root);
    expect(run.code).toBe(2);
    expect(told(run)).toContain(KEPT_SHOWN);
    expect(readFileSync(kept, "utf8")).toBe("{ torn");
  });

  it("killed between keeping it aside and writing the new one: the torn bytes are kept, the next Stop goes on", () => {
    const { root, sidecar, kept } = startedLoop();
    const torn = readFileSync(sidecar, "utf8").slice(0, 40);
    writeFileSync(sidecar, torn);
    const killed = stop(root, "working", { CONTINUATION_LOOP_TEST_CRASH_AT: "sidecar-kept" });
    expect(killed.code).toBeNull(); // SIGKILL
    expect(readFileSync(kept, "utf8")).toBe(torn);
    expect(existsSync(sidecar)).toBe(false);

    const run = stop(root, "working");
    expect(run.code).toBe(2);
    noStack(run);
    expect(readFileSync(kept, "utf8")).toBe(torn);
    expect(JSON.parse(readFileSync(sidecar, "utf8"))).toHaveProperty("loop.session_id", "s1");
  });
});

describe("a torn sidecar at a prompt", () => {
  it("the pause after an interrupted turn keeps it aside and says so beside the pause", () => {
    const { root, statePath, sidecar, kept } = startedLoop();
    const transcript = join(root, "t.jsonl");
    const interrupted = { type: "user", message: { role: "user", content: "[Request interrupted by user]" } };
    writeFileSync(transcript, `${JSON.stringify(interrupted)}\n`);
    writeFileSync(sidecar, "{ torn");
    const run = runHook("prompt", {
      session_id: "s1",
      cwd: root,
      hook_event_name: "UserPromptSubmit",
      prompt: "what now?",
      transcript_path: transcript,
    });
    expect(run.code).toBe(0);
    noStack(run);
    const line = told(run);
    expect(line).toContain(KEPT_SHOWN);
    expect(line).toContain("/loop-resume"); // the pause's own line is still there
    expect(readFileSync(statePath, "utf8")).toContain("active: false");
    expect(readFileSync(kept, "utf8")).toBe("{ torn");
    expect(JSON.parse(readFileSync(sidecar, "utf8"))).toHaveProperty("loop.session_id", "s1");
  });
});

describe("a torn sidecar found by a command", () => {
  it("pause keeps it aside and says so in its output", () => {
    const { root, sidecar, kept } = startedLoop();
    writeFileSync(sidecar, "{ torn");
    const run = runHook("cli", "", { args: ["pause", "--project", root], cwd: root });
    expect(run.code).toBe(0);
    expect(`${run.stdout}${run.stderr}`).toContain(KEPT_SHOWN);
    expect(readFileSync(kept, "utf8")).toBe("{ torn");
  });

  it("stop never deletes it: kept aside with the loop's end", () => {
    const { root, statePath, sidecar, kept } = startedLoop();
    writeFileSync(sidecar, "{ torn");
    const run = runHook("cli", "", { args: ["stop", "--project", root], cwd: root });
    expect(run.code).toBe(0);
    expect(`${run.stdout}${run.stderr}`).toContain(KEPT_SHOWN);
    expect(existsSync(statePath)).toBe(false);
    // Stopped from a terminal: the sidecar now holds only how the loop ended, for its session to be told.
    expect(JSON.parse(readFileSync(sidecar, "utf8"))).toHaveProperty("ended.reason", "stopped");
    expect(readFileSync(kept, "utf8")).toBe("{ torn");
  });
});
