// The loop's report after a real loop through the real CLI (README "The morning after"): the history the
// hooks wrote gives a Markdown report with one row per iteration and a page whose charts headless Chromium
// draws. On the newest version, a live session meets a rate limit and Claude asks a question: the wait and
// the pause are rows of their own and marks on the charts. With CONTINUATION_LOOP_REPORT_PNG=docs/report.png that page is the README's picture.
import { spawnSync } from "node:child_process";
import { randomUUID } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { Browser } from "../browser/chromium.js";
import { countColours, decodePng, shareOfColour } from "../browser/png.js";
import { apiError, text } from "./support/messagesServer.js";
import { PLUGIN_DIR, type LoopProject, trustProject } from "./support/loopProject.js";
import { describeRun, NEWEST, runClaude } from "./support/runClaude.js";
import { perTest } from "./support/perTest.js";

const t = perTest();
let browser: Browser | undefined;

afterAll(async () => {
  await browser?.close();
});

/** A metric that counts its own runs (one per Stop) and prints `expression` of the count. */
const counting = (expression: string) =>
  `metric: "n=$(($(cat n 2>/dev/null || echo 0) + 1)); echo $n > n; echo $((${expression}))"`;

/** The bundled helper, run in the project as a user would from a terminal. */
function report(p: LoopProject, ...args: string[]) {
  const r = spawnSync(process.execPath, [path.join(PLUGIN_DIR, "hooks", "cli.js"), "report", ...args], {
    cwd: p.proj,
    env: { PATH: process.env.PATH ?? "", HOME: p.home, CLAUDE_PROJECT_DIR: p.proj },
    encoding: "utf8",
  });
  expect(r.status, r.stderr).toBe(0);
  return r.stdout;
}

const iterationRows = (markdown: string) => markdown.split("\n").filter((line) => /^\| \d+ \|/.test(line));

/**
 * The page opened in headless Chromium with scripts off: every chart laid out, the screenshot not blank, and each
 * token bar painted in the light theme's token colour (src/core/renderReportHtml.ts) where the layout put it.
 */
async function checkPage(file: string, charts: number): Promise<Buffer> {
  if (!browser) {
    browser = await Browser.launch();
    console.info(`browser: ${browser.product}`);
  }
  const page = await browser.open(file, { width: 1200, height: 900, scheme: "light" });
  const boxes = await page.boxes("svg.chart");
  expect(boxes).toHaveLength(charts);
  for (const box of boxes) expect(box.width * box.height).toBeGreaterThan(100_000);
  const bars = (await page.boxes("rect.bar-tokens")).filter((b) => b.height > 0);
  expect(bars.length).toBeGreaterThan(0);
  const png = await page.screenshot();
  const pixels = decodePng(png);
  expect(countColours(pixels)).toBeGreaterThan(200);
  for (const bar of bars) expect(shareOfColour(pixels, bar, "#4f6bed")).toBeGreaterThan(0.9);
  return png;
}

const REPLIES = [
  "Read the failing tests: 4 of 9 fail in test/auth.test.ts.",
  "Fixed the token expiry check; 3 still fail.",
  "Fixed the refresh path; the clock mock was stale.",
  "Two left: both in the logout flow.",
  "Fixed logout; one flaky test left.",
  "All 9 tests pass.",
];

// The report is the product's own reading of its history: on the newest pin only (support/pins.ts).
describe.each([NEWEST])("Claude Code %s", (version) => {
  it("a loop run through the CLI gives a report with one row per iteration and a page Chromium draws", async () => {
    const p = t.project();
    p.writeState(
      `---\nmax_iterations: 10\n${counting("n * 15 + 5")}\nmetric_target: ">= 95"\n---\n\nFix the failing tests in test/auth.test.ts.\n`,
    );
    let server = await t.server([
      ...REPLIES.map((t, i) => text(t, { output_tokens: 120 + ((i * 173) % 500) })),
      text("never sent"),
    ]);
    const r = await runClaude({
      version,
      prompt: "start",
      baseUrl: server.url,
      cwd: p.proj,
      home: p.home,
      pluginDirs: [PLUGIN_DIR],
      sessionId: randomUUID(),
    });
    expect(r.code, describeRun(r)).toBe(0);
    const history = p.history();
    expect(history.map((h) => h.decision)).toEqual(["continue", "continue", "continue", "continue", "continue", "end"]);

    const markdown = report(p);
    expect(markdown).toContain("## Continuation loop: completed");
    expect(markdown).toContain("> Fix the failing tests in test/auth.test.ts.");
    expect(markdown).toMatch(/\*\*Metric:\*\* best 95 at iteration 6; target >= 95/);
    const rows = iterationRows(markdown);
    expect(rows.map((row) => Number(row.split("|")[1]))).toEqual([1, 2, 3, 4, 5, 6]);
    for (const [i, row] of rows.entries()) {
      expect(row).toContain(REPLIES[i] as string);
      expect(row).toContain(`| ${i * 15 + 20} |`);
    }

    const page = path.join(p.proj, "report.html");
    report(p, "--html", page);
    await checkPage(page, 2 + (markdown.includes("**Spend:** $") ? 1 : 0));

    // /loop-report in a session: answered by the hook itself, no model turn.
    await server.close();
    server = await t.server([text("never sent")]);
    const asked = await runClaude({
      version,
      prompt: "/continuation-loop:loop-report",
      baseUrl: server.url,
      cwd: p.proj,
      home: p.home,
      pluginDirs: [PLUGIN_DIR],
    });
    expect(server.mainRequests).toHaveLength(0);
    const shown = String(asked.result?.result);
    expect(shown).toContain("report of .claude/continuation-loop.local.md: completed");
    expect(shown).toContain("6 iterations");
    expect(shown).toMatch(/metric best 95 at iteration 6; target >= 95/);
    expect(shown).toMatch(/!node \S+hooks\/cli\.js report --html loop-report\.html/);
  });
});

