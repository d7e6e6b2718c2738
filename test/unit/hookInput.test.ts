// The Stop hook's input: parsed once, validated by zod, and every refusal names the field.
import { describe, expect, it } from "vitest";
import { LoopError } from "../../src/core/errors.js";
import { parseStopInput } from "../../src/core/hookInput.js";
import { readHookStdin } from "../../src/core/hookStdin.js";

const parse = (text: string) => parseStopInput(readHookStdin(text));
const refusal = (text: string) => {
  try {
    parse(text);
  } catch (error) {
    if (error instanceof LoopError) return error;
    throw error;
  }
  throw new Error("accepted");
};

describe("parseStopInput", () => {
  it("keeps unknown fields and accepts nulls where Claude Code sends them", () => {
    const input = parse(
      JSON.stringify({ session_id: "s", last_assistant_message: null, agent_id: null, future_field: 1 }),
    );
    expect(input).toMatchObject({ session_id: "s", last_assistant_message: null, future_field: 1 });
  });

  it.each(["", " ", "\u2028"])("reads a blank session_id (%j) as none", (id) => {
    expect(parse(JSON.stringify({ session_id: id, cwd: "/p" }))).not.toHaveProperty("session_id");
    expect(parse(JSON.stringify({ session_id: " s1 " })).session_id).toBe(" s1 ");
  });

  it("checks only the fields a Stop reads: another of a new type cannot stop a loop", () => {
    const input = parse(JSON.stringify({ session_id: "s", stop_hook_active: "yes", hook_event_name: 7, agent_id: 1 }));
    expect(input).toMatchObject({ session_id: "s", stop_hook_active: "yes" });
  });

  it.each([
    ["", "INPUT_BAD_JSON", undefined],
    ["  \n", "INPUT_BAD_JSON", undefined],
    ["{not json", "INPUT_BAD_JSON", undefined],
    ["[1, 2]", "INPUT_BAD_FIELD", undefined],
    ['{"session_id": 42}', "INPUT_BAD_FIELD", "session_id"],
    ['{"transcript_path": true}', "INPUT_BAD_FIELD", "transcript_path"],
    ['{"cwd": null}', "INPUT_BAD_FIELD", "cwd"],
  ])("%j → %s on %s", (text, code, field) => {
    const error = refusal(text);
    expect(error.code).toBe(code);
    expect(error.details.field).toBe(field);
    expect(error.describe()).toContain("hook input (stdin)");
  });
});
