// The report as `run` appends it to GitHub's job summary (docs/REFERENCE.md "continuation-loop run"): GitHub
// drops a step's whole summary when its file passes its limit, so what is appended always fits. Pure.

/** GitHub keeps a step's summary file up to this many bytes; past it, nothing of that step's summary is shown. */
export const STEP_SUMMARY_LIMIT = 1024 * 1024;

/** A line of the head longer than this is cut, when the whole report does not fit. */
const HEAD_LINE_CHARS = 300;

const sizeOf = (text: string): number => Buffer.byteLength(text, "utf8");

/** A line cut to `max` characters (never inside a surrogate pair), with "…" where it was cut. */
function clipLine(line: string, max: number): string {
  const chars = Array.from(line);
  return chars.length > max ? `${chars.slice(0, max - 1).join("")}…` : line;
}

/**
 * `markdown` (the report, as appended) when it fits in `room` bytes; else the report shortened to fit: its head
 * (long lines cut, or only its title), the table's first and last rows with a line for those left out, and a
 * note naming `whole`, where the whole report is. Undefined when not even the title and the note fit.
 */
export function fitReportToSummary(markdown: string, room: number, whole: string): string | undefined {
  if (sizeOf(markdown) <= room) return markdown;
  const lines = markdown.replace(/\n+$/, "").split("\n");
  const header = lines.findIndex((line) => line.startsWith("| # |"));
  const head = header < 0 ? lines : lines.slice(0, header);
  const table = header < 0 ? [] : lines.slice(header, header + 2);
  const rows = header < 0 ? [] : lines.slice(header + 2).filter((line) => line.startsWith("|"));
  const render = (top: string[], first: string[], last: string[]): string => {
    const left = rows.length - first.length - last.length;
    const note = `_Shortened to fit GitHub's ${STEP_SUMMARY_LIMIT / 1024} KiB for a step's summary${left ? `: ${left} of the table's ${rows.length} rows left out` : ""}. The whole report: ${whole}._`;
    const shown = table.length
      ? [...table, ...first, ...(left ? [`| … | | | | | | ${left} rows not shown here | | |`] : []), ...last]
      : [];
    return `${[...top, ...(shown.length ? ["", ...shown] : []), "", note].join("\n")}\n\n`;
  };
  const title = head.slice(0, 1);
  for (const top of [head, head.map((line) => clipLine(line, HEAD_LINE_CHARS)), title]) {
    if (sizeOf(render(top, [], [])) > room) continue;
    // The newest rows first (how the loop ended), then the oldest, one at a time while they fit.
    const first: string[] = [];
    const last: string[] = [];
    for (let i = 0; first.length + last.length < rows.length; i++) {
      const fromEnd = i % 2 === 0;
      const row = (fromEnd ? rows[rows.length - 1 - last.length] : rows[first.length]) as string;
      const next = fromEnd ? [first, [row, ...last]] : [[...first, row], last];
      if (sizeOf(render(top, next[0] as string[], next[1] as string[])) > room) break;
      if (fromEnd) last.unshift(row);
      else first.push(row);
    }
    return render(top, first, last);
  }
  return undefined;
}
