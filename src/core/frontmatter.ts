// The state file's frontmatter, through the product's packages: gray-matter splits the block from
// the goal, yaml parses it (its node ranges are what an edit splices into), and an edit splices
// only the bytes of the values it changes, so the user's comments, order and body stay as written.
import matter from "gray-matter";
import {
  isAlias,
  isCollection,
  isMap,
  isNode,
  isPair,
  isScalar,
  type Document,
  type Node,
  type Pair,
  parseDocument,
  visit,
} from "yaml";
import { LoopError, renderReceived } from "./errors.js";
import { readUtf16Order, renderUtf16 } from "./textEncoding.js";

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

// gray-matter cuts the block; yaml parses it (below), so this engine only hands the raw block back.
const passThrough = { parse: () => ({}), stringify: () => "" };

/** The opening line: exactly `---`, blanks allowed after it (gray-matter would take `---yaml` as a language). */
const OPENING = /^---[ \t]*(\r?\n)/;
/** What may follow the closing `---` on its line: blanks, then the line's end. */
const CLOSING_REST = /^[ \t]*(\r?\n|$)/;

/**
 * Finds the `---` … `---` block with gray-matter, in offsets of the original text. Throws LoopError
 * for a file that has none, never closes it, or has a line inside it that starts with `---` (where
 * gray-matter ends the block) but is not exactly `---`.
 */
export function splitFrontmatter(text: string, file?: string): FrontmatterSplit {
  const bomLength = text.charCodeAt(0) === 0xfeff ? 1 : 0;
  const source = text.slice(bomLength);
  const opening = OPENING.exec(source);
  if (!opening) {
    throw new LoopError("STATE_NO_FRONTMATTER", "the file does not start with a frontmatter block", {
      file,
      line: 1,
      expected: 'a first line "---", then fields such as "max_iterations: 10", then a line "---", then the goal',
      received: JSON.stringify(source.split(/\r?\n/, 1)[0]?.slice(0, 40) ?? ""),
    });
  }
  // gray-matter's block runs from after the opening `---` to the line break before the next line
  // that starts with `---`; the whole rest of the file when there is none.
  const block = matter(source, { engines: { yaml: passThrough } }).matter;
  const closingAt = 3 + block.length; // the "\n" before the closing line
  if (closingAt >= source.length) {
    throw new LoopError("STATE_UNCLOSED_FRONTMATTER", "the frontmatter block is never closed", {
      file,
      expected: 'a line "---" after the last field, before the goal',
    });
  }
  const rest = CLOSING_REST.exec(source.slice(closingAt + 4));
  if (!rest) {
    throw new LoopError("STATE_BAD_YAML", "a line inside the frontmatter starts with --- but is not the closing line", {
      file,
      line: source.slice(0, closingAt).split("\n").length + 1,
      expected: 'the closing line to be exactly "---"',
    });
  }
  // The YAML ends before a CRLF's "\r"; the body starts after the closing line's own line break.
  const yaml = block.endsWith("\r") ? block.slice(0, -1) : block;
  const bodyStart = closingAt + 4 + rest[0].length;
  const newline = opening[1] === "\r\n" ? "\r\n" : "\n";
  return { bomLength, yamlStart: bomLength + 3, yaml, body: source.slice(bodyStart), newline };
}

/** Aliases beyond this are refused: a "billion laughs" file must not hang the hook. */
const MAX_ALIASES = 100;

/**
 * Values nested deeper than this are refused. yaml refuses what passes its stack (its reason is the engine's own
 * words), but how deep that is depends on how far V8 has compiled the parser (1,400 levels of indentation: refused
 * by a fresh process, read by a warm one), so the limit is our own, far past any field's shape, short of the stack.
 */
const MAX_DEPTH = 100;

/** The first value nested deeper than MAX_DEPTH, walked without recursion, or undefined. */
function findTooDeep(doc: Document): Node | undefined {
  const open: [unknown, number][] = [[doc.contents, 0]];
  for (let next = open.pop(); next !== undefined; next = open.pop()) {
    const [node, depth] = next;
    if (!isCollection(node)) continue;
    if (depth > MAX_DEPTH) return node;
    for (const item of node.items) {
      if (isPair(item)) open.push([item.key, depth + 1], [item.value, depth + 1]);
      else open.push([item, depth + 1]);
    }
  }
  return undefined;
}

