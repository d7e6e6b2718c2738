// The loop's report rendered from recorded histories (README "The morning after").
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import type { HistoryRecord } from "../../src/core/history.js";
import { chooseTableRows, escapeCell, renderReportMarkdown } from "../../src/core/renderReport.js";
import { renderReportHtml } from "../../src/core/renderReportHtml.js";
import { buildReport, selectLoopRecords } from "../../src/core/reportModel.js";
import { readReportHistory } from "../../src/io/readReportHistory.js";
import { readPreviousRecord } from "../../src/io/history.js";
import { renderHistoryTable } from "../../src/core/renderHistory.js";
import { recordLoop, recordLoopWithWaits, toJsonl } from "./reportHistories.js";

const NOW = Date.parse("2026-11-27T08:00:00Z");
const report = (records: HistoryRecord[]) => buildReport(selectLoopRecords(records));
/** The Markdown table's rows, without its header and separator. */
const tableRows = (markdown: string) =>
  markdown
    .split("\n")
    .filter((line) => line.startsWith("| "))
    .slice(1);
const cells = (row: string) =>
  row
    .slice(2, -2)
    .split(/(?<!\\)\|/)
    .map((c) => c.trim());

/** A wait after an overloaded API, a second after iteration `i`'s record at `at`. */
const overloadedWait = (i: number, at: number, waitS: number): HistoryRecord => ({
  time: new Date(at + 1000).toISOString(),
  state_file: ".claude/continuation-loop.local.md",
  iteration: i,
  decision: "wait",
  reason: "overloaded",
  wait_s: waitS,
  basis: "backoff",
  failures: 1,
});

const temps: string[] = [];
afterAll(() => {
  for (const dir of temps) rmSync(dir, { recursive: true, force: true });
});

