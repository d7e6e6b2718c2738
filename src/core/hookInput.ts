import * as z from "zod/mini";
import { setupZod } from "./zodSetup.js";
import { LoopError, renderReceived } from "./errors.js";

type Kind = "string" | "boolean" | "string or null";
type TypeOf<K extends Kind> = K extends "string" ? string : K extends "boolean" ? boolean : string | null;
/** What zod's looseObject makes of a shape: the known fields typed and optional, others kept. */
type Input<S extends Record<string, Kind>> = { [K in keyof S]?: TypeOf<S[K]> | undefined } & Record<string, unknown>;

/**
 * A hook input shape. `quick` accepts well-formed input without building the zod schema; the schema
 * (built on first use, so a hook that gets good input never pays for it) judges the rest and names
 * the field that is wrong. test/unit/hookInput.test.ts holds the two to the same answers.
 */
export interface InputSchema<T> {
  quick(raw: unknown): boolean;
  zod(): z.ZodMiniType<T>;
}

const isType = (value: unknown, kind: Kind) =>
  value === undefined ||
  typeof value === (kind === "boolean" ? "boolean" : "string") ||
  (kind === "string or null" && value === null);
const zodOf = (kind: Kind) =>
  kind === "boolean"
    ? z.optional(z.boolean())
    : kind === "string"
      ? z.optional(z.string())
      : z.optional(z.nullable(z.string()));

// Loose objects: Claude Code adds fields often; unknown ones are kept and ignored.
function inputSchema<S extends Record<string, Kind>>(shape: S): InputSchema<Input<S>> {
  let schema: z.ZodMiniType<Input<S>> | undefined;
  return {
    quick: (raw) =>
      !!raw &&
      typeof raw === "object" &&
      !Array.isArray(raw) &&
      Object.entries(shape).every(([key, kind]) => isType((raw as Record<string, unknown>)[key], kind)),
    zod: () =>
      (schema ??=
        (setupZod(),
        z.looseObject(
          Object.fromEntries(Object.entries(shape).map(([key, kind]) => [key, zodOf(kind)])),
        ) as unknown as z.ZodMiniType<Input<S>>)),
  };
}

const STOP_INPUT = {
  session_id: "string",
  transcript_path: "string",
  cwd: "string",
  stop_hook_active: "boolean",
  last_assistant_message: "string or null",
  agent_id: "string or null",
  hook_event_name: "string",
} as const;
export type StopInput = Input<typeof STOP_INPUT>;
export const stopInputSchema = inputSchema(STOP_INPUT);

const PROMPT_INPUT = {
  session_id: "string",
  transcript_path: "string",
  cwd: "string",
  prompt: "string",
  hook_event_name: "string",
} as const;
export const promptInputSchema = inputSchema(PROMPT_INPUT);

/** stdin text → validated hook input. Throws LoopError naming the field. */
export function parseHookInput<T>(text: string, schema: InputSchema<T>, source = "hook input (stdin)"): T {
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
  if (schema.quick(raw)) return raw as T;
  const result = schema.zod().safeParse(raw);
  if (!result.success) {
    const issue = result.error.issues[0];
    const field = issue?.path.join(".") || undefined;
    const type = issue?.code === "invalid_type" ? issue.expected : undefined;
    throw new LoopError("INPUT_BAD_FIELD", field ? "wrong type" : "not a JSON object", {
      file: source,
      field,
      expected: field
        ? type === "boolean"
          ? "true or false"
          : `a ${type ?? "string"}`
        : "a JSON object from Claude Code",
      received: renderReceived(field ? (raw as Record<string, unknown>)[field] : raw),
    });
  }
  return result.data;
}