export interface ParsedFrontmatter {
  split: FrontmatterSplit;
  doc: Document;
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

/** yaml's codes for a quote, `[` or `{` opened and never closed: it notices where the value ends, lines later. */
const UNCLOSED = new Set(["BAD_INDENT", "MISSING_CHAR"]);

/**
 * Where to point a person at a YAML error: yaml's own offset, or for a construct never closed the field whose
 * value it opened (an edit of that line is the mistake; the next line is only where yaml noticed).
 */
function locateYamlError(doc: Document, code: string, at: number): { at: number; field?: string } {
  if (!UNCLOSED.has(code) || !isMap(doc.contents)) return { at };
  for (const pair of doc.contents.items) {
    const { key, value } = pair;
    if (!isScalar(key) || !isNode(value) || !key.range || !value.range) continue;
    if (key.range[0] <= at && at <= value.range[1]) return { at: key.range[0], field: String(key.value) };
  }
  return { at };
}

/** Text → YAML document and plain data. Throws LoopError on anything that is not a frontmatter mapping. */
export function parseFrontmatter(text: string, file?: string): ParsedFrontmatter {
  const bad = text.search(/[\u0000\uFFFD]/);
  if (bad !== -1) {
    const utf16 = readUtf16Order(text);
    if (utf16) {
      throw new LoopError("STATE_NOT_TEXT", `the file is UTF-16 ${utf16} text, not UTF-8`, {
        file,
        line: 1,
        expected: `a UTF-8 Markdown file: save it again as UTF-8 (Notepad: File > Save as, Encoding "UTF-8"; or iconv -f UTF-16 -t UTF-8)`,
        received: renderUtf16(utf16),
      });
    }
    const what = text[bad] === "\u0000" ? "a NUL byte" : "bytes that are not UTF-8 (Latin-1 or binary data?)";
    throw new LoopError("STATE_NOT_TEXT", "the file is not UTF-8 text", {
      file,
      line: lineAt(text, bad),
      expected: "a UTF-8 Markdown file",
      received: what,
    });
  }
  const split = splitFrontmatter(text, file);
  // logLevel "error": yaml's warnings (e.g. a list used as a key) would land on the hook's stderr.
  // uniqueKeys off: yaml checks it in quadratic time (minutes for 1 MiB of short keys); see below.
  const doc = parseDocument(split.yaml, { uniqueKeys: false, prettyErrors: false, logLevel: "error" });
  const error = doc.errors[0];
  const tooDeep = error?.code === "RESOURCE_EXHAUSTION" ? error.pos[0] : findTooDeep(doc)?.range?.[0];
  if (tooDeep !== undefined) {
    throw new LoopError("STATE_BAD_YAML", "the frontmatter's values are nested too deep", {
      file,
      line: lineAt(text, split.yamlStart + tooDeep),
      expected: `at most ${MAX_DEPTH} levels of [, { or indentation inside one another`,
      received: "values nested too deep to be read ([ or { inside one another, or deeper and deeper indentation)",
    });
  }
  if (error) {
    const { at, field } = locateYamlError(doc, error.code, error.pos[0]);
    throw new LoopError("STATE_BAD_YAML", `the frontmatter is not valid YAML (${error.code})`, {
      file,
      line: lineAt(text, split.yamlStart + at),
      ...(field !== undefined && { field }),
      expected: 'one "field: value" per line, e.g. "max_iterations: 10"',
      // yaml's reason is one sentence whose end says what is missing ("…and end with a ]"): kept whole.
      received: renderReceived(error.message.split("\n")[0], 160),
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
        Alias: (_key, node) => {
          if (!isAlias(node) || node.source !== name) return undefined;
          at = node.range?.[0];
          return visit.BREAK;
        },
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
  return { split, doc, data: data as Record<string, unknown>, keyOffset };
}

/** A value rendered as one line of YAML: JSON is valid YAML, and keeps strings quoted safely. */
function renderValue(value: unknown): string {
  return typeof value === "number" || typeof value === "boolean" ? String(value) : JSON.stringify(value);
}

/** Back over trailing line breaks and blanks, so a replaced block keeps the line break after it. */
function trimEnd(text: string, end: number): number {
  while (end > 0 && /\s/.test(text[end - 1] ?? "")) end--;
  return end;
}

interface Splice {
  start: number;
  end: number;
  text: string;
}

/**
 * Sets top-level frontmatter fields by splicing only their value bytes, so comments, key order,
 * quoting, unknown keys and the body stay exactly as the user wrote them. New keys are appended
 * as the last frontmatter line. Pure: text in, text out. `parsed`: the text's frontmatter when the
 * caller has it already; it is used up (a flow-style block's yaml document is changed in place).
 */
export function editFrontmatter(
  text: string,
  updates: Record<string, unknown>,
  file?: string,
  parsed = parseFrontmatter(text, file),
): string {
  const { split, doc } = parsed;
  if (isMap(doc.contents) && doc.contents.flow) {
    // `{a: 1}` style frontmatter has no lines to splice into: let the yaml Document re-render it.
    for (const [key, value] of Object.entries(updates)) doc.set(key, value);
    const yaml = `${split.newline}${doc.toString().trimEnd()}`;
    return checked(
      text.slice(0, split.yamlStart) + yaml + text.slice(split.yamlStart + split.yaml.length),
      updates,
      file,
    );
  }
  const items: Pair[] = isMap(doc.contents) ? (doc.contents.items as Pair[]) : [];
  const base = split.yamlStart;
  const splices: Splice[] = [];
  const appended: string[] = [];
  // A number or true/false put in place of an untagged scalar reads back as itself, whatever the
  // file around it: only edits beyond that (an ordinary Stop's count is not one) are parsed again.
  let readBack = false;
  for (const [key, update] of Object.entries(updates)) {
    const rendered = renderValue(update);
    const pair = items.find((item) => isScalar(item.key) && item.key.value === key);
    const value = pair?.value as
      | { range?: [number, number, number]; flow?: boolean; items?: unknown }
      | null
      | undefined;
    const range = value?.range;
    if (
      pair &&
      isScalar(pair.key) &&
      pair.key.range &&
      (!range || range[1] <= range[0] || (value?.items && !value.flow))
    ) {
      // `key:` with no value, or a block list/map under it: the new value goes right after the colon.
      readBack = true;
      const colon = text.indexOf(":", base + pair.key.range[1]);
      splices.push({
        start: colon + 1,
        end: range && range[1] > range[0] ? trimEnd(text, base + range[1]) : colon + 1,
        text: ` ${rendered}`,
      });
    } else if (range) {
      splices.push({ start: base + range[0], end: trimEnd(text, base + range[1]), text: rendered });
      const plain = typeof update === "number" || typeof update === "boolean";
      if (!plain || !isScalar(pair?.value) || pair.value.tag) readBack = true;
    } else {
      appended.push(`${key}: ${rendered}${split.newline}`);
      readBack = true;
    }
  }
  if (appended.length > 0) {
    // The YAML block ends just before the line break that precedes the closing `---`.
    const end = base + split.yaml.length;
    splices.push({ start: end, end, text: `${split.newline}${appended.join("").slice(0, -split.newline.length)}` });
  }
  // Right to left, so offsets stay valid; at the same offset the appended lines go in first and end up last.
  const ordered = splices.map((s, order) => ({ ...s, order })).sort((a, b) => b.start - a.start || b.order - a.order);
  let out = text;
  for (const s of ordered) out = out.slice(0, s.start) + s.text + out.slice(s.end);
  return readBack ? checked(out, updates, file) : out;
}

/** Never hand back a file that does not read back as intended. */
function checked(out: string, updates: Record<string, unknown>, file?: string): string {
  const { data } = parseFrontmatter(out, file);
  for (const [key, value] of Object.entries(updates)) {
    if (JSON.stringify(data[key]) !== JSON.stringify(value)) {
      throw new LoopError("STATE_UNWRITABLE", "the update could not be written without disturbing the file", {
        file,
        field: key,
        expected: 'a frontmatter of plain "field: value" lines',
      });
    }
  }
  return out;
}
