/** The loop's private files: never committed. */
const GITIGNORE_HEADER = "# continuation-loop: the running loop's state and history";
export const GITIGNORE_ENTRIES = [
  ".claude/continuation-loop*.local.md",
  ".claude/continuation-loop*.local.md.lock",
  ".claude/continuation-loop*.runtime.json",
  // A torn sidecar kept aside (docs/REFERENCE.md "Files the loop keeps").
  ".claude/continuation-loop*.runtime.json.torn",
  ".claude/continuation-loop.clear-*.json",
  ".claude/continuation-loop.history.jsonl",
  // A writer's temp file, there for milliseconds; one left by a killed hook is swept later (docs/REFERENCE.md "Files the loop keeps").
  ".claude/.continuation-loop*.tmp",
];

export interface GitignoreRecord {
  created: boolean;
  /** The exact text appended to the end of the file. */
  block: string;
  lines: string[];
}

const linesOf = (text: string) => new Set(text.split(/\r?\n/).map((l) => l.trim()));

/** Appends the entries that are missing (with a header); unchanged text when all are there. */
export function addGitignoreLines(text: string | undefined): { text: string; record: GitignoreRecord | undefined } {
  const current = text ?? "";
  const present = linesOf(current);
  const missing = GITIGNORE_ENTRIES.filter((line) => !present.has(line));
  if (missing.length === 0) return { text: current, record: undefined };
  const lines = [GITIGNORE_HEADER, ...missing];
  const eol = current.includes("\r\n") ? "\r\n" : "\n";
  const lead = current === "" || current.endsWith("\n") ? "" : eol;
  const block = `${lead}${lines.join(eol)}${eol}`;
  return { text: current + block, record: { created: text === undefined, block, lines } };
}

/** Undoes addGitignoreLines: cuts the block when it is still the file's end, else removes each line once. */
export function removeGitignoreLines(text: string, record: GitignoreRecord): string {
  if (text.endsWith(record.block)) return text.slice(0, text.length - record.block.length);
  const lines = text.split(/(?<=\n)/);
  for (const entry of record.lines) {
    const at = lines.findIndex((l) => l.replace(/\r?\n$/, "") === entry);
    if (at >= 0) lines.splice(at, 1);
  }
  return lines.join("");
}
