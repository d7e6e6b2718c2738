// The field table: what each field accepts, and docs/REFERENCE.md's table made from it.
import { parse } from "yaml";
import { describe, expect, it } from "vitest";
import { readFileSync } from "node:fs";
import {
  acceptsValue,
  FIELD_NAMES,
  type FieldName,
  type FieldSpec,
  FIELDS,
  USER_FIELDS,
} from "../../src/core/fields.js";
import { renderCommonFieldTable, renderFieldTable } from "../../src/core/renderFields.js";
import { README, REFERENCE, spliceTable } from "../../scripts/docs-fields.js";

describe("field checks", () => {
  it("every field's own example is accepted", () => {
    for (const field of FIELD_NAMES) {
      const value = parse(FIELDS[field].example)[field];
      if (!FIELDS[field].example.endsWith("…")) expect(acceptsValue(field, value), field).toBe(true);
    }
  });

  it("every default is written as a person would write it, and accepted", () => {
    for (const field of FIELD_NAMES) {
      const { default: fallback }: FieldSpec = FIELDS[field];
      const none = fallback === undefined || (Array.isArray(fallback) && fallback.length === 0);
      if (!none) expect(acceptsValue(field, fallback), field).toBe(true);
    }
  });

  it.each([
    ["max_iterations", 10, true],
    ["max_iterations", 0, false],
    ["max_iterations", 10001, false],
    ["max_iterations", 1.5, false],
    ["max_iterations", "10", false],
    ["stall_limit", 0, true],
    ["completion_promise", "done", true],
    ["completion_promise", ["a", "b"], true],
    ["completion_promise", [], false],
    ["completion_promise", "  ", false],
    ["promise_format", "tag", true],
    ["promise_format", "Tag", false],
    ["max_duration", "1h30m", true],
    ["max_duration", 90, true],
    ["max_duration", "soon", false],
    ["verify_timeout", "14m", true],
    ["verify_timeout", "15m", false],
    ["max_cost", 2.5, true],
    ["max_cost", 0, false],
    ["max_cost", Number.POSITIVE_INFINITY, false],
    ["active", false, true],
    ["active", "no", false],
    ["started_at", "2026-01-31T09:00:00Z", true],
    ["started_at", "yesterday", false],
  ] as [FieldName, unknown, boolean][])("%s: %j → %s", (field, value, accepted) => {
    expect(acceptsValue(field, value)).toBe(accepted);
  });
});

describe("the field table is the one definition", () => {
  it("docs/REFERENCE.md's field table is the table rendered from FIELDS (npm run docs:fields writes it)", () => {
    const reference = readFileSync(REFERENCE, "utf8");
    expect(reference).toContain(renderFieldTable());
    expect(spliceTable(reference, renderFieldTable(), REFERENCE)).toBe(reference);
  });

  it("the README's table of the fields most people set is rendered from FIELDS, defaults included", () => {
    const readme = readFileSync(README, "utf8");
    expect(readme).toContain(renderCommonFieldTable());
    expect(spliceTable(readme, renderCommonFieldTable(), README)).toBe(readme);
    expect(renderCommonFieldTable()).toContain(
      "| `max_iterations` | `max_iterations: 20` | most turns in the loop, the first one counted (default 10) |",
    );
  });

  it("every field has a type, meaning, example and message; loop-set fields have no flag", () => {
    for (const field of FIELD_NAMES) {
      const spec = FIELDS[field];
      expect(spec.example.startsWith(`${field}: `), field).toBe(true);
      expect(spec.type && spec.meaning && spec.expected && spec.summary, field).toBeTruthy();
      // --help wraps it on spaces, and the README's table holds it in one cell: plain text on one line.
      expect(spec.summary, field).not.toMatch(/[`|\n]/);
    }
    expect(FIELD_NAMES.filter((f) => !USER_FIELDS.includes(f))).toEqual([
      "iteration_count",
      "session_id",
      "started_at",
    ]);
  });
});
