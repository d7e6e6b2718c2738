// The report `run` appends to GitHub's job summary always fits the room left under GitHub's limit.
import { describe, expect, it } from "vitest";
import { fitReportToSummary, STEP_SUMMARY_LIMIT } from "../../src/core/fitSummary.js";
import { renderReportMarkdown } from "../../src/core/renderReport.js";
import { buildReport, selectLoopRecords } from "../../src/core/reportModel.js";
import { recordLoop } from "./reportHistories.js";

const size = (text: string) => Buffer.byteLength(text, "utf8");
const WHOLE = "`loop.md` (--report)";
/** A report of a long loop, as `run` appends it; `goal` its goal. */
const reportOf = (goal?: string) =>
  `${renderReportMarkdown(
    buildReport(
      selectLoopRecords(
        recordLoop({
          n: 300,
          end: "max_iterations",
          ...(goal && { goal }),
          reply: (i) => `Iteration ${i}: ${"fixed the flaky assertion in test/auth/session.test.ts ".repeat(4)}`,
        }),
      ),
    ),
  )}\n`;
/** The table's rows, the report's own "not shown" lines among them. */
const tableOf = (markdown: string) => {
  const lines = markdown.split("\n");
  return lines.slice(lines.findIndex((l) => l.startsWith("| # |")) + 2).filter((l) => l.startsWith("|"));
};
const rowsOf = (markdown: string) => markdown.split("\n").filter((line) => /^\| \d+ \|/.test(line));

describe("the report on the job summary", () => {
  it("is the whole report while it fits, to the byte", () => {
    const markdown = reportOf();
    expect(fitReportToSummary(markdown, size(markdown), WHOLE)).toBe(markdown);
  });

  it("one byte short: the head, the newest and the oldest rows, how many were left out and where the whole report is", () => {
    const markdown = reportOf();
    for (const room of [size(markdown) - 1, 20_000, 6_000]) {
      const fitted = fitReportToSummary(markdown, room, WHOLE) ?? "";
      expect(size(fitted)).toBeLessThanOrEqual(room);
      expect(fitted.startsWith(markdown.slice(0, markdown.indexOf("| # |")))).toBe(true);
      const all = rowsOf(markdown);
      const kept = rowsOf(fitted);
      expect(kept.length).toBeGreaterThan(0);
      expect(kept.at(-1)).toBe(all.at(-1));
      expect(kept[0]).toBe(all[0]);
      const left = tableOf(markdown).length - tableOf(fitted).filter((l) => !l.includes("rows not shown here")).length;
      expect(fitted).toContain(`| … | | | | | | ${left} rows not shown here | | |`);
      expect(fitted).toContain(`${left} of the table's`);
      expect(fitted).toContain(`The whole report: ${WHOLE}.`);
    }
  });

  it("a goal too long for the room is cut, then only the title is kept; with no room for that, nothing", () => {
    const markdown = reportOf(`${"Make every test pass ".repeat(3000)}\nand keep them green`);
    const cut = fitReportToSummary(markdown, 8_000, WHOLE) ?? "";
    expect(size(cut)).toBeLessThanOrEqual(8_000);
    expect(cut).toMatch(/^## Continuation loop: max_iterations\n\n> Make every test pass .{200,300}…\n/);
    expect(cut).toContain("- **Outcome:**");
    const title = fitReportToSummary(markdown, 400, WHOLE) ?? "";
    expect(size(title)).toBeLessThanOrEqual(400);
    expect(title.split("\n")[0]).toBe("## Continuation loop: max_iterations");
    expect(title).toContain(`The whole report: ${WHOLE}.`);
    expect(fitReportToSummary(markdown, 100, WHOLE)).toBeUndefined();
    expect(fitReportToSummary(markdown, -5, WHOLE)).toBeUndefined();
  });

  it("GitHub's limit is 1024 KiB", () => {
    expect(STEP_SUMMARY_LIMIT).toBe(1_048_576);
  });
});
