/** Lower-case and fold runs of whitespace, so "All  tests\nPASSING" matches "all tests passing". */
export function normalizeText(text: string): string {
  return text.replace(/\s+/g, " ").trim().toLowerCase();
}

// `(?:.|[\n\r\u2028\u2029])` is any character, line breaks included, as `[\s\S]` is: under the `i` flag V8
// builds the case closure of a whole-Unicode class through ICU at the regex's first use, a cost every Stop
// would pay (docs/PERFORMANCE.md). The two halves are disjoint, so a tag never closed cannot backtrack long.
const PROMISE_TAG = /<promise>((?:.|[\n\r\u2028\u2029])*?)<\/promise>/gi;
const PAUSE_TAG = /<loop-pause>((?:.|[\n\r\u2028\u2029])*?)<\/loop-pause>/i;

/** A phrase written in its own tags (`<promise>DONE</promise>`) means, under `tag`, the text inside them. */
const WRAPPED = /^\s*<promise>((?:.|[\n\r\u2028\u2029])*)<\/promise>\s*$/i;
const unwrapPromise = (phrase: string) => WRAPPED.exec(phrase)?.[1] ?? phrase;

/** A phrase as Claude and the person are shown it: inside its tags under `tag`, quoted otherwise. */
export function renderPromisePhrase(phrase: string, format: "substring" | "tag"): string {
  return format === "tag" ? `<promise>${unwrapPromise(phrase)}</promise>` : `"${phrase}"`;
}

/** The inner texts of every <promise>…</promise> in a reply. */
function extractPromiseTags(reply: string): string[] {
  return [...reply.matchAll(PROMISE_TAG)].map((m) => m[1] ?? "");
}

/**
 * The question of a `<loop-pause>QUESTION</loop-pause>` in the reply (docs/REFERENCE.md "Pausing"), whitespace
 * folded; "" for an empty tag; undefined when the reply asks nothing.
 */
export function parsePauseRequest(reply: string): string | undefined {
  const match = PAUSE_TAG.exec(reply);
  return match ? (match[1] ?? "").replace(/\s+/g, " ").trim() : undefined;
}

/**
 * The first promise phrase the reply carries, or undefined.
 * substring: anywhere in the reply; tag: the whole inner text of a <promise> tag.
 */
export function matchPromise(
  reply: string,
  phrases: readonly string[],
  format: "substring" | "tag",
): string | undefined {
  if (phrases.length === 0 || !reply) return undefined;
  if (format === "tag") {
    const inner = new Set(extractPromiseTags(reply).map(normalizeText));
    return phrases.find((phrase) => inner.has(normalizeText(unwrapPromise(phrase))));
  }
  const haystack = normalizeText(reply);
  return phrases.find((phrase) => {
    const needle = normalizeText(phrase);
    return needle !== "" && haystack.includes(needle);
  });
}
