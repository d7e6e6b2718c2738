/** Buffer's own decoders, which `toString` calls after sorting out its arguments. */
type Decoders = Buffer & {
  utf8Slice(start: number, end: number): string;
  latin1Slice(start: number, end: number): string;
};

/**
 * Bytes `start`–`end` as UTF-8 text, as `buffer.toString("utf8", start, end)` reads them. Called
 * directly: the first `toString` of a fresh process costs a hook ~0.1 ms more (README "Performance").
 */
export const decodeUtf8 = (buffer: Buffer, start = 0, end = buffer.length): string =>
  (buffer as Decoders).utf8Slice(start, end);

/** Bytes `start`–`end` as latin1 text (one character per byte). */
export const decodeLatin1 = (buffer: Buffer, start: number, end: number): string =>
  (buffer as Decoders).latin1Slice(start, end);
