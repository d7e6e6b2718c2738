import { describe, expect, it } from "vitest";
import { EMPTY_RUNTIME, parseSidecar, renderSidecar, type Runtime } from "../../src/core/sidecar.js";

const owner = { started_at: "2026-03-01T12:00:00.000Z", session_id: "s1" };
const runtime: Runtime = {
  ...EMPTY_RUNTIME,
  promise_streak: 1,
  output_tokens: 120,
  tokens_by_model: { "model-a": 100, "model-b": 20 },
  transcript: "/t.jsonl",
  transcript_offset: 4096,
  stall_count: 2,
};

describe("parseSidecar", () => {
  it("reads back what renderSidecar wrote for the same loop", () => {
    expect(parseSidecar(renderSidecar(runtime, owner), owner)).toEqual(runtime);
  });

  it.each([
    ["torn JSON", renderSidecar(runtime, owner).slice(0, 40), owner],
    ["not an object", "[1,2]", owner],
    ["empty", "", owner],
    ["another started_at", renderSidecar(runtime, owner), { ...owner, started_at: "2026-03-02T00:00:00.000Z" }],
    ["another session", renderSidecar(runtime, owner), { ...owner, session_id: "s2" }],
    ["no owner recorded", JSON.stringify({ ...runtime }), owner],
    [
      "a loop not yet claimed reading a claimed loop's sidecar",
      renderSidecar(runtime, owner),
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
    expect(parseSidecar(text, owner)).toEqual({ ...EMPTY_RUNTIME, stall_count: 3 });
  });

  it("an unclaimed loop matches a sidecar written before it was claimed", () => {
    const none = { started_at: undefined, session_id: undefined };
    expect(parseSidecar(renderSidecar(runtime, none), none)).toEqual(runtime);
  });
});
