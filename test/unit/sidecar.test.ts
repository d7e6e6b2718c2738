import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { parseState } from "../../src/core/parseState.js";
import {
  carryCostOverClear,
  digestOf,
  makeRuntime,
  parseSidecar,
  parseTombstone,
  readLoopSpend,
  readPause,
  readSidecarView,
  recordCostFigure,
  renderSidecar,
  renderTombstone,
  type Runtime,
} from "../../src/core/sidecar.js";
import { renderSidecarFor } from "../support/loopSidecar.js";

const owner = { started_at: "2026-03-01T12:00:00.000Z", session_id: "s1" };
const STATE_TEXT = `---\nmax_iterations: 3\nsession_id: s1\nstarted_at: "${owner.started_at}"\n---\n\nGoal.\n`;
const VIEW = { state_digest: digestOf(STATE_TEXT), state: parseState(STATE_TEXT) };
const runtime: Runtime = {
  ...makeRuntime(),
  promise_streak: 1,
  output_tokens: 120,
  tokens_by_model: { "model-a": 100, "model-b": 20 },
  transcript: "/t.jsonl",
  transcript_offset: 4096,
  stall_count: 2,
};

describe("parseSidecar", () => {
  it("reads back what renderSidecar wrote for the same loop", () => {
    expect(parseSidecar(renderSidecar(runtime, owner, VIEW), owner)).toEqual(runtime);
  });

  it.each([
    ["torn JSON", renderSidecar(runtime, owner, VIEW).slice(0, 40), owner],
    ["not an object", "[1,2]", owner],
    ["empty", "", owner],
    ["another started_at", renderSidecar(runtime, owner, VIEW), { ...owner, started_at: "2026-03-02T00:00:00.000Z" }],
    ["another session", renderSidecar(runtime, owner, VIEW), { ...owner, session_id: "s2" }],
    ["no owner recorded", JSON.stringify({ ...runtime }), owner],
    [
      "a loop not yet claimed reading a claimed loop's sidecar",
      renderSidecar(runtime, owner, VIEW),
      { started_at: undefined, session_id: undefined },
    ],
  ])("discards %s", (_name, text, who) => {
    expect(parseSidecar(text, who)).toBeUndefined();
  });

  it("takes the default for each bad entry, keeps the good ones", () => {
    const text = JSON.stringify({
      loop: { started_at: owner.started_at, session_id: "s1" },
      promise_streak: -1,
      output_tokens: "lots",
      tokens_by_model: { a: "x" },
      transcript_offset: 1.5,
      stall_count: 3,
      last_turn: 7,
      extra: true,
    });
    expect(parseSidecar(text, owner)).toEqual({ ...makeRuntime(), stall_count: 3 });
  });

  it("an unclaimed loop matches a sidecar written before it was claimed", () => {
    const none = { started_at: undefined, session_id: undefined };
    expect(parseSidecar(renderSidecar(runtime, none, VIEW), none)).toEqual(runtime);
  });
});

