import { LoopError } from "./errors.js";

export const isSpace = (ch: string | undefined) => ch !== undefined && /\s/.test(ch);

/** Reads one value word at `pos`: "double" (\" and \\ escapes), 'single' (literal), or bare up to whitespace. */
export function parseWord(line: string, pos: number, flag: string, command: string): { value: string; end: number } {
  const quote = line[pos];
  if (quote === '"' || quote === "'") {
    let value = "";
    for (let i = pos + 1; i < line.length; i++) {
      const ch = line[i] as string;
      if (ch === quote) {
        if (i + 1 < line.length && !isSpace(line[i + 1])) {
          throw new LoopError("USAGE", "a quoted value must be followed by a space", {
            file: command,
            field: flag,
            expected: `a space after the closing ${quote}`,
          });
        }
        return { value, end: i + 1 };
      }
      if (quote === '"' && ch === "\\" && (line[i + 1] === '"' || line[i + 1] === "\\")) {
        value += line[++i];
        continue;
      }
      value += ch;
    }
    throw new LoopError("USAGE", `the value opens a quote (${quote}) that is never closed`, {
      file: command,
      field: flag,
      expected: `a closing ${quote}`,
    });
  }
  let end = pos;
  while (end < line.length && !isSpace(line[end])) end++;
  return { value: line.slice(pos, end), end };
}
