// parseHookInput's quick check stands in for the zod schema when the input is well formed: it must
// accept exactly what zod accepts.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { promptInputSchema, stopInputSchema } from "../../src/core/hookInput.js";

const field = fc.oneof(
  fc.string(),
  fc.boolean(),
  fc.integer(),
  fc.constant(null),
  fc.array(fc.string(), { maxLength: 2 }),
  fc.dictionary(fc.string({ maxLength: 3 }), fc.string(), { maxKeys: 2 }),
);
const input = fc.oneof(
  {
    weight: 6,
    arbitrary: fc.record(
      {
        session_id: field,
        transcript_path: field,
        cwd: field,
        stop_hook_active: field,
        last_assistant_message: field,
        hook_event_name: field,
        prompt: field,
        other: field,
      },
      { requiredKeys: [] },
    ),
  },
  { weight: 1, arbitrary: field },
);

describe("hook input quick checks", () => {
  it.each([
    ["Stop", stopInputSchema],
    ["UserPromptSubmit", promptInputSchema],
  ] as const)("%s: accept exactly what the zod schema accepts", (_name, schema) => {
    fc.assert(
      fc.property(input, (raw) => {
        expect(schema.quick(raw), fc.stringify(raw)).toBe(schema.zod().safeParse(raw).success);
      }),
      { numRuns: 5000 },
    );
  });
});
