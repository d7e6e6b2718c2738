// The field table rendered for people: docs/REFERENCE.md's table of every field, the README's table of the
// common ones, and each flag's `--help` line (`npm run docs:fields` writes the two tables).
import { FIELD_NAMES, FIELDS, type FieldName, specOf } from "./fields.js";

/** A field's default as a person would write it (`10`, `5m`, `true`); undefined when it has none (an empty list is none). */
function defaultOf(field: FieldName): string | undefined {
  const fallback = specOf(field).default;
  return fallback === undefined || (Array.isArray(fallback) && fallback.length === 0) ? undefined : String(fallback);
}
/** docs/REFERENCE.md's "type, default": "int 1–10000, `10`", "USD, none", "ISO-8601, set by the loop". */
function typeOf(field: FieldName): string {
  const { type, setByLoop } = specOf(field);
  const fallback = defaultOf(field);
  if (fallback !== undefined) return `${type}, \`${fallback}\``;
  return `${type}, ${setByLoop ? "set by the loop" : "none"}`;
}
/** `--help`'s and the README's line: "most turns in the loop, the first one counted (default 10)". */
export function summaryOf(field: FieldName): string {
  const fallback = defaultOf(field);
  return `${specOf(field).summary}${fallback === undefined ? "" : ` (default ${fallback})`}`;
}
/** The fields most people set, in table order: the README's field table. */
const COMMON_FIELDS = FIELD_NAMES.filter((field) => specOf(field).common === true);

/** docs/REFERENCE.md's field table, made from FIELDS (test/unit/fields.test.ts compares the two). */
export function renderFieldTable(): string {
  const rows = FIELD_NAMES.map(
    (field) => `| \`${field}\` | ${typeOf(field)} | ${FIELDS[field].meaning} | \`${FIELDS[field].example}\` |`,
  );
  return ["| field | type, default | meaning | example |", "|---|---|---|---|", ...rows].join("\n");
}

/** The README's table of the fields most people set, made from FIELDS (test/unit/fields.test.ts compares the two). */
export function renderCommonFieldTable(): string {
  const rows = COMMON_FIELDS.map((field) => `| \`${field}\` | \`${FIELDS[field].example}\` | ${summaryOf(field)} |`);
  return ["| field | example | what it does |", "|---|---|---|", ...rows].join("\n");
}
