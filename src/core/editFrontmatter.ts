import { isMap, isScalar, type Pair } from "yaml";
import { LoopError } from "./errors.js";
import { parseFrontmatter } from "./parseFrontmatter.js";

/** A value rendered as one line of YAML: JSON is valid YAML, and keeps strings quoted safely. */
function renderValue(value: unknown): string {
  return typeof value === "number" || typeof value === "boolean" ? String(value) : JSON.stringify(value);
}

/** Back over trailing line breaks and blanks, so a replaced block keeps the line break after it. */
function trimEnd(text: string, end: number): number {
  while (end > 0 && /[\s]/.test(text[end - 1] ?? "")) end--;
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
  const { split, doc, fields } = parsed;
  if (doc && isMap(doc.contents) && doc.contents.flow) {
    // `{a: 1}` style frontmatter has no lines to splice into: let the yaml Document re-render it.
    for (const [key, value] of Object.entries(updates)) doc.set(key, value);
    const yaml = `${split.newline}${doc.toString().trimEnd()}`;
    return checked(
      text.slice(0, split.yamlStart) + yaml + text.slice(split.yamlStart + split.yaml.length),
      updates,
      file,
    );
  }
  const items: Pair[] = doc && isMap(doc.contents) ? (doc.contents.items as Pair[]) : [];
  const base = split.yamlStart;
  const splices: Splice[] = [];
  const appended: string[] = [];
  for (const [key, update] of Object.entries(updates)) {
    const rendered = renderValue(update);
    // Read by readSimpleFrontmatter: one value on the key's line.
    const simple = fields?.find((f) => f.key === key);
    if (simple) {
      splices.push({ start: base + simple.valueStart, end: base + simple.valueEnd, text: rendered });
      continue;
    }
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
      const colon = text.indexOf(":", base + pair.key.range[1]);
      splices.push({
        start: colon + 1,
        end: range && range[1] > range[0] ? trimEnd(text, base + range[1]) : colon + 1,
        text: ` ${rendered}`,
      });
    } else if (range) {
      splices.push({ start: base + range[0], end: trimEnd(text, base + range[1]), text: rendered });
    } else {
      appended.push(`${key}: ${rendered}${split.newline}`);
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
  return checked(out, updates, file);
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
