import { isMap, isScalar, parseDocument, type Document } from "yaml";
import { LoopError, renderReceived } from "./errors.js";
import { parseDuration } from "./duration.js";
import { EMPTY_RUNTIME, FIELD_NAMES, FIELD_RULES, RUNTIME_KEY, runtimeSchema, type FieldName, type LoopState } from "./fields.js";
import { splitFrontmatter, type FrontmatterSplit } from "./splitFrontmatter.js";

/** Aliases beyond this are refused: a "billion laughs" file must not hang the hook. */
export const MAX_ALIASES = 100;

export interface ParsedDocument {
  split: FrontmatterSplit;
  doc: Document;
  data: Record<string, unknown>;
}

/** 1-based line number of an offset in the whole file. */
export function lineAt(text: string, offset: number): number {
  let line = 1;
  for (let i = text.indexOf("\n"); i !== -1 && i < offset; i = text.indexOf("\n", i + 1)) line++;
  return line;
}

/** Text → YAML document and plain data. Throws LoopError on anything that is not a frontmatter mapping. */
export function parseDocumentOf(text: string, file?: string): ParsedDocument {
  if (text.includes("\u0000") || text.includes("\uFFFD")) {
    throw new LoopError("STATE_NOT_TEXT", "the file is not UTF-8 text", { file, expected: "a UTF-8 Markdown file" });
  }
  const split = splitFrontmatter(text, file);
  const doc = parseDocument(split.yaml, { uniqueKeys: true, prettyErrors: false });
  const error = doc.errors[0];
  if (error) {
    throw new LoopError("STATE_BAD_YAML", `the frontmatter is not valid YAML (${error.code})`, {
      file,
      line: lineAt(text, split.yamlStart + error.pos[0]),
      expected: 'one "field: value" per line, e.g. "max_iterations: 10"',
      received: renderReceived(error.message.split("\n")[0]),
    });
  }
  if (doc.contents !== null && !isMap(doc.contents)) {
    throw new LoopError("STATE_NOT_MAPPING", "the frontmatter is not a list of fields", {
      file,
      line: lineAt(text, split.yamlStart + (doc.contents.range?.[0] ?? 0)),
      expected: 'lines of "field: value", e.g. "max_iterations: 10"',
    });
  }
  let data: unknown;
  try {
    data = doc.toJS({ maxAliasCount: MAX_ALIASES }) ?? {};
  } catch (cause) {
    throw new LoopError("STATE_BAD_YAML", "the frontmatter uses too many YAML aliases", {
      file,
      expected: `at most ${MAX_ALIASES} alias expansions`,
      received: renderReceived(cause instanceof Error ? cause.message : cause),
    });
  }
  return { split, doc, data: data as Record<string, unknown> };
}

/** Line of a top-level key, for messages. */
function lineOfKey(text: string, parsed: ParsedDocument, key: string): number | undefined {
  if (!isMap(parsed.doc.contents)) return undefined;
  const pair = parsed.doc.contents.items.find((item) => isScalar(item.key) && item.key.value === key);
  const start = isScalar(pair?.key) ? pair.key.range?.[0] : undefined;
  return start === undefined ? undefined : lineAt(text, parsed.split.yamlStart + start);
}

/** Checks every known field; reports the first problem in file order. */
function checkFields(text: string, parsed: ParsedDocument, file?: string): void {
  const problems: LoopError[] = [];
  for (const field of FIELD_NAMES) {
    const value = parsed.data[field];
    if (value === undefined || value === null) continue;
    const rule: { schema: { safeParse(v: unknown): { success: boolean } }; expected: string } = FIELD_RULES[field];
    if (rule.schema.safeParse(value).success) continue;
    problems.push(
      new LoopError("STATE_BAD_FIELD", "invalid value", {
        file,
        field,
        line: lineOfKey(text, parsed, field),
        expected: rule.expected,
        received: renderReceived(value),
      }),
    );
  }
  problems.sort((a, b) => (a.details.line ?? 0) - (b.details.line ?? 0));
  const first = problems[0];
  if (first) throw first;
}

/** State-file text → validated LoopState with defaults. Pure; throws LoopError naming file, field, line. */
export function parseState(text: string, file?: string): LoopState {
  const parsed = parseDocumentOf(text, file);
  checkFields(text, parsed, file);
  const get = <T>(field: FieldName, fallback: T): T => (parsed.data[field] ?? fallback) as T;
  const promise = get<string | string[] | undefined>("completion_promise", undefined);
  const runtime = runtimeSchema.safeParse(parsed.data[RUNTIME_KEY] ?? {});
  const maxDuration = parsed.data.max_duration;
  return {
    active: get("active", true),
    iteration_count: get("iteration_count", 1),
    max_iterations: get("max_iterations", 10),
    completion_promise: promise === undefined ? [] : Array.isArray(promise) ? promise : [promise],
    promise_format: get("promise_format", "substring"),
    completion_threshold: get("completion_threshold", 1),
    max_duration_s: maxDuration === undefined || maxDuration === null ? undefined : parseDuration(maxDuration),
    max_tokens: get<number | undefined>("max_tokens", undefined),
    verify: get<string | undefined>("verify", undefined),
    verify_timeout_s: parseDuration(parsed.data.verify_timeout ?? "5m") ?? 300,
    notes_file: get<string | undefined>("notes_file", undefined),
    stall_limit: get("stall_limit", 3),
    require_todos_done: get("require_todos_done", false),
    session_id: get<string | undefined>("session_id", undefined),
    started_at: get<string | undefined>("started_at", undefined),
    runtime: runtime.success ? runtime.data : EMPTY_RUNTIME,
    body: parsed.split.body,
  };
}
