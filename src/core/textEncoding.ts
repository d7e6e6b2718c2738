// Files a person writes (the state file, notes, a checklist) read as UTF-8: what they hold when they are no text.

/**
 * The byte order of a UTF-16 file read as UTF-8 (its BOM two U+FFFD, its ASCII a NUL beside each letter: how Windows
 * Notepad's "Unicode" saves), or undefined.
 */
export function readUtf16Order(text: string): "LE" | "BE" | undefined {
  const body = text.startsWith("\uFFFD\uFFFD") ? text.slice(2) : text;
  if (/^(?:[^\u0000]\u0000){2}/.test(body)) return "LE";
  if (/^(?:\u0000[^\u0000]){2}/.test(body)) return "BE";
  return undefined;
}

/** How UTF-16 is named to a person: the byte order, and Notepad's name for the common one. */
export const renderUtf16 = (order: "LE" | "BE"): string =>
  `UTF-16 ${order}${order === "LE" ? ' (Notepad\'s "Unicode")' : ""}`;

/**
 * What a file read as UTF-8 holds when it is no text: UTF-16, or binary data (a NUL byte); undefined for text. A few
 * bytes that are not UTF-8 (Latin-1's accents) still make text: they read as U+FFFD.
 */
export function describeNotText(text: string): string | undefined {
  // UTF-16 read as UTF-8 holds NULs too: text without one is text, and a Stop reads notes every turn.
  if (!text.includes("\u0000")) return undefined;
  const order = readUtf16Order(text);
  return order ? `${renderUtf16(order)} text` : "binary data (it holds NUL bytes)";
}

/** A UTF-16 file's text, its BOM left out: what its bytes read as UTF-8 (`readUtf16Order`) said it is. */
export function decodeUtf16(bytes: Uint8Array, order: "LE" | "BE"): string {
  const copy = Buffer.from(bytes.subarray(0, bytes.length - (bytes.length % 2)));
  const text = (order === "BE" ? copy.swap16() : copy).toString("utf16le");
  return text.startsWith("\uFEFF") ? text.slice(1) : text;
}
