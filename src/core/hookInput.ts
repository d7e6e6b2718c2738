import * as z from "zod/mini";
import { LoopError, renderReceived } from "./errors.js";
import type { HookStdin } from "./hookStdin.js";

/**
 * The session's background tasks (`background_tasks`, docs/REFERENCE.md "Background work"). A list that does
 * not fit is read as none: the loop then behaves as on a version that lists no tasks. Checked apart from the
 * rest of the input, not with zod's `catch`, whose fallback brings zod's whole util module into the bundle
 * (docs/PERFORMANCE.md).
 */
const backgroundTasksSchema = z.array(
  z.looseObject({ id: z.string(), type: z.string(), status: z.string(), description: z.optional(z.string()) }),
);

// Loose: Claude Code adds fields often; unknown ones are kept and ignored. Only the fields a Stop reads are
// checked, so a change of type in another (`stop_hook_active`) cannot stop a loop.
const stopInputSchema = z.looseObject({
  session_id: z.optional(z.string()),
  transcript_path: z.optional(z.string()),
  cwd: z.optional(z.string()),
  last_assistant_message: z.optional(z.nullable(z.string())),
  background_tasks: z.optional(z.unknown()),
});
export type StopInput = z.infer<typeof stopInputSchema> & {
  background_tasks: z.infer<typeof backgroundTasksSchema>;
};

const BAD_JSON = { expected: "a JSON object from Claude Code" };

/** The Stop hook's input, validated by zod. Throws LoopError naming the field. */
export function parseStopInput(stdin: HookStdin, source = "hook input (stdin)"): StopInput {
  if (!stdin.text.trim()) throw new LoopError("INPUT_BAD_JSON", "empty input", { file: source, ...BAD_JSON });
  if (!stdin.isJson) {
    throw new LoopError("INPUT_BAD_JSON", "not valid JSON", {
      file: source,
      ...BAD_JSON,
      received: renderReceived(stdin.text.slice(0, 60)),
    });
  }
  if (!stdin.json) {
    throw new LoopError("INPUT_BAD_FIELD", "not a JSON object", {
      file: source,
      ...BAD_JSON,
      received: renderReceived(JSON.parse(stdin.text)),
    });
  }
  const result = stopInputSchema.safeParse(stdin.json);
  if (result.success) {
    const tasks = backgroundTasksSchema.safeParse(result.data.background_tasks);
    // A blank id is none: claimed with it, the loop's state file would hold a session_id its next Stop refuses.
    const { session_id, ...rest } = result.data;
    return { ...rest, ...(session_id?.trim() && { session_id }), background_tasks: tasks.success ? tasks.data : [] };
  }
  const issue = result.error.issues[0];
  const field = issue?.path.join(".") ?? "";
  const type = issue?.code === "invalid_type" ? issue.expected : "string";
  throw new LoopError("INPUT_BAD_FIELD", "wrong type", {
    file: source,
    field,
    expected: type === "boolean" ? "true or false" : `a ${type}`,
    received: renderReceived(stdin.json[field]),
  });
}
