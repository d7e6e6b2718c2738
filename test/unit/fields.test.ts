// The quick checks in fields.ts stand in for the zod schemas on the Stop hook's hot path: they must
// accept exactly what the schemas accept, and the runtime map must come out as zod makes it.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { EMPTY_RUNTIME, FIELD_NAMES, FIELD_RULES, runtimeSchema } from "../../src/core/fields.js";

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
        const rule = FIELD_RULES[field].schema;
        expect(rule.quick(v), `${field}: ${fc.stringify(v)}`).toBe(rule.zod().safeParse(v).success);
        expect(rule.safeParse(v).success).toBe(rule.zod().safeParse(v).success);
      }),
      { numRuns: 5000 },
    );
  });
});

describe("runtime map", () => {
  const count = fc.oneof(fc.nat(), number);
  const str = fc.oneof(fc.string(), number);
  const runtime = fc.record(
    {
      promise_streak: count,
      output_tokens: count,
      tokens_by_model: fc.oneof(fc.dictionary(fc.string({ maxLength: 6 }), number, { maxKeys: 3 }), value),
      transcript: str,
      transcript_offset: count,
      stall_count: count,
      last_turn: str,
      last_tree: str,
      last_message_id: str,
      last_message_tokens: count,
      extra: value,
    },
    { requiredKeys: [] },
  );

  it("comes out as zod makes it, bad entries replaced by defaults", () => {
    fc.assert(
      fc.property(fc.oneof({ weight: 5, arbitrary: runtime }, { weight: 1, arbitrary: value }), (v) => {
        const ours = runtimeSchema.safeParse(v);
        const zod = runtimeSchema.zod().safeParse(v);
        expect(ours.success).toBe(zod.success);
        if (ours.success && zod.success) {
          expect(ours.data).toEqual(zod.data);
          expect(Object.keys(ours.data)).toEqual(Object.keys(zod.data));
        }
      }),
      { numRuns: 5000 },
    );
  });

  it("EMPTY_RUNTIME is zod's reading of an empty map", () => {
    expect(runtimeSchema.zod().parse({})).toEqual(EMPTY_RUNTIME);
    expect(runtimeSchema.safeParse({})).toEqual({ success: true, data: EMPTY_RUNTIME });
  });
});
