// Writes docs/REFERENCE.md's field table from the field table in src/core/fields.ts: `npm run docs:fields`.
// test/unit/fields.test.ts fails until the two match.
import { readFileSync, writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { renderFieldTable } from "../src/core/renderStart.js";

const HEADER = "| field | type, default | meaning | example |";
export const REFERENCE = fileURLToPath(new URL("../docs/REFERENCE.md", import.meta.url));

/** The reference's text with its field table (from the header to the first blank line) made afresh. */
export function spliceFieldTable(reference: string): string {
  const start = reference.indexOf(HEADER);
  if (start < 0) throw new Error(`docs/REFERENCE.md has no field table (a line "${HEADER}")`);
  const end = reference.indexOf("\n\n", start);
  return reference.slice(0, start) + renderFieldTable() + (end < 0 ? "\n" : reference.slice(end));
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  writeFileSync(REFERENCE, spliceFieldTable(readFileSync(REFERENCE, "utf8")));
}