describe("the pause and spend records", () => {
  const claimed = (extra: Record<string, unknown>) =>
    JSON.stringify({ loop: { started_at: owner.started_at, session_id: "s1" }, ...extra });

  it("reads a pause and a spend as written, and drops a malformed one to null", () => {
    const pause = { reason: "scope", text: "2 files outside scope", since: "2026-03-01T12:05:00.000Z" };
    const spend = { figure: 1.5, baseline: 0.25, source: "module" };
    expect(parseSidecar(claimed({ pause, spend }), owner)).toMatchObject({ pause, spend });
    for (const bad of [{ reason: "tired", text: "x", since: "y" }, { reason: "question" }, "paused", 3]) {
      expect(parseSidecar(claimed({ pause: bad, stall_count: 1 }), owner)).toMatchObject({
        pause: null,
        stall_count: 1,
      });
    }
    for (const bad of [
      { figure: -1, baseline: 0, source: "module" },
      { figure: 1, baseline: 0, source: "guess" },
    ]) {
      expect(parseSidecar(claimed({ spend: bad }), owner)?.spend).toBeNull();
    }
  });

  it("takes the default for a number JSON reads as Infinity (1e999), in a record and in an entry", () => {
    const text = claimed({ spend: { figure: 7, baseline: 0, source: "module" }, metric_best: 3, stall_count: 2 })
      .replace('"figure":7', '"figure":1e999')
      .replace('"metric_best":3', '"metric_best":1e999');
    const read = parseSidecar(text.replace(/}$/, ',"tokens_by_model":{"m":1e999}}'), owner);
    expect(read).toMatchObject({ spend: null, metric_best: null, tokens_by_model: {}, stall_count: 2 });
  });

  it("reads a sidecar of the previous version: the entries it shares, never its old pause and cost keys", () => {
    const old = claimed({
      promise_streak: 2,
      pause_question: "Which database?",
      api_pause: "",
      scope_pause: "",
      cost_first_usd: 0.5,
      cost_last_usd: 1,
      cost_carried_usd: 0,
      cost_source: "status line",
    });
    const read = parseSidecar(old, owner);
    expect(read).toEqual({ ...makeRuntime(), promise_streak: 2 });
    expect(Object.keys(read ?? {})).not.toContain("pause_question");
  });

  it("a hooks' pause holds while the loop is paused; Claude's question holds while it waits", () => {
    const since = "2026-03-01T12:05:00.000Z";
    const scope = { pause: { reason: "scope" as const, text: "x", since } };
    const question = { pause: { reason: "question" as const, text: "Which?", since } };
    expect(readPause(false, scope)).toEqual(scope.pause);
    expect(readPause(true, scope)).toBeUndefined();
    expect(readPause(true, question)).toEqual(question.pause);
    expect(readPause(true, { pause: null })).toBeUndefined();
  });

  it("spend: the figure now minus the figure at the start; a figure that drops carries the spend so far", () => {
    let r = makeRuntime();
    expect(readLoopSpend(r)).toBeUndefined();
    r = recordCostFigure(r, 2);
    expect(readLoopSpend(r)).toBe(0);
    r = recordCostFigure(r, 2.5);
    expect(readLoopSpend(r)).toBe(0.5);
    expect(r.spend).toEqual({ figure: 2.5, baseline: 2, source: "status line" });
    r = recordCostFigure(r, 0.25, "module");
    expect(readLoopSpend(r)).toBe(0.75);
    expect(r.spend?.source).toBe("module");
    r = carryCostOverClear(r);
    expect(readLoopSpend(r)).toBe(0.75);
    // after a clear, the next figure is all new spend, even above the last one
    r = recordCostFigure(r, 0.5, "module");
    expect(readLoopSpend(r)).toBe(1.25);
    expect(carryCostOverClear(makeRuntime())).toEqual(makeRuntime());
  });
});

describe("the sidecar's view of the state file", () => {
  it("reads back the fields, bookkeeping and checklist count saved with a state file's text, named by its digest", () => {
    const text = renderSidecarFor(STATE_TEXT, renderSidecar(runtime, owner, VIEW), "2/5");
    const read = readSidecarView(text);
    expect(read?.digest).toBe(digestOf(STATE_TEXT));
    expect(read?.view.state).toMatchObject({ max_iterations: 3, session_id: "s1", body: "\nGoal.\n" });
    expect(read?.view.runtime).toEqual(runtime);
    expect(read?.view.checklist).toBe("2/5");
    // The hooks' own read of the same text ignores the view.
    expect(parseSidecar(text, owner)).toEqual(runtime);
  });

  it("has none in a sidecar without one: torn, a tombstone, an older version's, not JSON", () => {
    const full = renderSidecarFor(STATE_TEXT);
    const bad = [
      "",
      "[]",
      "null",
      full.slice(0, full.length - 20),
      JSON.stringify({ loop: owner, ...runtime }),
      JSON.stringify({ ...JSON.parse(full), view: { state_digest: 3 } }),
      renderTombstone(owner, { reason: "stopped", by: "s2", at: "2026-03-01T12:09:00.000Z" }),
    ];
    for (const text of bad) expect(readSidecarView(text), text).toBeUndefined();
    fc.assert(fc.property(fc.string(), (text) => readSidecarView(text) === undefined || text.includes("view")));
  });

  it("names a text by a digest that a hand edit moves: a value, a line end, a BOM", () => {
    expect(digestOf(STATE_TEXT)).toBe(digestOf(`${STATE_TEXT}`));
    for (const edited of [
      STATE_TEXT.replace("max_iterations: 3", "max_iterations: 4"),
      STATE_TEXT.replace("max_iterations: 3", "max_iterations: 30"),
      STATE_TEXT.replace("\n", "\r\n"),
      `\uFEFF${STATE_TEXT}`,
    ])
      expect(digestOf(edited)).not.toBe(digestOf(STATE_TEXT));
  });
});

describe("the tombstone", () => {
  const ended = { reason: "stopped" as const, by: "s2", at: "2026-03-01T12:09:00.000Z" };

  it("reads back how the loop ended, and nothing from anything else", () => {
    expect(parseTombstone(renderTombstone(owner, ended))).toEqual(ended);
    const bad = [
      renderSidecar(runtime, owner, VIEW),
      JSON.stringify({ loop: owner, ended: { ...ended, by: 7 } }),
      JSON.stringify({ loop: owner, ended: { ...ended, reason: "vanished" } }),
      JSON.stringify({ ended }),
      "{",
    ];
    for (const text of bad) expect(parseTombstone(text), text).toBeUndefined();
  });
});
