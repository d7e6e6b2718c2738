// The user's state file holds only what a user writes; the hooks' bookkeeping lives in the sidecar
// (docs/REFERENCE.md "Files the loop keeps").
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { parseFrontmatter } from "../../src/core/frontmatter.js";
import { makeProject, runHook } from "../support/runHook.js";

const TEXT = [
  "---",
  "# my loop: steer it here",
  "max_iterations: 20   # plenty",
  'completion_promise: "All tests passing"',
  "max_tokens: 100000",
  "stall_limit: 0",
  "custom_key: kept as is",
  "---",
  "",
  "Fix the failing tests.",
  "",
].join("\n");

const stop = (root: string, reply = "working") =>
  runHook("stop", { session_id: "s1", cwd: root, hook_event_name: "Stop", last_assistant_message: reply });
const sidecarOf = (statePath: string) => statePath.replace(/\.local\.md$/, ".runtime.json");

/** The file with the loop's three own values taken out, to compare with what the user wrote. */
function withoutLoopFields(text: string): string {
  return text.replace(/^(iteration_count|session_id|started_at): .*\n/gm, "");
}

describe("the sidecar keeps the bookkeeping out of the user's file", () => {
  it("after 5 Stops the file differs from what the user wrote only in iteration_count, session_id, started_at", () => {
    const { root, statePath } = makeProject(TEXT);
    for (let i = 0; i < 5; i++) expect(stop(root, `turn ${i}`).code).toBe(2);
    const after = readFileSync(statePath, "utf8");
    expect(withoutLoopFields(after)).toBe(TEXT);
    const data = parseFrontmatter(after).data;
    expect(data).toMatchObject({ iteration_count: 6, session_id: "s1" });
    expect(Object.keys(data).sort()).toEqual(
      [
        "completion_promise",
        "custom_key",
        "iteration_count",
        "max_iterations",
        "max_tokens",
        "session_id",
        "stall_limit",
        "started_at",
      ].sort(),
    );
    const sidecar = JSON.parse(readFileSync(sidecarOf(statePath), "utf8")) as Record<string, unknown>;
    expect(sidecar.loop).toEqual({ started_at: data.started_at, session_id: "s1" });
    expect(sidecar).toHaveProperty("last_turn");
  });

  it.each([
    ["torn JSON", (text: string) => text.slice(0, text.length / 2)],
    [
      "a foreign started_at",
      (text: string) => text.replace(/"started_at": "[^"]*"/, '"started_at": "2020-01-01T00:00:00.000Z"'),
    ],
    ["another session", (text: string) => text.replace(/"session_id": "s1"/, '"session_id": "s2"')],
    ["not an object", () => "[]"],
    ["binary", () => "\u0000\u0001\u0002"],
  ])("a sidecar with %s resets the counters: no crash, no wrongful exit 2", (_name, corrupt) => {
    const { root, statePath } = makeProject(
      "---\nmax_iterations: 20\ncompletion_promise: DONE\ncompletion_threshold: 2\nstall_limit: 0\n---\nGoal\n",
    );
    expect(stop(root, "DONE").code).toBe(2); // streak 1 of 2
    const sidecar = sidecarOf(statePath);
    writeFileSync(sidecar, corrupt(readFileSync(sidecar, "utf8")));
    // The streak restarts: this DONE is the first of two again, so the loop continues.
    const run = stop(root, "DONE");
    expect(run.code).toBe(2);
    expect(`${run.stdout}${run.stderr}`).not.toMatch(/\n\s+at |TypeError|SyntaxError/);
    expect(JSON.parse(readFileSync(sidecar, "utf8"))).toMatchObject({ promise_streak: 1 });
    // And the next DONE completes: the counters work again.
    expect(stop(root, "DONE").code).toBe(0);
    expect(existsSync(statePath)).toBe(false);
    expect(existsSync(sidecar)).toBe(false);
  });

  it("an older file's runtime key is left as it is and ignored", () => {
    const legacy = "---\nmax_iterations: 5\nruntime: {promise_streak: 9, output_tokens: 77}\n---\nGoal\n";
    const { root, statePath } = makeProject(legacy);
    expect(stop(root).code).toBe(2);
    const after = readFileSync(statePath, "utf8");
    expect(after).toContain("runtime: {promise_streak: 9, output_tokens: 77}\n");
    expect(JSON.parse(readFileSync(sidecarOf(statePath), "utf8"))).toMatchObject({
      promise_streak: 0,
      output_tokens: 0,
    });
  });
});
