import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { composeStateFile } from "../../src/core/composeState.js";
import { LoopError } from "../../src/core/errors.js";
import { parseStartArgs } from "../../src/core/parseStartArgs.js";
import { matchPromise } from "../../src/core/matchPromise.js";
import { parseState } from "../../src/core/parseState.js";

const NOW = Date.parse("2026-02-03T04:05:06Z");
const TEMPLATES = join(import.meta.dirname, "../../templates");
const template = (name: string) => ({
  text: readFileSync(join(TEMPLATES, `${name}.md`), "utf8"),
  file: `templates/${name}.md`,
});

describe("composeStateFile", () => {
  it.each([
    'Fix "the" parser; don\'t run $(touch /tmp/pwned) or `id`',
    "line one\nline two\n",
    "---\nactive: false\n---\nnot frontmatter",
    "日本語 🚀 \\ \t tab",
  ])("keeps the goal byte for byte: %j", (goal) => {
    const text = composeStateFile({
      request: parseStartArgs(`--max-iterations 2 -- ${goal}`),
      sessionId: "s-1",
      now: NOW,
    });
    const state = parseState(text);
    expect(state.body).toBe(goal.endsWith("\n") ? goal : `${goal}\n`);
    expect(state).toMatchObject({
      active: true,
      iteration_count: 1,
      max_iterations: 2,
      session_id: "s-1",
      started_at: "2026-02-03T04:05:06.000Z",
    });
  });

  it("writes every flag as a typed field", () => {
    const request = parseStartArgs(
      '--completion-promise "it\'s done" --completion-promise B --max-duration 2h --max-tokens 900 --verify "npm test" --stall-limit 0 --require-todos-done --promise-format tag Go',
    );
    const state = parseState(composeStateFile({ request, sessionId: undefined, now: NOW }));
    expect(state).toMatchObject({
      completion_promise: ["it's done", "B"],
      max_duration: 7200,
      max_tokens: 900,
      verify: "npm test",
      stall_limit: 0,
      require_todos_done: true,
      promise_format: "tag",
      session_id: undefined,
      max_iterations: 10,
    });
  });

  it("writes a repeated --scope as the list of paths the loop may change", () => {
    const request = parseStartArgs("--scope src/parser --scope test/parser Go");
    const state = parseState(composeStateFile({ request, sessionId: undefined, now: NOW }));
    expect(state.scope).toEqual(["src/parser", "test/parser"]);
  });

  it.each(["default", "tdd", "feature", "debug"])("fills the %s template, keeping its comments", (name) => {
    const t = template(name);
    const text = composeStateFile({
      request: parseStartArgs("--max-iterations 7 Make it so"),
      template: t,
      sessionId: "s",
      now: NOW,
    });
    const state = parseState(text);
    expect(state.max_iterations).toBe(7);
    expect(state.body).toContain("Make it so");
    expect(state.body).not.toContain("{{goal}}");
    for (const comment of t.text.split("\n").filter((l) => l.startsWith("#"))) expect(text).toContain(comment);
  });

  it("ends a loop from the default template as one without a template: <promise>DONE</promise>, not a word", () => {
    const compose = (line: string) =>
      parseState(
        composeStateFile({ request: parseStartArgs(line), template: template("default"), sessionId: "s", now: NOW }),
      );
    expect(compose("Go")).toMatchObject({ completion_promise: ["DONE"], promise_format: "tag" });
    expect(compose('--until "npm test" Go')).toMatchObject({ completion_promise: [], until: "npm test" });
    expect(compose("--completion-promise Shipped Go")).toMatchObject({
      completion_promise: ["Shipped"],
      promise_format: "substring",
    });
  });

  it("keeps a template's fields unless a flag overrides them", () => {
    const state = parseState(
      composeStateFile({ request: parseStartArgs("Go"), template: template("tdd"), sessionId: "s", now: NOW }),
    );
    expect(state).toMatchObject({
      max_iterations: 20,
      verify: "npm test",
      completion_promise: ["ALL TESTS PASS"],
      iteration_count: 1,
    });
  });

  it.each(["tdd", "feature", "debug"])("the %s template ends only on its promise in a tag", (name) => {
    const state = parseState(
      composeStateFile({ request: parseStartArgs("Go"), template: template(name), sessionId: "s", now: NOW }),
    );
    const [phrase] = state.completion_promise;
    expect(state.promise_format).toBe("tag");
    expect(matchPromise(`Not ${phrase} yet.`, state.completion_promise, state.promise_format)).toBeUndefined();
    expect(matchPromise(`<promise>${phrase}</promise>`, state.completion_promise, state.promise_format)).toBe(phrase);
  });

  it("puts the goal first when a template has no placeholder", () => {
    const t = { text: "---\nmax_iterations: 3\n---\n## Notes\nkeep going\n", file: "t.md" };
    expect(
      parseState(composeStateFile({ request: parseStartArgs("Go"), template: t, sessionId: undefined, now: NOW })).body,
    ).toBe("Go\n\n## Notes\nkeep going\n");
  });

  it("refuses a template that is not a valid state file, naming it", () => {
    const t = { text: "---\nmax_iterations: lots\n---\n{{goal}}\n", file: "templates/bad.md" };
    expect(() =>
      composeStateFile({ request: parseStartArgs("Go"), template: t, sessionId: undefined, now: NOW }),
    ).toThrow(LoopError);
    try {
      composeStateFile({ request: parseStartArgs("Go"), template: t, sessionId: undefined, now: NOW });
    } catch (error) {
      expect((error as LoopError).describe()).toContain("templates/bad.md");
      expect((error as LoopError).details.field).toBe("max_iterations");
    }
  });
});

describe("a loop started with no completion condition ends on <promise>DONE</promise>", () => {
  const compose = (line: string) =>
    parseState(composeStateFile({ request: parseStartArgs(line), sessionId: "s-1", now: NOW }));

  it("gets completion_promise DONE in a tag", () => {
    expect(compose("Fix the failing tests")).toMatchObject({ completion_promise: ["DONE"], promise_format: "tag" });
    expect(compose("--max-iterations 3 Fix it")).toMatchObject({ completion_promise: ["DONE"], promise_format: "tag" });
  });

  it.each([
    ["a promise", "--completion-promise SHIPPED Go", ["SHIPPED"]],
    ["until", '--until "npm test" Go', []],
    ["a checklist", "--checklist PLAN.md Go", []],
    ["a metric target", '--metric "echo 1" --metric-target ">= 2" Go', []],
  ])("keeps a loop with %s as asked", (_name, line, promise) => {
    expect(compose(line).completion_promise).toEqual(promise);
  });

  it("keeps an explicit promise_format", () => {
    expect(compose("--promise-format substring Go")).toMatchObject({
      completion_promise: ["DONE"],
      promise_format: "substring",
    });
  });

  it("a template with a promise keeps it", () => {
    const text = composeStateFile({
      request: parseStartArgs("Go"),
      template: template("tdd"),
      sessionId: "s",
      now: NOW,
    });
    expect(parseState(text).completion_promise).not.toEqual([]);
  });
});
