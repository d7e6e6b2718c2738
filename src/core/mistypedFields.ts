// A key the state file sets that is no field is kept as written (docs/REFERENCE.md "The state file") and does
// nothing; when it reads like a field (`max_iteration`, `maxCost`, `max-cost`, `max_cost_usd`), the person most
// likely meant that field, and a limit they set is not in force. Pure.
import { exampleOf, FIELD_NAMES, type FieldName } from "./fields.js";

/** A key of the state file that is no field, the field it reads like, and its line. */
export interface MistypedField {
  key: string;
  field: FieldName;
  line: number | undefined;
}

/** Edits (insert, delete, replace) from `a` to `b`, or `limit` once there are that many. */
function countEdits(a: string, b: string, limit: number): number {
  if (Math.abs(a.length - b.length) >= limit) return limit;
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    for (let j = 1; j <= b.length; j++)
      row[j] = Math.min(
        (previous[j] ?? 0) + 1,
        (row[j - 1] ?? 0) + 1,
        (previous[j - 1] ?? 0) + (a[i - 1] === b[j - 1] ? 0 : 1),
      );
    previous = row;
  }
  return Math.min(previous[b.length] ?? limit, limit);
}

/**
 * The field a key that is no field reads like, or undefined: the same name in another spelling (`maxCost`,
 * `max-cost`), a letter or two off (`max_iteration`), or a field's name with more after it (`max_cost_usd`)
 * or the start of one (`notes` for `notes_file`).
 */
export function readMeantField(key: string): FieldName | undefined {
  const plain = key
    .replace(/([a-z0-9])([A-Z])/g, "$1_$2")
    .toLowerCase()
    .replace(/-/g, "_");
  let meant: FieldName | undefined;
  // One letter off for a short key, two for a longer one: `nope` is not `scope`.
  let fewest = plain.length <= 5 ? 2 : 3;
  for (const field of FIELD_NAMES) {
    const edits = countEdits(plain, field, fewest);
    if (edits < fewest) [meant, fewest] = [field, edits];
  }
  if (meant !== undefined || plain.length < 5) return meant;
  return FIELD_NAMES.find((field) => plain.startsWith(`${field}_`) || field.startsWith(plain));
}

/** One line per mistyped key: where it is, that it does nothing, and the field meant with an example. */
export function renderMistyped(mistyped: MistypedField[], shown: string): string[] {
  return mistyped.map(
    ({ key, field, line }) =>
      `${shown}${line === undefined ? "" : ` line ${line}`}: ${key} is not a field, so it does nothing. Did you mean ${field} (e.g. ${exampleOf(field)})?`,
  );
}

/** The keys in one status row: "ignored, not fields: maxCost on line 5 (max_cost?) · …"; "" when there are none. */
export function renderMistypedRow(mistyped: MistypedField[]): string {
  const keys = mistyped.map(
    ({ key, field, line }) => `${key}${line === undefined ? "" : ` on line ${line}`} (${field}?)`,
  );
  return keys.length ? `ignored, not fields: ${keys.join(" · ")}` : "";
}

/**
 * What a Stop that continues tells the person of mistyped keys: once for each set of them (`told`: the set told
 * last, which the sidecar keeps), so a hand edit mid-loop that misspells a limit is said at the next Stop, and
 * not at every one after.
 */
export function decideMistypedNotice(
  mistyped: MistypedField[],
  shown: string,
  told: string,
): { notice?: string; told: string } {
  const keys = mistyped.map((m) => m.key).join(",");
  if (keys === told || !keys) return { told: keys };
  const lines = renderMistyped(mistyped, shown).map((line) => `continuation-loop: ${line}`);
  return { notice: lines.join("\n"), told: keys };
}
