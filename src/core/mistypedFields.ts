// A key the state file sets that is no field is kept as written (docs/REFERENCE.md "The state file") and does
// nothing; when it reads like a field (`max_iteration`, `maxCost`, `max-cost`, `max_cost_usd`), the person most
// likely meant that field, and a limit they set is not in force. Pure.
import { FIELD_NAMES, FIELDS, type FieldName } from "./fields.js";
import { readMeantName } from "./readMeantName.js";

/** A key of the state file that is no field, the field it reads like, and its line. */
export interface MistypedField {
  key: string;
  field: FieldName;
  line: number | undefined;
}

/** The field a key that is no field reads like (`readMeantName`), or undefined. */
export const readMeantField = (key: string): FieldName | undefined => readMeantName(key, FIELD_NAMES);

/** One line per mistyped key: where it is, that it does nothing, and the field meant with an example. */
export function renderMistyped(mistyped: MistypedField[], shown: string): string[] {
  return mistyped.map(
    ({ key, field, line }) =>
      `${shown}${line === undefined ? "" : ` line ${line}`}: ${key} is not a field, so it does nothing. Did you mean ${field} (e.g. ${FIELDS[field].example})?`,
  );
}

/** The keys in one status row: "ignored, not fields: maxCost on line 5 (max_cost?) · …". */
export function renderMistypedRow(mistyped: MistypedField[]): string {
  const keys = mistyped.map(
    ({ key, field, line }) => `${key}${line === undefined ? "" : ` on line ${line}`} (${field}?)`,
  );
  return `ignored, not fields: ${keys.join(" · ")}`;
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
