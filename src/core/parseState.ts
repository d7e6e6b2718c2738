import { isAlias, isMap, isScalar, parseDocument, visit, type Document } from "yaml";
import { LoopError, renderReceived } from "./errors.js";
import { parseDuration } from "./duration.js";
import {
  EMPTY_RUNTIME,
  FIELD_NAMES,
  FIELD_RULES,
  RUNTIME_KEY,
  runtimeSchema,
  type FieldName,
  type LoopState,
} from "./fields.js";
import { splitFrontmatter, type FrontmatterSplit } from "./splitFrontmatter.js";
import { readSimpleFrontmatter, type SimpleField } from "./simpleFrontmatter.js";

/** Aliases beyond this are refused: a "billion laughs" file must not hang the hook. */
export const MAX_ALIASES = 100;

export interface ParsedDocument {
  split: FrontmatterSplit;
  /** yaml's document; undefined when the block was simple enough for readSimpleFrontmatter. */
  doc: Document | undefined;
  /** Where each field sits, when readSimpleFrontmatter read the block. */
  fields: SimpleField[] | undefined;
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
  const bad = text.search(/[\u0000\uFFFD]/);
  if (bad !== -1) {
    const what = text[bad] === "\u0000" ? "a NUL byte" : "bytes that are not UTF-8 (UTF-16, Latin-1 or binary data?)";
    throw new LoopError("STATE_NOT_TEXT", "the file is not UTF-8 text", {
      file,
      line: lineAt(text, bad),
      expected: "a UTF-8 Markdown file",
      received: what,
    });
  }
  const split = splitFrontmatter(text, file);
  // The common case, read without yaml: a fresh process pays milliseconds for yaml's first parse.
  const simple = readSimpleFrontmatter(split.yaml);
  if (simple) return { split, doc: undefined, fields: simple.fields, data: simple.data };
  // logLevel "error": yaml's warnings (e.g. a list used as a key) would land on the hook's stderr.
  // uniqueKeys off: yaml checks it in quadratic time (minutes for 1 MiB of short keys); see below.
  const doc = parseDocument(split.yaml, { uniqueKeys: false, prettyErrors: false, logLevel: "error" });
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
  if (isMap(doc.contents)) {
    const seen = new Set<unknown>();
    for (const pair of doc.contents.items) {
      if (!isScalar(pair.key)) continue;
      if (seen.has(pair.key.value)) {
        throw new LoopError("STATE_BAD_YAML", "the field is written twice", {
          file,
          field: String(pair.key.value),
          line: lineAt(text, split.yamlStart + (pair.key.range?.[0] ?? 0)),
          expected: "each field once; delete one of the two lines",
        });
      }
      seen.add(pair.key.value);
    }
  }
  let data: unknown;
  try {
    data = doc.toJS({ maxAliasCount: MAX_ALIASES }) ?? {};
  } catch (cause) {
    const name = /^Unresolved alias[^:]*: (.*)$/.exec(cause instanceof Error ? cause.message : "")?.[1];
    if (name !== undefined) {
      let at: number | undefined;
      visit(doc, {
        Alias: (_key, node) =>
          isAlias(node) && node.source === name ? ((at = node.range?.[0]), visit.BREAK) : undefined,
      });
      throw new LoopError("STATE_BAD_YAML", `the alias *${name} refers to no anchor`, {
        file,
        ...(at !== undefined && { line: lineAt(text, split.yamlStart + at) }),
        expected: `an anchor &${name} set before the alias, or a plain value`,
      });
    }
    throw new LoopError("STATE_BAD_YAML", "the frontmatter uses too many YAML aliases", {
      file,
      expected: `at most ${MAX_ALIASES} alias expansions`,
      received: renderReceived(cause instanceof Error ? cause.message : cause),
    });
  }
  return { split, doc, fields: undefined, data: data as Record<string, unknown> };
}

/** Line of a top-level key, for messages. */
function lineOfKey(text: string, parsed: ParsedDocument, key: string): number | undefined {
  const field = parsed.fields?.find((f) => f.key === key);
  if (field) return lineAt(text, parsed.split.yamlStart + field.keyStart);
  if (!parsed.doc || !isMap(parsed.doc.contents)) return undefined;
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
