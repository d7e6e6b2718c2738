// The quick checks in fields.ts stand in for the zod schemas on the Stop hook's hot path: they must
// accept exactly what the schemas accept. The README's field table is made from the same table.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { acceptsValue } from "../../src/core/acceptsValue.js";
import type { FieldSpec } from "../../src/core/fieldChecks.js";
import { FIELD_NAMES, FIELDS, USER_FIELDS } from "../../src/core/fields.js";
import { renderFieldTable } from "../../src/core/renderStart.js";
import { REPO } from "../support/runHook.js";

const text = fc.oneof(
  fc.string(),
  fc.constantFrom(
    "",
    " ",
    "\t\n",
    " x ",
    "90s",
    "45m",
    "2h",
    "1d",
    "1.5h",
    "10",
    "2026-01-31T09:00:00Z",
    "yesterday",
    "substring",
    "tag",
    "Tag",
  ),
);
const number = fc.oneof(
  fc.integer(),
  fc.double(),
  fc.constantFrom(
    0,
    -1,
    1,
    1000,
    1001,
    10000,
    10001,
    Number.MAX_SAFE_INTEGER,
    Number.MAX_SAFE_INTEGER + 2,
    1.5,
    -0,
    NaN,
    Infinity,
    -Infinity,
  ),
);
const value = fc.oneof(
  text,
  number,
  fc.boolean(),
  fc.constant(null),
  fc.constant(undefined),
  fc.array(fc.oneof(text, number), { maxLength: 3 }),
  fc.dictionary(fc.string({ maxLength: 4 }), number, { maxKeys: 3 }),
);

describe("quick field checks", () => {
  it("accept exactly what the zod schemas accept", () => {
    fc.assert(
      fc.property(fc.constantFrom(...FIELD_NAMES), value, (field, v) => {
        const spec: FieldSpec = FIELDS[field];
        const zod = spec.zod().safeParse(v).success;
        expect(spec.quick(v), `${field}: ${fc.stringify(v)}`).toBe(zod);
        expect(acceptsValue(field, v)).toBe(zod);
      }),
      { numRuns: 5000 },
    );
  });
});

describe("the field table is the one definition", () => {
  it("the README's field table is the table rendered from FIELDS", () => {
    const readme = readFileSync(join(REPO, "README.md"), "utf8");
    const start = readme.indexOf("| field | type, default | meaning | example |");
    expect(start, "README has the field table").toBeGreaterThan(-1);
    const end = readme.indexOf("\n\n", start);
    expect(readme.slice(start, end)).toBe(renderFieldTable());
  });

  it("every field has a type, meaning, example and message; loop-set fields have no flag", () => {
    for (const field of FIELD_NAMES) {
      const spec: FieldSpec = FIELDS[field];
      expect(spec.example.startsWith(`${field}: `), field).toBe(true);
      expect(spec.type && spec.meaning && spec.expected, field).toBeTruthy();
    }
    expect(FIELD_NAMES.filter((f) => !USER_FIELDS.includes(f))).toEqual([
      "iteration_count",
      "session_id",
      "started_at",
    ]);
  });
});
