import { clipToChars } from "./cellWidth.js";

/** Lower-case and fold runs of whitespace, so "All  tests\nPASSING" matches "all tests passing". */
export function normalizeText(text: string): string {
  return text.replace(/\s+/g, " ").trim().toLowerCase();
}

// A tag is found as two literal searches, never as one regex with a lazy body: tried at each of many openings
// never closed, such a regex scans to the reply's end from every one of them (quadratic in the reply).
const PROMISE_OPEN = /<promise>/gi;
const PROMISE_CLOSE = /<\/promise>/gi;
const PAUSE_OPEN = /<loop-pause>/gi;
const PAUSE_CLOSE = /<\/loop-pause>/gi;

/**
 * The first tag from `from` that is closed: its inner text up to the nearest closing, and where it ends. When the first
 * opening is never closed no later one is, so the search stops there.
 */
function findTag(text: string, open: RegExp, close: RegExp, from: number): { inner: string; end: number } | undefined {
  open.lastIndex = from;
  const opening = open.exec(text);
  if (!opening) return undefined;
  const start = opening.index + opening[0].length;
  close.lastIndex = start;
  const closing = close.exec(text);
  if (!closing) return undefined;
  return { inner: text.slice(start, closing.index), end: close.lastIndex };
}

/** A phrase written in its own tags (`<promise>DONE</promise>`) means, under `tag`, the text inside them. */
const WRAPPED = /^\s*<promise>((?:.|[\n\r\u2028\u2029])*)<\/promise>\s*$/i;
const unwrapPromise = (phrase: string) => WRAPPED.exec(phrase)?.[1] ?? phrase;

/** A phrase as Claude and the person are shown it: inside its tags under `tag`, quoted otherwise. */
export function renderPromisePhrase(phrase: string, format: "substring" | "tag"): string {
  return format === "tag" ? `<promise>${unwrapPromise(phrase)}</promise>` : `"${phrase}"`;
}

/** The inner texts of every <promise>…</promise> in a reply. */
function extractPromiseTags(reply: string): string[] {
  const inners: string[] = [];
  for (
    let tag = findTag(reply, PROMISE_OPEN, PROMISE_CLOSE, 0);
    tag;
    tag = findTag(reply, PROMISE_OPEN, PROMISE_CLOSE, tag.end)
  )
    inners.push(tag.inner);
  return inners;
}

/** A longer question is cut: it is kept in the sidecar and the history and shown in the terminal. */
const MAX_QUESTION = 1000;

/**
 * The question of a `<loop-pause>QUESTION</loop-pause>` in the reply (docs/REFERENCE.md "Pausing"), whitespace
 * folded and cut at MAX_QUESTION characters; "" for an empty tag; undefined when the reply asks nothing.
 */
export function parsePauseRequest(reply: string): string | undefined {
  const tag = findTag(reply, PAUSE_OPEN, PAUSE_CLOSE, 0);
  return tag ? clipToChars(foldStart(tag.inner, MAX_QUESTION), MAX_QUESTION) : undefined;
}

const WORD = /\S+/g;

/** The text's words joined by one space, as far as a little past `max` characters: a long text is not folded whole. */
function foldStart(text: string, max: number): string {
  let folded = "";
  WORD.lastIndex = 0;
  for (let word = WORD.exec(text); word && folded.length <= max; word = WORD.exec(text))
    folded += folded === "" ? word[0] : ` ${word[0]}`;
  return folded;
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
