import { z } from "zod";
import { LoopError, renderReceived } from "./errors.js";

// Loose objects: Claude Code adds fields often; unknown ones are kept and ignored.
export const stopInputSchema = z.looseObject({
  session_id: z.string().optional(),
  transcript_path: z.string().optional(),
  cwd: z.string().optional(),
  stop_hook_active: z.boolean().optional(),
  last_assistant_message: z.string().nullable().optional(),
  hook_event_name: z.string().optional(),
});
export type StopInput = z.infer<typeof stopInputSchema>;

export const promptInputSchema = z.looseObject({
  session_id: z.string().optional(),
  transcript_path: z.string().optional(),
  cwd: z.string().optional(),
  prompt: z.string().optional(),
  hook_event_name: z.string().optional(),
});
export type PromptInput = z.infer<typeof promptInputSchema>;

/** stdin text → validated hook input. Throws LoopError naming the field. */
export function parseHookInput<T>(text: string, schema: z.ZodType<T>, source = "hook input (stdin)"): T {
  if (!text.trim()) {
    throw new LoopError("INPUT_BAD_JSON", "empty input", { file: source, expected: "a JSON object from Claude Code" });
  }
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    throw new LoopError("INPUT_BAD_JSON", "not valid JSON", {
      file: source,
      expected: "a JSON object from Claude Code",
      received: renderReceived(text.slice(0, 60)),
    });
  }
  const result = schema.safeParse(raw);
  if (!result.success) {
    const issue = result.error.issues[0];
    const field = issue?.path.join(".") || undefined;
    throw new LoopError("INPUT_BAD_FIELD", issue?.message ?? "invalid", {
      file: source,
      field,
      expected: field ? "a string" : "a JSON object",
      received: renderReceived(field ? (raw as Record<string, unknown>)[field] : raw),
    });
  }
  return result.data;
}