describe(`Claude Code ${NEWEST.name}: a loop that waited after a rate limit and paused for a question`, () => {
  it("reports the error, the wait and the pause in rows of their own, marked on the charts", async () => {
    const p = t.project();
    trustProject(p);
    // Checkpoints record the files each iteration changed: here the metric's own counter.
    spawnSync("git", ["init", "-q", p.proj]);
    p.writeState(
      // started_at as /loop-start writes it: the first iteration's duration runs from there.
      `---\nmax_iterations: 12\nstarted_at: "${new Date().toISOString()}"\ncheckpoints: true\n${counting("n * n * 3 + 10")}\nmetric_target: ">= 200"\ncompletion_promise: DONE\n---\n\nRaise the test coverage of src/auth to 200 covered branches.\n`,
    );
    const tokens = (i: number) => ({ output_tokens: 180 + ((i * 211) % 700) });
    const server = await t.server([
      text("Mapped the uncovered branches: token expiry, refresh, logout.", tokens(0)),
      text("Added tests for token expiry.", tokens(1)),
      text("Added tests for the refresh path.", tokens(2)),
      apiError(429),
      text("Covered the logout flow and its error paths.", tokens(3)),
      text("Covered the session cookie parser.", tokens(4)),
      text("Two ways to go. <loop-pause>Keep the legacy cookie format?</loop-pause>", tokens(5)),
      text("Keeping it; covered both formats.", tokens(6)),
      text("Coverage target reached. DONE", tokens(7)),
      text("never sent"),
    ]);
    const session = t.session(
      {
        version: NEWEST,
        baseUrl: server.url,
        cwd: p.proj,
        home: p.home,
        pluginDirs: [PLUGIN_DIR],
        env: { CONTINUATION_LOOP_WAIT_SCALE: "0.05", CLAUDE_CODE_MAX_RETRIES: "0" },
      },
      "start",
    );
    const until = async (what: string, check: () => boolean) => {
      const end = Date.now() + 90_000;
      while (!check()) {
        if (Date.now() > end) throw new Error(`timed out waiting for ${what}: ${JSON.stringify(p.history())}`);
        await new Promise((r) => setTimeout(r, 100));
      }
    };
    await until("Claude's question", () => p.history().some((r) => r.decision === "pause"));
    session.send("Keep it.");
    await until("the loop's end", () => p.history().some((r) => r.decision === "end"));
    const markdown = report(p);
    const rows = iterationRows(markdown);
    expect(rows.map((row) => Number(row.split("|")[1]))).toEqual([1, 2, 3, 4, 5, 6, 7]);
    // Each iteration changed one file, the metric's counter.
    for (const row of rows) expect(row.split("|")[8]?.trim()).toBe("1");
    expect(markdown).toContain("**API error: rate_limit**");
    expect(markdown).toMatch(/\*\*wait [\d.]+s \(rate_limit, error 1 in a row\)\*\*/);
    expect(markdown).toContain("**resume (api_wait)**");
    expect(markdown).toContain("**pause: question: Keep the legacy cookie format?**");
    expect(markdown).toContain("**resume (answered)**");

    const page = path.join(p.proj, "report.html");
    report(p, "--html", page);
    const html = fs.readFileSync(page, "utf8");
    const charts = html.includes('id="chart-spend"') ? 3 : 2;
    expect(html.match(/class="mark mark-wait"/g)).toHaveLength(charts);
    expect(html.match(/class="mark mark-pause"/g)).toHaveLength(charts);
    const png = await checkPage(page, charts);
    const picture = process.env.CONTINUATION_LOOP_REPORT_PNG;
    if (picture) fs.writeFileSync(path.resolve(picture), png);
  });
});
