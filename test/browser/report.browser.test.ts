// The report's page in a real headless Chromium, scripts off (README "The morning after"): the charts
// are laid out with real sizes, in light and dark themes, and the page is not blank.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { runHook } from "../support/runHook.js";
import { recordLoop, recordLoopWithWaits, toJsonl } from "../unit/reportHistories.js";
import { Browser, type Box } from "./chromium.js";
import { countColours, decodePng, shareOfColour } from "./png.js";

const dir = mkdtempSync(join(tmpdir(), "cl-browser-"));
let browser: Browser | undefined;
/** Started by the first test: each test fails, none is skipped, when no browser can start. */
const chromium = async () => {
  if (!browser) {
    browser = await Browser.launch();
    console.info(`browser: ${browser.product}`);
  }
  return browser;
};
/** The report's own colours (src/core/renderReportHtml.ts): text, token bars and spend bars, per theme. */
const COLOURS = {
  light: { text: "#1f2328", tokens: "#4f6bed", spend: "#0e9f6e" },
  dark: { text: "#e6e8eb", tokens: "#8ea2ff", spend: "#34d399" },
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

const visible = (boxes: Box[]) => boxes.filter((b) => b.width > 0 && b.height > 0);

describe("the report's page in headless Chromium", () => {
  it.each(["light", "dark"] as const)("draws the charts of a loop with waits and pauses (%s theme)", async (scheme) => {
    const page = await (await chromium()).open(writePage(`waits-${scheme}`, toJsonl(recordLoopWithWaits())), {
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
    const tokenBars = visible(await page.boxes("svg.chart rect.bar-tokens"));
    const spendBars = visible(await page.boxes("svg.chart rect.bar-spend"));
    expect(tokenBars).toHaveLength(8);
    expect(spendBars).toHaveLength(8);
    expect(visible(await page.boxes("#chart-metric path.line-metric"))).toHaveLength(1);
    expect(visible(await page.boxes("#chart-metric line.line-target"))).toHaveLength(1);
    // The wait and the pause are marked on each of the three charts.
    expect(visible(await page.boxes("line.mark-wait"))).toHaveLength(3);
    expect(visible(await page.boxes("line.mark-pause"))).toHaveLength(3);
    expect(visible(await page.boxes("tbody tr"))).toHaveLength(13);

    const pixels = decodePng(await page.screenshot());
    expect(pixels.width).toBe(1200);
    expect(countColours(pixels)).toBeGreaterThan(200);
    // Drawn, not only laid out: each bar is painted in its colour where the layout put it, and the title's text
    // is painted (a font was found).
    for (const bar of tokenBars) expect(shareOfColour(pixels, bar, COLOURS[scheme].tokens)).toBeGreaterThan(0.9);
    for (const bar of spendBars) expect(shareOfColour(pixels, bar, COLOURS[scheme].spend)).toBeGreaterThan(0.9);
    const [title] = await page.boxes("h1");
    expect(shareOfColour(pixels, title as Box, COLOURS[scheme].text, 30)).toBeGreaterThan(0.01);
    // The theme reaches the page: a dark background in dark mode, a light one otherwise.
    const [r, g, b] = pixels.data;
    const light = ((r as number) + (g as number) + (b as number)) / 3;
    if (scheme === "dark") expect(light).toBeLessThan(60);
    else expect(light).toBeGreaterThan(200);
  });

  it("keeps a 1,000-iteration loop readable: thinned bars, a whole table", async () => {
    const history = toJsonl(recordLoop({ n: 1000, end: "max_iterations", metric: (i) => Math.log(i), target: ">= 8" }));
    const page = await (await chromium()).open(writePage("long", history), {
      width: 1200,
      height: 900,
      scheme: "light",
    });
    const bars = visible(await page.boxes("rect.bar-tokens"));
    expect(bars.length).toBeGreaterThan(100);
    expect(bars.length).toBeLessThanOrEqual(200);
    // Bars stay wide enough to see.
    for (const bar of bars) expect(bar.width).toBeGreaterThanOrEqual(2);
    expect(visible(await page.boxes("#chart-metric path.line-metric"))).toHaveLength(1);
    expect(await page.boxes("tbody tr")).toHaveLength(1000);
    const top = decodePng(await page.screenshot(1400));
    expect(countColours(top)).toBeGreaterThan(100);
    // The thinned bars are painted: a fifth of the tokens chart is their colour.
    const [tokensChart] = await page.boxes("#chart-tokens");
    expect(shareOfColour(top, tokensChart as Box, COLOURS.light.tokens)).toBeGreaterThan(0.1);
  });
});
