// Keys of a state file that read like a field and are none (src/core/mistypedFields.ts): found by parseState,
// named with their line and the field meant, told once per set at a Stop, shown by status and doctor.
import { describe, expect, it } from "vitest";
import {
  decideMistypedNotice,
  readMeantField,
  renderMistyped,
  renderMistypedRow,
} from "../../src/core/mistypedFields.js";
import { parseState } from "../../src/core/parseState.js";

describe("readMeantField", () => {
  it.each([
    ["max_iteration", "max_iterations"],
    ["max_iteratons", "max_iterations"],
    ["maxIterations", "max_iterations"],
    ["max-cost", "max_cost"],
    ["maxCost", "max_cost"],
    ["max_cost_usd", "max_cost"],
    ["completion_promises", "completion_promise"],
    ["notes", "notes_file"],
    ["Active", "active"],
    ["sesion_id", "session_id"],
  ])("reads %s as %s", (key, field) => {
    expect(readMeantField(key)).toBe(field);
  });

  it.each(["owner", "ticket", "x", "nope", "title", "reviewer", "deadline", "priority"])(
    "leaves %s, a key of the person's own, alone",
    (key) => {
      expect(readMeantField(key)).toBeUndefined();
    },
  );
});

describe("parseState", () => {
  it("keeps each such key with its line and the field meant, and the loop's fields as written", () => {
    const state = parseState(
      "---\nmax_iterations: 3\r\nmax_iteraton: 2\nowner: jane\nmaxCost: 5\n---\nGoal\n",
      ".claude/continuation-loop.local.md",
    );
    expect(state.max_iterations).toBe(3);
    expect(state.max_cost).toBeUndefined();
    expect(state.mistyped).toEqual([
      { key: "max_iteraton", field: "max_iterations", line: 3 },
      { key: "maxCost", field: "max_cost", line: 5 },
    ]);
    expect(parseState("---\nmax_iterations: 3\n---\nGoal\n").mistyped).toEqual([]);
  });

  it("compares only a file's first keys that are no field: thousands of them are not read key by key", () => {
    const many = Array.from({ length: 1000 }, (_, i) => `key_${i}: ${i}`);
    expect(parseState(`---\nmaxCost: 5\n${many.join("\n")}\n---\nGoal\n`).mistyped).toHaveLength(1);
    expect(parseState(`---\n${many.join("\n")}\nmaxCost: 5\n---\nGoal\n`).mistyped).toEqual([]);
  });
});

describe("renderMistyped", () => {
  const mistyped = [{ key: "maxCost", field: "max_cost" as const, line: 5 }];
  it("names the file, the line, the key, and the field meant with an example", () => {
    expect(renderMistyped(mistyped, ".claude/continuation-loop.local.md")).toEqual([
      ".claude/continuation-loop.local.md line 5: maxCost is not a field, so it does nothing. Did you mean max_cost (e.g. max_cost: 5)?",
    ]);
    expect(renderMistypedRow(mistyped)).toBe("ignored, not fields: maxCost on line 5 (max_cost?)");
  });
});

describe("decideMistypedNotice", () => {
  const one = [{ key: "maxCost", field: "max_cost" as const, line: 5 }];
  const two = [...one, { key: "max_iteraton", field: "max_iterations" as const, line: 3 }];
  it("tells a set once, a changed set again, and forgets a set once it is fixed", () => {
    const first = decideMistypedNotice(one, "f.md", "");
    expect(first.notice).toBe(`continuation-loop: ${renderMistyped(one, "f.md")[0]}`);
    expect(decideMistypedNotice(one, "f.md", first.told).notice).toBeUndefined();
    const more = decideMistypedNotice(two, "f.md", first.told);
    expect(more.notice?.split("\n")).toHaveLength(2);
    const fixed = decideMistypedNotice([], "f.md", more.told);
    expect(fixed).toEqual({ told: "" });
    expect(decideMistypedNotice(one, "f.md", fixed.told).notice).toBeDefined();
  });
});
