// A loop started again from the history (`continuation-loop restart`, `/loop-start --again`) gets back every
// user field as the person wrote it (docs/REFERENCE.md "History"). The state file is made from the field
// table's own examples, so a new field is covered without editing this test.
import { execFileSync } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { FIELDS, type FieldName, type FieldSpec, USER_FIELDS } from "../../src/core/fields.js";
import { parseFrontmatter } from "../../src/core/frontmatter.js";
import { parseState } from "../../src/core/parseState.js";
import { makeProject, runHook } from "../support/runHook.js";

const GOAL = "Make the parser fast.\n";
/** Every user field, each set to its example: `max_duration: 2h`, `max_cost: 5`, `scope: [src/parser, …]`. */
const written = `---\n${USER_FIELDS.map((field) => FIELDS[field].example).join("\n")}\nsession_id: s1\n---\n${GOAL}`;

const fieldsOf = (text: string) => parseFrontmatter(text).data;

/** A git project (checkpoints and scope need one) whose loop has every user field set. */
function project() {
  const made = makeProject(written);
  execFileSync("git", ["init", "-q"], { cwd: made.root });
  writeFileSync(join(made.root, "PLAN.md"), "- [ ] make it fast\n");
  return made;
}

const prompt = (root: string, text: string, session: string) =>
  runHook("prompt", { session_id: session, cwd: root, hook_event_name: "UserPromptSubmit", prompt: text });
const cli = (root: string, args: string[], session: string) =>
  runHook("cli", "", { cwd: root, args, env: { CLAUDE_CODE_SESSION_ID: session, HOME: root } });

/** What the restarted loop must hold: each field as written, or its default where a restart starts afresh. */
function expectedFields(): Record<string, unknown> {
  const before = fieldsOf(written);
  const spec = (field: FieldName): FieldSpec => FIELDS[field];
  return Object.fromEntries(
    USER_FIELDS.map((field) => [field, spec(field).resetOnRestart ? spec(field).default : before[field]]),
  );
}

describe("a stopped loop started again keeps every field as written", () => {
  it.each([
    ["continuation-loop restart", (root: string) => cli(root, ["restart"], "s2")],
    ["/loop-start --again", (root: string) => prompt(root, "/loop-start --again", "s2")],
  ])("%s", (_route, restart) => {
    const { root, statePath } = project();
    expect(prompt(root, "/loop-stop", "s1").json?.reason).toMatch(/loop stopped/);
    const run = restart(root);
    expect(run.code, run.stderr).toBe(0);
    const again = readFileSync(statePath, "utf8");
    const after = fieldsOf(again);
    const kept = Object.fromEntries(USER_FIELDS.map((field) => [field, after[field]]));
    expect(kept).toEqual(expectedFields());
    expect(after).toMatchObject({ session_id: "s2", iteration_count: 1 });
    expect(parseState(again).body).toBe(GOAL);
  });

  it("durations written with spaces, as the product prints them (1h 30m), run and come back as written", () => {
    const durations = "max_duration: 1h 30m\nverify_timeout: 2m 30s\nbackground_wait: 1h 30m\n";
    const { root, statePath } = makeProject(`---\n${durations}session_id: s1\n---\n${GOAL}`);
    const stop = runHook("stop", { session_id: "s1", cwd: root, hook_event_name: "Stop", last_assistant_message: "…" });
    expect(stop.code, stop.stdout).toBe(2);
    expect(readFileSync(statePath, "utf8").startsWith(`---\n${durations}`)).toBe(true);
    expect(cli(root, ["status"], "s1").stdout).toMatch(/time \d+s of 1h 30m/);
    expect(prompt(root, "/loop-stop", "s1").json?.reason).toMatch(/loop stopped/);
    expect(cli(root, ["restart"], "s2").code).toBe(0);
    expect(fieldsOf(readFileSync(statePath, "utf8"))).toMatchObject({
      max_duration: "1h 30m",
      verify_timeout: "2m 30s",
      background_wait: "1h 30m",
    });
    const started = cli(root, ["start", "--force", "--max-duration", "2h 15m", "Again"], "s2");
    expect(started.code, started.stderr).toBe(0);
    expect(fieldsOf(readFileSync(statePath, "utf8")).max_duration).toBe("2h 15m");
  });

  it("a record of an older version, durations in seconds, still restarts", () => {
    const { root, statePath, historyPath } = makeProject();
    // As an earlier version wrote it: defaults spelled out, durations in seconds, promises as a list.
    const fields = {
      max_iterations: 20,
      promise_format: "substring",
      completion_threshold: 1,
      verify_timeout: 120,
      stall_limit: 3,
      max_api_failures: 5,
      require_todos_done: false,
      notify: true,
      checkpoints: false,
      completion_promise: ["All tests passing"],
      max_duration: 7200,
      verify: "npm test",
      metric: "npm run -s bench",
      metric_target: ">= 90",
      metric_timeout: 180,
    };
    const record = { time: "2026-01-02T03:04:05.000Z", decision: "end", reason: "stopped", goal: GOAL, fields };
    writeFileSync(historyPath, `${JSON.stringify(record)}\n`);
    const run = cli(root, ["restart"], "s2");
    expect(run.code, run.stderr).toBe(0);
    const state = parseState(readFileSync(statePath, "utf8"));
    expect(state).toMatchObject({
      max_iterations: 20,
      completion_promise: ["All tests passing"],
      max_duration: 7200,
      verify_timeout: 120,
      metric_timeout: 180,
      metric_target: { op: ">=", value: 90 },
      session_id: "s2",
      body: GOAL,
    });
  });
});
