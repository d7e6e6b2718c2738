// Which sidecars are this loop's, another loop's, or torn (docs/REFERENCE.md "Files the loop keeps"), and the line
// that tells of a torn one kept aside.
import { basename } from "node:path";
import { describe, expect, it } from "vitest";
import { parseStateFileName } from "../../src/core/loopFileNames.js";
import { loopFileAt, renderKeptSidecarPath, renderShownBeside } from "../../src/core/loopFiles.js";
import { parseState } from "../../src/core/parseState.js";
import { digestOf, makeRuntime, parseSidecarReading, renderSidecar, renderTombstone } from "../../src/core/sidecar.js";
import { renderTornSidecar } from "../../src/core/renderTornSidecar.js";

const owner = { started_at: "2026-03-01T12:00:00.000Z", session_id: "s1" };
const STATE_TEXT = `---\nmax_iterations: 3\nsession_id: s1\nstarted_at: "${owner.started_at}"\n---\n\nGoal.\n`;
const VIEW = { state_digest: digestOf(STATE_TEXT), state: parseState(STATE_TEXT) };
const runtime = { ...makeRuntime(), promise_streak: 1, output_tokens: 120, stall_count: 2 };
const whole = renderSidecar(runtime, owner, VIEW);

describe("parseSidecarReading", () => {
  it("reads this loop's sidecar as its own", () => {
    expect(parseSidecarReading(whole, owner)).toEqual({ kind: "ours", runtime });
  });

  it.each([
    ["another started_at", whole, { ...owner, started_at: "2026-03-02T00:00:00.000Z" }],
    ["another session", whole, { ...owner, session_id: "s2" }],
    ["an unclaimed loop's file reading a claimed loop's", whole, { started_at: undefined, session_id: undefined }],
    [
      "a tombstone of an ended loop",
      renderTombstone(owner, { reason: "stopped", by: "s2", at: "x" }),
      { ...owner, session_id: "s3" },
    ],
  ])("says %s is another loop's: discarded, nothing to tell", (_name, text, who) => {
    expect(parseSidecarReading(text, who)).toEqual({ kind: "other" });
  });

  it.each([
    ["cut short", whole.slice(0, whole.length / 2), /not JSON/],
    ["binary", "\u0000\u0001\u0002", /not JSON/],
    ["empty", "", /empty/],
    ["blank", "  \n", /empty/],
    ["not an object", "[1,2]", /"loop"/],
    ["no owner recorded", JSON.stringify(runtime), /"loop"/],
    ["an owner of the wrong shape", JSON.stringify({ loop: { started_at: 5, session_id: "s1" } }), /"loop"/],
  ])("says %s is torn, all its counters fresh", (_name, text, why) => {
    const read = parseSidecarReading(text, owner);
    expect(read).toMatchObject({ kind: "torn", runtime: makeRuntime() });
    expect(read.kind === "torn" && read.entries).toBeUndefined();
    expect(read.kind === "torn" && read.why).toMatch(why);
  });

  it("says which entries fail their schema, each with the value expected; only those take their default", () => {
    const text = JSON.stringify({
      ...JSON.parse(whole),
      output_tokens: "lots",
      tokens_by_model: { a: -1 },
      spend: { figure: 1, baseline: 0, source: "guess" },
      fresh_context_told: "yes",
    });
    const read = parseSidecarReading(text, owner);
    expect(read.kind).toBe("torn");
    if (read.kind !== "torn") return;
    expect(read.runtime).toEqual({ ...runtime, output_tokens: 0 });
    expect(read.entries?.sort()).toEqual(["fresh_context_told", "output_tokens", "spend", "tokens_by_model"]);
    expect(read.why).toContain("output_tokens: expected a number");
    expect(read.why).toContain("tokens_by_model.a: expected a number ≥ 0");
    expect(read.why).toContain('spend.source: expected one of "module", "status line"');
    expect(read.why).toContain("fresh_context_told: expected true or false");
  });

  it("an older version's sidecar, lacking newer entries, is this loop's: missing entries are no tear", () => {
    const { stall_count, ...older } = JSON.parse(whole) as Record<string, unknown>;
    expect(stall_count).toBe(2);
    expect(parseSidecarReading(JSON.stringify(older), owner)).toEqual({
      kind: "ours",
      runtime: { ...runtime, stall_count: 0 },
    });
  });
});

describe("renderTornSidecar", () => {
  const file = loopFileAt("/p", "web");
  const shown = renderShownBeside(file, file.sidecarPath);
  const kept = renderShownBeside(file, renderKeptSidecarPath(file.sidecarPath));

  it("names the file, why, the counters the limits count, and the kept copy", () => {
    const line = renderTornSidecar({ kind: "torn", runtime: makeRuntime(), why: "it is empty" }, shown, kept);
    expect(shown).toBe(".claude/continuation-loop.web.runtime.json");
    expect(kept).toBe(".claude/continuation-loop.web.runtime.json.torn");
    expect(line).toContain(shown);
    expect(line).toContain("it is empty");
    expect(line).toMatch(/spend .*max_cost/);
    expect(line).toMatch(/output tokens .*max_tokens/);
    expect(line).toContain(`kept as ${kept}`);
    expect(line).not.toContain("\n");
  });

  it("for entries, names only those and the limits they feed", () => {
    const torn = { kind: "torn" as const, runtime: makeRuntime(), why: "stall_count: expected a whole number" };
    const line = renderTornSidecar({ ...torn, entries: ["stall_count"] }, shown, kept);
    expect(line).toContain("stall_count starts again");
    expect(line).not.toMatch(/max_cost|max_tokens/);
    expect(renderTornSidecar({ ...torn, entries: ["spend"] }, shown, kept)).toMatch(/max_cost/);
  });

  it("when the loop's files go, says only where the old file is", () => {
    const line = renderTornSidecar({ kind: "torn", runtime: makeRuntime(), why: "it is empty" }, shown, kept, true);
    expect(line).not.toMatch(/start again/);
    expect(line).toContain(`kept as ${kept}`);
  });
});

describe("the kept copy's name", () => {
  it.each(["default", "web", "torn", "a-b"])("of loop %s is beside its sidecar and no loop's or sidecar's", (name) => {
    const file = loopFileAt("/p", name);
    const kept = basename(renderKeptSidecarPath(file.sidecarPath));
    expect(kept.startsWith(basename(file.sidecarPath))).toBe(true);
    expect(parseStateFileName(kept)).toBeUndefined();
    expect(kept.endsWith(".runtime.json")).toBe(false);
    expect(kept.endsWith(".tmp")).toBe(false);
  });
});
