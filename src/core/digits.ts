// ASCII digits, checked by character: the hooks read numbers in durations, frontmatter values and
// task ids on every run, where a regular expression would cost a fresh process a compile at its
// first use (README "Performance").

/** Is this character code `0`–`9`? */
export const isDigit = (c: number) => c >= 48 && c <= 57;

/** The offset past the digits at `from` (`from` itself when there are none). */
export function skipDigits(text: string, from: number): number {
  let i = from;
  while (i < text.length && isDigit(text.charCodeAt(i))) i++;
  return i;
}
