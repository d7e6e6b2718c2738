/** Buffer's own decoders, which `toString` calls after sorting out its arguments. */
type Decoders = {
  utf8Slice(this: Uint8Array, start: number, end: number): string;
  latin1Slice(this: Uint8Array, start: number, end: number): string;
};
const decoders = Buffer.prototype as unknown as Decoders;

/**
 * Bytes `start`–`end` as UTF-8 text, as `buffer.toString("utf8", start, end)` reads them. Called
 * directly, on any Uint8Array: the first `toString` of a fresh process costs a hook ~0.1 ms more,
 * and so does the first Buffer it makes (README "Performance").
 */
export const decodeUtf8 = (bytes: Uint8Array, start = 0, end = bytes.length): string =>
  decoders.utf8Slice.call(bytes, start, end);

/** Bytes `start`–`end` as latin1 text (one character per byte). */
export const decodeLatin1 = (bytes: Uint8Array, start: number, end: number): string =>
  decoders.latin1Slice.call(bytes, start, end);
