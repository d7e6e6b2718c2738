import { LoopError, renderReceived } from "./errors.js";
import {
  acceptsValue,
  expectedOf,
  type FieldValues,
  isFieldName,
  isUserField,
  FIELD_NAMES,
  type FieldName,
  specOf,
  type WrittenFields,
} from "./fields.js";
import { lineAt, type ParsedFrontmatter, parseFrontmatter } from "./frontmatter.js";
import { type MistypedField, readMeantField } from "./mistypedFields.js";

/** How many keys that are no field are compared with the fields' names (`readMeantField`). */
const MAX_KEYS_COMPARED = 64;

/**
 * The loop's fields from a state file's frontmatter, once every field it sets is accepted: each read by its
 * row, its default where the file is silent (or null).
 */
function readFields(data: Readonly<Record<string, unknown>>): FieldValues {
  const values: Partial<Record<FieldName, unknown>> = {};
  for (const field of FIELD_NAMES) {
    const { default: fallback, read } = specOf(field);
    const value = data[field] ?? fallback;
    values[field] = value === undefined || !read ? value : (read as (value: unknown) => unknown)(value);
  }
  return values as FieldValues;
}

/**
 * Checks every field the file sets with its zod schema (throws the first problem in file order); the user's as
 * written, and the keys that are no field but read like one.
 */
function checkFields(text: string, parsed: ParsedFrontmatter, file?: string) {
  const written: Record<string, unknown> = {};
  const mistyped: MistypedField[] = [];
  let unknown = 0;
  const problems: LoopError[] = [];
  const lineOf = (key: string) => {
    const at = parsed.keyOffset(key);
    return at === undefined ? undefined : lineAt(text, at);
  };
  for (const [field, value] of Object.entries(parsed.data)) {
    if (!isFieldName(field)) {
      // A person's typos are a few keys: a file of thousands of others is not compared key by key.
      const meant = ++unknown <= MAX_KEYS_COMPARED ? readMeantField(field) : undefined;
      if (meant !== undefined) mistyped.push({ key: field, field: meant, line: lineOf(field) });
      continue;
    }
    if (value == null) continue;
    if (acceptsValue(field, value)) {
      if (isUserField(field)) written[field] = value;
      continue;
    }
    problems.push(
      new LoopError("STATE_BAD_FIELD", "invalid value", {
        file,
        field,
        line: lineOf(field),
        expected: expectedOf(field),
        received: renderReceived(value),
      }),
    );
  }
  problems.sort((a, b) => (a.details.line ?? 0) - (b.details.line ?? 0));
  if (problems[0]) throw problems[0];
  return { written: written as WrittenFields, mistyped };
}

/**
 * State-file text → validated LoopState with defaults. Pure; throws LoopError naming file, field, line.
 * `parsed`: the text's frontmatter when the caller has it already (one parse per Stop).
 */
export function parseState(text: string, file?: string, parsed = parseFrontmatter(text, file)): LoopState {
  const { written, mistyped } = checkFields(text, parsed, file);
  const body = parsed.split.body;
  // The goal is what the loop works on: an emptied one stops the loop, as a bad field does (docs/REFERENCE.md
  // "The state file").
  if (!body.trim()) {
    throw new LoopError("STATE_NO_GOAL", "nothing is written below the closing ---", {
      file,
      field: "goal",
      line: lineAt(text, text.length - body.length - 1),
      expected: 'what the loop should do, e.g. "Fix the failing tests in test/auth.test.ts"',
    });
  }
  return Object.assign(readFields(parsed.data), { written, mistyped, body });
}

/** A loop's fields as the field table reads them (src/core/fields.ts: durations in seconds); the goal is the body. */
export interface LoopState extends FieldValues {
  /** The fields the file sets, as the person wrote them: what a restart gives back (`2h` stays `2h`). */
  written: WrittenFields;
  /** Keys the file sets that are no field but read like one (`max_iteration`): they do nothing. */
  mistyped: MistypedField[];
  /** The goal: everything after the closing `---`, exactly as written. */
  body: string;
}
