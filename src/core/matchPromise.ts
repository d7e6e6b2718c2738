/** Lower-case and fold runs of whitespace, so "All  tests\nPASSING" matches "all tests passing". */
export function normalizeText(text: string): string {
  return text.replace(/\s+/g, " ").trim().toLowerCase();
}

/** The inner texts of every <promise>…</promise> in a reply. */
function extractPromiseTags(reply: string): string[] {
  return [...reply.matchAll(/<promise>([\s\S]*?)<\/promise>/gi)].map((m) => m[1] ?? "");
}

/**
 * The question of a `<loop-pause>QUESTION</loop-pause>` in the reply (docs/REFERENCE.md "Pausing"), whitespace
 * folded; "" for an empty tag; undefined when the reply asks nothing.
 */
export function parsePauseRequest(reply: string): string | undefined {
  const match = /<loop-pause>([\s\S]*?)<\/loop-pause>/i.exec(reply);
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
    return phrases.find((phrase) => inner.has(normalizeText(phrase)));
  }
  const haystack = normalizeText(reply);
  return phrases.find((phrase) => {
    const needle = normalizeText(phrase);
    return needle !== "" && haystack.includes(needle);
  });
}
