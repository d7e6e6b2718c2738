// Writes the field tables made from src/core/fields.ts: docs/REFERENCE.md's (every field) and the README's (the
// fields most people set): `npm run docs:fields`. test/unit/fields.test.ts fails until they match.
import { readFileSync, writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { renderCommonFieldTable, renderFieldTable } from "../src/core/renderFields.js";

export const REFERENCE = fileURLToPath(new URL("../docs/REFERENCE.md", import.meta.url));
export const README = fileURLToPath(new URL("../README.md", import.meta.url));

/** The text with its table (from its header line to the first blank line) made afresh. */
export function spliceTable(text: string, table: string, file: string): string {
  const header = table.slice(0, table.indexOf("\n"));
  const start = text.indexOf(header);
  if (start < 0) throw new Error(`${file} has no field table (a line "${header}")`);
  const end = text.indexOf("\n\n", start);
  return text.slice(0, start) + table + (end < 0 ? "\n" : text.slice(end));
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  writeFileSync(REFERENCE, spliceTable(readFileSync(REFERENCE, "utf8"), renderFieldTable(), "docs/REFERENCE.md"));
  writeFileSync(README, spliceTable(readFileSync(README, "utf8"), renderCommonFieldTable(), "README.md"));
}