describe("the report's facts", () => {
  it("tells the goal, the outcome and its reason, iterations, elapsed time, tokens, spend and the metric", () => {
    const model = report(recordLoopWithWaits());
    expect(model).toMatchObject({
      goal: "Fix the failing tests in test/auth.test.ts.",
      outcome: "completed",
      because: 'Claude wrote the promise "DONE"',
      iterations: 8,
      maxIterations: 10,
      ended: true,
      metric: { best: 88, bestIteration: 8, target: ">= 85" },
    });
    expect(model.outputTokens).toBe(2132);
    // Each iteration's tokens are the difference of the running tally; they sum to the loop's.
    const iterations = model.rows.filter((r) => r.kind === "iteration");
    expect(iterations.map((r) => r.iteration)).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
    expect(iterations.reduce((sum, r) => sum + (r.tokens ?? 0), 0)).toBe(2132);
    expect(iterations.reduce((sum, r) => sum + (r.spendUsd ?? 0), 0)).toBeCloseTo(model.spendUsd ?? 0, 6);
    expect(model.end! - model.start!).toBeGreaterThan(8 * 60_000);
  });

  it("puts waits, pauses, resumes and API errors in rows of their own, in the order they happened", () => {
    const kinds = report(recordLoopWithWaits()).rows.map((r) => r.kind);
    expect(kinds).toEqual([
      "iteration",
      "iteration",
      "api_error",
      "wait",
      "resume",
      "iteration",
      "iteration",
      "iteration",
      "pause",
      "resume",
      "iteration",
      "iteration",
      "iteration",
    ]);
  });

  it("reports the last loop of the history, or the named one, and a running loop with the goal of its first record", () => {
    const earlier = recordLoop({ n: 3, end: "max_iterations", goal: "Earlier goal" });
    const named = recordLoop({
      n: 2,
      end: "completed",
      goal: "Named goal",
      stateFile: ".claude/continuation-loop.auth.local.md",
      start: Date.parse("2026-11-27T01:00:00Z"),
    });
    const running = recordLoop({ n: 4, goal: "Running goal", start: Date.parse("2026-11-27T02:00:00Z") });
    const all = [...earlier, ...named, ...running];
    const last = buildReport(selectLoopRecords(all));
    expect(last).toMatchObject({ goal: "Running goal", outcome: "running", ended: false, iterations: 4 });
    expect(last.rows).toHaveLength(4);
    const auth = buildReport(selectLoopRecords(all, ".claude/continuation-loop.auth.local.md"));
    expect(auth).toMatchObject({ goal: "Named goal", outcome: "completed", iterations: 2 });
    expect(selectLoopRecords(all, ".claude/continuation-loop.other.local.md")).toEqual([]);
  });

  it("gives the best as the loop kept it: a metric command changed by hand starts the best again", () => {
    // As the Stop hook writes them: `metric` changed from one command to another before iteration 4.
    const values = [60, 80, 70, 10, 20, 15];
    const bests = [1, 2, 2, 4, 5, 5];
    const records: HistoryRecord[] = values.map((metric, i) => ({
      time: new Date(Date.parse("2026-11-27T01:00:00Z") + (i + 1) * 60_000).toISOString(),
      state_file: ".claude/continuation-loop.local.md",
      iteration: i + 1,
      decision: "continue",
      metric,
      metric_best_iteration: bests[i],
      ...(i === 0 && { goal: "Raise the score", fields: { metric: "cat score", metric_target: ">= 90" } }),
    }));
    const model = report(records);
    expect(model.metric).toEqual({ best: 20, bestIteration: 5, target: ">= 90" });
    expect(renderReportMarkdown(model)).toContain("**Metric:** best 20 at iteration 5; target >= 90");
    const html = renderReportHtml(model, NOW);
    expect(html).toContain("6 values from 60 to 15, best 20, target &gt;= 90.");
    // The best-so-far steps, by their height: 60, 80, 80, then the new command's 10, 20, 20.
    const heights = (path: string) =>
      (new RegExp(`class="${path}" d="([^"]+)"`).exec(html)?.[1] ?? "").match(/[ V][\d.]+/g);
    const height = (value: number) => heights("line-metric")?.[values.indexOf(value)]?.slice(1);
    expect(heights("line-best")?.map((h) => h.slice(1))).toEqual([60, 80, 80, 10, 20, 20].map(height));
  });

  it("reads records of older versions (no duration, no reply) and decisions it does not know", () => {
    const old = recordLoop({ n: 3, end: "stalled" }).map(({ duration_s, reply_line, files_changed, ...rest }) => rest);
    const future = { ...old[1], decision: "until_failed", reason: "exit 1" } as unknown as HistoryRecord;
    const model = report([old[0], old[1], future, old[2]] as HistoryRecord[]);
    expect(model.rows.map((r) => r.kind)).toEqual(["iteration", "iteration", "other", "iteration"]);
    expect(model.rows[2]?.decision).toBe("until_failed: exit 1");
    // Durations come from the times of the records before.
    expect(model.rows[1]?.durationS).toBeGreaterThan(60);
    expect(model.rows[0]?.reply).toBeUndefined();
    expect(renderReportMarkdown(model)).toContain("until_failed: exit 1");
  });

  it("counts a /loop-stop as the loop's end, not as an iteration", () => {
    const loop = recordLoop({ n: 2 });
    const stopped: HistoryRecord = {
      time: "2026-11-26T23:00:00.000Z",
      state_file: ".claude/continuation-loop.local.md",
      iteration: 3,
      decision: "end",
      reason: "stopped",
      output_tokens: loop.at(-1)?.output_tokens,
      goal: "Fix the failing tests in test/auth.test.ts.",
    };
    const model = report([...loop, stopped]);
    expect(model.rows.map((r) => r.kind)).toEqual(["iteration", "iteration", "end"]);
    expect(model).toMatchObject({ outcome: "stopped", because: "stopped by the user" });
  });

  it("a loop whose record leaves max_iterations out ran to the default; no fields at all: unknown", () => {
    const loop = recordLoop({ n: 2, end: "completed" });
    const unset = (r: HistoryRecord): HistoryRecord => (r.fields ? { ...r, fields: { max_tokens: 9000 } } : r);
    expect(report(loop.map(unset)).maxIterations).toBe(10);
    const bare = ({ fields: _, ...r }: HistoryRecord): HistoryRecord => r;
    expect(report(loop.map(bare)).maxIterations).toBeUndefined();
  });
});

