import { isAlias, isMap, isScalar, parseDocument, visit, type Document } from "yaml";
import { LoopError, renderReceived } from "./errors.js";
import { readSimpleFrontmatter, type SimpleField } from "./simpleFrontmatter.js";
import { splitFrontmatter, type FrontmatterSplit } from "./splitFrontmatter.js";

/** Aliases beyond this are refused: a "billion laughs" file must not hang the hook. */
const MAX_ALIASES = 100;

export interface ParsedFrontmatter {
  split: FrontmatterSplit;
  /** yaml's document; undefined when the block was simple enough for readSimpleFrontmatter. */
  doc: Document | undefined;
  /** Where each field sits, when readSimpleFrontmatter read the block. */
  fields: SimpleField[] | undefined;
  data: Record<string, unknown>;
  /** Offset in the whole text of a top-level key, for messages. */
  keyOffset(key: string): number | undefined;
}

/** 1-based line number of an offset in the whole file. */
export function lineAt(text: string, offset: number): number {
  let line = 1;
  for (let i = text.indexOf("\n"); i !== -1 && i < offset; i = text.indexOf("\n", i + 1)) line++;
  return line;
}

/** Where the first of two characters is in `text`, or -1 (two indexOf calls: no regular expression to compile). */
function firstOf(text: string, a: string, b: string): number {
  const at = text.indexOf(a);
  const bt = text.indexOf(b);
  return at === -1 ? bt : bt === -1 ? at : Math.min(at, bt);
}

/** Text → YAML document and plain data. Throws LoopError on anything that is not a frontmatter mapping. */
export function parseFrontmatter(text: string, file?: string): ParsedFrontmatter {
  const bad = firstOf(text, "\u0000", "\uFFFD");
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
  if (simple) {
    const keyOffset = (key: string) => {
      const field = simple.fields.find((f) => f.key === key);
      return field && split.yamlStart + field.keyStart;
    };
    return { split, doc: undefined, fields: simple.fields, data: simple.data, keyOffset };
  }
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
  const keyOffset = (key: string) => {
    const pair = isMap(doc.contents)
      ? doc.contents.items.find((item) => isScalar(item.key) && item.key.value === key)
      : undefined;
    const start = isScalar(pair?.key) ? pair.key.range?.[0] : undefined;
    return start === undefined ? undefined : split.yamlStart + start;
  };
  return { split, doc, fields: undefined, data: data as Record<string, unknown>, keyOffset };
}
