// The report's page in a real headless Chromium, scripts off (README "The morning after"): the charts
// are laid out with real sizes, in light and dark themes, and the page is not blank.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { runHook } from "../support/runHook.js";
import { recordLoop, recordLoopWithWaits, toJsonl } from "../unit/reportHistories.js";
import { Browser } from "./chromium.js";
import { countColours, decodePng } from "./png.js";

const dir = mkdtempSync(join(tmpdir(), "cl-browser-"));
let browser: Browser | undefined;
/** Started by the first test: each test fails, none is skipped, when Chromium is missing. */
const chromium = () => {
  browser ??= new Browser();
  return browser;
};
afterAll(async () => {
  await browser?.close();
  rmSync(dir, { recursive: true, force: true });
});

/** The page the bundled `continuation-loop report --html` writes for a project with this history. */
function writePage(name: string, history: string): string {
  const root = join(dir, name);
  mkdirSync(join(root, ".claude"), { recursive: true });
  writeFileSync(join(root, ".claude", "continuation-loop.history.jsonl"), history);
  const run = runHook("cli", "", {
    cwd: root,
    args: ["report", "--html", "report.html"],
    env: { CLAUDE_PROJECT_DIR: root },
  });
  expect(run.code, run.stderr).toBe(0);
  return join(root, "report.html");
}

const visible = (boxes: Array<{ width: number; height: number }>) => boxes.filter((b) => b.width > 0 && b.height > 0);

describe("the report's page in headless Chromium", () => {
  it.each(["light", "dark"] as const)("draws the charts of a loop with waits and pauses (%s theme)", async (scheme) => {
    const page = await chromium().open(writePage(`waits-${scheme}`, toJsonl(recordLoopWithWaits())), {
      width: 1200,
      height: 900,
      scheme,
    });
    const charts = await page.boxes("svg.chart");
    expect(charts).toHaveLength(3);
    for (const chart of charts) {
      expect(chart.width).toBeGreaterThan(600);
      expect(chart.height).toBeGreaterThan(120);
    }
    expect(visible(await page.boxes("svg.chart rect.bar-tokens"))).toHaveLength(8);
    expect(visible(await page.boxes("svg.chart rect.bar-spend"))).toHaveLength(8);
    expect(visible(await page.boxes("#chart-metric path.line-metric"))).toHaveLength(1);
    expect(visible(await page.boxes("#chart-metric line.line-target"))).toHaveLength(1);
    // The wait and the pause are marked on each of the three charts.
    expect(visible(await page.boxes("line.mark-wait"))).toHaveLength(3);
    expect(visible(await page.boxes("line.mark-pause"))).toHaveLength(3);
    expect(visible(await page.boxes("tbody tr"))).toHaveLength(13);

    const pixels = decodePng(await page.screenshot());
    expect(pixels.width).toBe(1200);
    expect(countColours(pixels)).toBeGreaterThan(200);
    // The theme reaches the page: a dark background in dark mode, a light one otherwise.
    const [r, g, b] = pixels.data;
    const light = ((r as number) + (g as number) + (b as number)) / 3;
    if (scheme === "dark") expect(light).toBeLessThan(60);
    else expect(light).toBeGreaterThan(200);
  });

  it("keeps a 1,000-iteration loop readable: thinned bars, a whole table", async () => {
    const history = toJsonl(recordLoop({ n: 1000, end: "max_iterations", metric: (i) => Math.log(i), target: ">= 8" }));
    const page = await chromium().open(writePage("long", history), { width: 1200, height: 900, scheme: "light" });
    const bars = visible(await page.boxes("rect.bar-tokens"));
    expect(bars.length).toBeGreaterThan(100);
    expect(bars.length).toBeLessThanOrEqual(200);
    // Bars stay wide enough to see.
    for (const bar of bars) expect(bar.width).toBeGreaterThanOrEqual(2);
    expect(visible(await page.boxes("#chart-metric path.line-metric"))).toHaveLength(1);
    expect(await page.boxes("tbody tr")).toHaveLength(1000);
    const top = decodePng(await page.screenshot(1400));
    expect(countColours(top)).toBeGreaterThan(100);
  });
});