describe("the Markdown report", () => {
  it("has one table row per iteration and per event, with every column", () => {
    const markdown = renderReportMarkdown(report(recordLoopWithWaits()));
    expect(markdown).toMatch(/^## Continuation loop: completed\n\n> Fix the failing tests/);
    expect(markdown).toContain('- **Outcome:** completed — Claude wrote the promise "DONE"');
    expect(markdown).toContain("- **Iterations:** 8 of 10");
    expect(markdown).toContain("- **Output tokens:** 2,132");
    expect(markdown).toContain("- **Metric:** best 88 at iteration 8; target >= 85");
    const rows = tableRows(markdown);
    expect(rows).toHaveLength(13);
    for (const row of rows) expect(cells(row)).toHaveLength(9);
    const numbered = rows.filter((row) => /^\d+$/.test(cells(row)[0] ?? ""));
    expect(numbered.map((row) => Number(cells(row)[0]))).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
    expect(cells(numbered[0] as string)).toEqual([
      "1",
      "22:00:00",
      "1m 1s",
      "137",
      "$0.005",
      "46",
      "continue",
      "1",
      "Iteration 1: fixed 1 more test(s).",
    ]);
    expect(markdown).toMatch(/\| \*\*wait 5m \(rate_limit, error 1 in a row\)\*\* \|/);
    expect(markdown).toContain("**API error: rate_limit**");
    expect(markdown).toContain("**resume (answered)**");
  });

  it("escapes pipes and newlines in cells and shows <tags> rather than letting them vanish", () => {
    expect(escapeCell("a | b\nc\r\nd")).toBe("a \\| b c d");
    expect(escapeCell("<promise>DONE</promise>")).toBe("&lt;promise>DONE&lt;/promise>");
    expect(escapeCell("")).toBe("–");
    const model = report(recordLoop({ n: 2, end: "completed", reply: () => "Done | all <promise>DONE</promise>" }));
    const rows = tableRows(renderReportMarkdown(model));
    expect(rows).toHaveLength(2);
    expect(cells(rows[1] as string).at(-1)).toBe("Done \\| all &lt;promise>DONE&lt;/promise>");
    // The pause's question carries a pipe too.
    expect(renderReportMarkdown(report(recordLoopWithWaits()))).toContain("Keep the old API \\| or break it?");
  });

  it("names a wait's length as its duration cell writes it", () => {
    const records = recordLoop({
      n: 3,
      end: "max_iterations",
      extra: (i, at) => (i === 2 ? [overloadedWait(i, at, 119)] : []),
    });
    const wait = tableRows(renderReportMarkdown(report(records))).find((row) => row.includes("**wait"));
    expect(wait).toContain("**wait 1m 59s (overloaded, error 1 in a row)**");
    expect(cells(wait ?? "")).toContain("1m 59s");
  });

  it("summarises a 1,000-iteration loop: both ends of the loop, every event, a line for the rest, within a PR's size", () => {
    const records = recordLoop({
      n: 1000,
      end: "max_iterations",
      metric: (i) => Math.round(Math.log(i) * 1000) / 100,
      extra: (i, at) => (i % 250 === 0 ? [overloadedWait(i, at, 60)] : []),
    });
    const model = report(records);
    expect(model.rows.filter((r) => r.kind === "iteration")).toHaveLength(1000);
    const markdown = renderReportMarkdown(model);
    expect(markdown.length).toBeLessThan(60_000);
    const rows = tableRows(markdown);
    const numbers = rows.map((row) => cells(row)[0]).filter((c) => /^\d+$/.test(c ?? ""));
    expect(numbers.slice(0, 3)).toEqual(["1", "2", "3"]);
    expect(numbers.at(-1)).toBe("1000");
    expect(rows.filter((row) => row.includes("**wait"))).toHaveLength(4);
    const omitted = rows.filter((row) => /iterations \(\d+–\d+\) not shown/.test(row));
    const shown = numbers.length + omitted.reduce((sum, row) => sum + Number(/(\d+) iterations/.exec(row)?.[1]), 0);
    expect(shown).toBe(1000);
    expect(chooseTableRows(model.rows).length).toBe(rows.length);
  });
});

describe("a loop left running overnight", () => {
  it("fits a pull request at 10,000 iterations that each waited for background work: the ends, and a count between", () => {
    const records = recordLoop({
      n: 10_000,
      end: "max_iterations",
      metric: (i) => i % 97,
      reply: (i) => `Iteration ${i}: ${"a long first line of the reply ".repeat(8)}`.slice(0, 200),
      extra: (i, at) => [
        {
          time: new Date(at + 1000).toISOString(),
          state_file: ".claude/continuation-loop.local.md",
          iteration: i,
          decision: "waiting_background",
          tasks: [{ id: `b${i}`, type: "shell", description: "npm run build" }],
        },
      ],
    });
    const model = report(records);
    const events = model.rows.filter((r) => r.kind !== "iteration").length;
    expect(events).toBeGreaterThanOrEqual(10_000);
    const markdown = renderReportMarkdown(model);
    // GitHub takes a pull request's description up to 65,536 characters.
    expect(markdown.length).toBeLessThan(65_536);
    const rows = tableRows(markdown);
    expect(rows.length).toBeLessThan(200);
    const numbers = rows.map((row) => cells(row)[0]).filter((c) => /^\d+$/.test(c ?? ""));
    expect(numbers.slice(0, 2)).toEqual(["1", "2"]);
    expect(numbers.at(-1)).toBe("10000");
    // Every row is shown or counted.
    const omitted = rows.filter((row) => row.includes("not shown"));
    const count = (pattern: RegExp) => omitted.reduce((sum, row) => sum + Number(pattern.exec(row)?.[1] ?? 0), 0);
    expect(numbers.length + count(/(\d+) iterations? \(/)).toBe(10_000);
    const shownEvents = rows.length - numbers.length - omitted.length;
    expect(shownEvents + count(/(\d+) events? \(waits/)).toBe(events);
  });
});

describe("a huge history", () => {
  // The commands read up to the history's last 64 MiB: some 200,000 records of one loop.
  const records = recordLoop({ n: 200_000, step: 1, end: "max_iterations", metric: (i) => i % 997 });

  it("is reported in full, as Markdown and as a page", () => {
    const model = report(records);
    expect(model).toMatchObject({ iterations: 200_000, outputTokens: records.at(-1)?.output_tokens });
    expect(renderReportMarkdown(model)).toContain("end: max_iterations");
    expect(renderReportHtml(model, NOW)).toContain('id="chart-metric"');
  });

  it("is listed whole by history --all", () => {
    expect(renderHistoryTable(records, true).split("\n")).toHaveLength(200_001);
  });
});

describe("the page", () => {
  it("is one self-contained page without script or network, themed for light and dark", () => {
    const html = renderReportHtml(report(recordLoopWithWaits()), NOW);
    expect(html).toMatch(/^<!doctype html>/);
    expect(html).not.toMatch(/<script|<link|<img|@import|url\(|https?:\/\/(?!www\.w3\.org\/2000\/svg)/i);
    expect(html).toContain("prefers-color-scheme:dark");
    expect(html).toContain("Content-Security-Policy");
    expect(html.match(/<svg /g)).toHaveLength(3);
    expect(html.match(/<tr/g)).toHaveLength(14);
    expect(html).toContain("target &gt;= 85");
    // Waits, pauses and API errors are marked on every chart.
    expect(html.match(/class="mark mark-wait"/g)).toHaveLength(3);
    expect(html.match(/class="mark mark-pause"/g)).toHaveLength(3);
    expect(html).toContain("2026-11-27 08:00:00 UTC");
  });

  it("thins out the charts of a 1,000-iteration loop and keeps every row in the table", () => {
    const model = report(recordLoop({ n: 1000, end: "max_iterations", metric: (i) => i / 10, target: ">= 200" }));
    const html = renderReportHtml(model, NOW);
    const bars = html.match(/<rect class="bar-tokens"/g) ?? [];
    expect(bars.length).toBeLessThanOrEqual(200);
    expect(bars.length).toBeGreaterThan(100);
    expect(html).toContain("Each bar sums 5 iterations.");
    expect(html).not.toContain('class="dot-metric"');
    expect(html.match(/<tr>/g)).toHaveLength(1001);
    expect(html.length).toBeLessThan(1_000_000);
  });

  it("charts a turn that paused for the user as part of its iteration", () => {
    const [one, two] = recordLoop({ n: 2 }) as [HistoryRecord, HistoryRecord];
    const paused: HistoryRecord = {
      ...one,
      time: new Date(Date.parse(one.time) + 10_000).toISOString(),
      iteration: 2,
      decision: "pause",
      reason: "question",
      question: "Which one?",
      output_tokens: (one.output_tokens ?? 0) + 50,
    };
    const model = report([one, paused, two]);
    expect(model.rows.map((r) => [r.kind, r.tokens])).toEqual([
      ["iteration", one.output_tokens],
      ["pause", 50],
      ["iteration", (two.output_tokens ?? 0) - (one.output_tokens ?? 0) - 50],
    ]);
    const html = renderReportHtml(model, NOW);
    const second = (two.output_tokens ?? 0) - (one.output_tokens ?? 0);
    expect(html).toContain(`<title>iteration 2: ${second}</title>`);
  });

  it("shows a wait for background work as a row of its own, its turn charted as part of its iteration", () => {
    const [one, two] = recordLoop({ n: 2 }) as [HistoryRecord, HistoryRecord];
    const held: HistoryRecord = {
      ...one,
      time: new Date(Date.parse(one.time) + 10_000).toISOString(),
      iteration: 2,
      decision: "waiting_background",
      reason: "background_tasks",
      tasks: [{ id: "b1", type: "shell", description: "build" }],
      duration_s: 10,
      reply_line: "Build started in the background.",
      output_tokens: (one.output_tokens ?? 0) + 30,
    };
    const model = report([one, held, two]);
    expect(model.rows.map((r) => [r.kind, r.decision, r.tokens, r.durationS])).toEqual([
      ["iteration", "continue", one.output_tokens, expect.anything()],
      ["hold", "waiting for 1 background task (build)", 30, 10],
      ["iteration", "continue", (two.output_tokens ?? 0) - (one.output_tokens ?? 0) - 30, expect.anything()],
    ]);
    const rows = tableRows(renderReportMarkdown(model));
    expect(cells(rows[1] ?? "")).toEqual([
      "–",
      expect.any(String),
      "10s",
      "30",
      expect.any(String),
      "–",
      "**waiting for 1 background task (build)**",
      expect.any(String),
      "Build started in the background.",
    ]);
    const html = renderReportHtml(model, NOW);
    expect(html).toContain('<tr class="event hold">');
    expect(html).toContain("waiting for background work");
    const second = (two.output_tokens ?? 0) - (one.output_tokens ?? 0);
    expect(html).toContain(`<title>iteration 2: ${second}</title>`);
    // A loop that waits now says so.
    expect(report([one, held])).toMatchObject({ outcome: "waiting", because: "waiting for 1 background task (build)" });
  });

  it("draws no chart for a figure the loop never had, and escapes what Claude wrote", () => {
    const model = report(recordLoop({ n: 3, end: "completed", cost: false, reply: () => "<b>bold</b> & more" }));
    const html = renderReportHtml(model, NOW);
    expect(html).not.toContain('id="chart-spend"');
    expect(html).not.toContain('id="chart-metric"');
    expect(html).toContain('id="chart-tokens"');
    expect(html).toContain("&lt;b&gt;bold&lt;/b&gt; &amp; more");
    expect(html).not.toContain("<b>bold");
  });
});

describe("reading the history for a report", () => {
  const history = (text: string | Buffer) => {
    const dir = mkdtempSync(join(tmpdir(), "cl-report-"));
    temps.push(dir);
    const path = join(dir, "continuation-loop.history.jsonl");
    writeFileSync(path, text);
    return path;
  };

  /** The time of the loop's last record, where its next iteration's duration starts. */
  const readPreviousRecordTime = (...args: Parameters<typeof readPreviousRecord>) => {
    const record = readPreviousRecord(...args);
    return record && Date.parse(record.time);
  };

  it("finds a Stop's previous record of its own loop among other loops' records", () => {
    const named = ".claude/continuation-loop.auth.local.md";
    const earlier = recordLoop({ n: 2, end: "completed", stateFile: named });
    const current = recordLoop({ n: 3, start: Date.parse("2026-11-27T03:00:00Z") });
    const other = recordLoop({ n: 2, stateFile: named, start: Date.parse("2026-11-27T04:00:00Z") });
    const path = history(`${toJsonl([...earlier, ...current])}${toJsonl(other).slice(0, 40)}`);
    const started = "2026-11-27T03:00:00.000Z";
    expect(readPreviousRecordTime(path, ".claude/continuation-loop.local.md", started, NOW)).toBe(
      Date.parse(current.at(-1)?.time ?? ""),
    );
    // The named file's last record belongs to a loop that ended before this one started: none of its own.
    expect(readPreviousRecordTime(path, named, "2026-11-27T05:00:00.000Z", NOW)).toBeUndefined();
    expect(readPreviousRecordTime(join(tmpdir(), "none.jsonl"), named, started, NOW)).toBeUndefined();
  });

  it("passes over a wait for a permission answer, written mid-turn: the iteration began at the Stop before it", () => {
    const file = ".claude/continuation-loop.local.md";
    const started = "2026-11-27T03:00:00.000Z";
    const stop = { time: "2026-11-27T03:00:10.000Z", state_file: file, iteration: 1, decision: "continue" };
    const wait = { time: "2026-11-27T03:00:12.000Z", state_file: file, iteration: 2, decision: "waiting_permission" };
    const path = history(toJsonl([stop, wait] as HistoryRecord[]));
    expect(readPreviousRecordTime(path, file, started, NOW)).toBe(Date.parse(stop.time));
  });

  it("skips a torn last line", () => {
    const records = recordLoop({ n: 5 });
    const torn = `${toJsonl(records)}${JSON.stringify(recordLoop({ n: 6 }).at(-1)).slice(0, 80)}`;
    const read = readReportHistory(history(torn), "h.jsonl");
    expect(read).toHaveLength(5);
    const model = buildReport(selectLoopRecords(read));
    expect(model.iterations).toBe(5);
    expect(tableRows(renderReportMarkdown(model))).toHaveLength(5);
  });

  it("refuses a missing, empty or unreadable history in one line naming the file", () => {
    const dir = mkdtempSync(join(tmpdir(), "cl-report-"));
    temps.push(dir);
    const describe = (path: string) => {
      try {
        readReportHistory(path, "shown.jsonl");
      } catch (error) {
        return (error as { describe(): string }).describe();
      }
      return "read";
    };
    expect(describe(join(dir, "none.jsonl"))).toMatch(/^shown\.jsonl: no history yet/);
    expect(describe(history(""))).toMatch(/^shown\.jsonl: is empty/);
    expect(describe(history(Buffer.from([0, 1, 2, 255, 10, 200, 201])))).toMatch(
      /^shown\.jsonl: holds no readable record/,
    );
    expect(describe(dir)).toMatch(/^shown\.jsonl: is not a regular file/);
  });
});
