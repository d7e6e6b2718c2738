import matter from "gray-matter";
import { LoopError } from "./errors.js";
import { findClosingLine, findOpeningLine } from "./frontmatterLines.js";

/** Where the frontmatter sits inside the original text, so updates can splice bytes in place. */
export interface FrontmatterSplit {
  /** Length of a leading UTF-8 BOM (0 or 1 UTF-16 unit). */
  bomLength: number;
  /** Offset of the YAML text (just after the opening `---`). */
  yamlStart: number;
  /** The YAML text between the delimiters (starts with the opening line break). */
  yaml: string;
  /** The goal: the text after the closing delimiter line. */
  body: string;
  newline: "\n" | "\r\n";
}

// gray-matter runs our YAML parser itself; this engine just hands the raw block back.
const passThrough = { parse: () => ({}), stringify: () => "" };

/** Where gray-matter ends the block: the offset of its closing line break. */
function cutByGrayMatter(source: string): number {
  const cut = matter(source, { engines: { yaml: passThrough } }).matter;
  return 3 + (cut.endsWith("\r") ? cut.length - 1 : cut.length);
}

/** Finds the `---` … `---` block. Throws LoopError for files that have none or never close it. */
export function splitFrontmatter(text: string, file?: string): FrontmatterSplit {
  const bomLength = text.charCodeAt(0) === 0xfeff ? 1 : 0;
  const source = text.slice(bomLength);
  // Step 1: the opening line must be exactly `---` (gray-matter would accept `---yaml`).
  const opening = findOpeningLine(source);
  if (!opening) {
    throw new LoopError("STATE_NO_FRONTMATTER", "the file does not start with a frontmatter block", {
      file,
      line: 1,
      expected: 'a first line "---", then fields such as "max_iterations: 10", then a line "---", then the goal',
      received: JSON.stringify(source.split(/\r?\n/, 1)[0]?.slice(0, 40) ?? ""),
    });
  }
  // Step 2: the closing line must be exactly `---` too (gray-matter takes any `\n---` prefix). From
  // the opening line's break (its "\r" for CRLF), so an empty CRLF block "---\r\n---" closes too.
  const closing = findClosingLine(source, opening.end);
  if (!closing) {
    throw new LoopError("STATE_UNCLOSED_FRONTMATTER", "the frontmatter block is never closed", {
      file,
      expected: 'a line "---" after the last field, before the goal',
    });
  }
  // Step 3: gray-matter's looser rule (any line starting with `---`) may cut earlier than the exact
  // closing line; such a file is ambiguous, so it is refused. Only a block with an inner `---` line
  // can differ, so only then is gray-matter loaded (it costs a Stop about 1 ms, docs/ARCHITECTURE.md).
  const yaml = source.slice(3, closing.start);
  const cut = yaml.includes("\n---") ? cutByGrayMatter(source) : closing.start;
  if (cut !== closing.start) {
    const line = source.slice(0, cut).split("\n").length + 1;
    throw new LoopError("STATE_BAD_YAML", "a line inside the frontmatter starts with --- but is not the closing line", {
      file,
      line,
      expected: 'the closing line to be exactly "---"',
    });
  }
  // The body is cut by hand: gray-matter keeps trailing blanks of the closing line in it.
  return { bomLength, yamlStart: bomLength + 3, yaml, body: source.slice(closing.end), newline: opening.newline };
}
