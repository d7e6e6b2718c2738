// A hook's stdin, parsed once per process and passed down (no schema here: the idle path loads none).
export type JsonObject = Record<string, unknown>;

/** A hook's stdin as read and as parsed, once per process. */
export interface HookStdin {
  text: string;
  /** Is the text JSON at all? */
  isJson: boolean;
  /** Its top-level object, when it is one. */
  json: JsonObject | undefined;
}

const asObject = (raw: unknown) =>
  raw && typeof raw === "object" && !Array.isArray(raw) ? (raw as JsonObject) : undefined;

export function readHookStdin(text: string): HookStdin {
  try {
    return { text, isJson: true, json: asObject(JSON.parse(text)) };
  } catch {
    return { text, isJson: false, json: undefined };
  }
}

/** stdin text → its top-level JSON object, or undefined for anything else. */
export const parseJsonObject = (text: string): JsonObject | undefined => readHookStdin(text).json;

/** A string field of a parsed input, or undefined. */
export function stringField(input: JsonObject | undefined, key: string): string | undefined {
  const value = input?.[key];
  return typeof value === "string" ? value : undefined;
}
