// The companion module in a real terminal on the newest Claude Code (docs/REFERENCE.md "The companion module"): an
// ordinary iteration in a few neutral rows, and the band above the prompt.
import fs from "node:fs";
import { afterEach, describe, expect, it } from "vitest";
import { startMessagesServer, text } from "../e2e/support/messagesServer.js";
import { NEWEST } from "../e2e/support/runClaude.js";
import { HOLD, heldScript, interruptRecorded } from "./support/heldScript.js";
import { iterationRows } from "./support/screen.js";
import { TuiScratch, until } from "./support/scratch.js";
import { startTui } from "./support/tui.js";

const REPLIES = ["Drafted the summary.", "Tightened the wording.", "Checked the facts.", "Translated it."];
/** The band: the plugin's sign and name, then `loop n/max`. */
const BAND = /⟳ continuation-loop .*loop (paused )?(\d+)\/(\d+)/;

let scratch: TuiScratch | undefined;
afterEach(async () => {
  await scratch?.dispose();
  scratch = undefined;
});

describe(`Claude Code ${NEWEST.name}: the module in the terminal`, () => {
  it("shows an ordinary iteration in a few neutral rows at 140 columns, without the hook's command", async () => {
    const s = (scratch = new TuiScratch("module-rows"));
    const server = (s.server = await startMessagesServer(REPLIES.map((r) => text(r))));
    const tui = (s.tui = await startTui({
      version: NEWEST,
      baseUrl: server.url,
      cwd: s.proj,
      home: s.home,
      cols: 140,
      rows: 100,
    }));
    await tui.submit("/continuation-loop:loop-start --max-iterations 4 Write the summary");
    await tui.waitFor(/continuation-loop: .*max_iterations/, 60_000);
    expect(server.mainRequests).toHaveLength(4);
    const rows = tui.history();
    for (const n of [1, 2]) {
      const between = iterationRows(rows, REPLIES[n]!, REPLIES[n + 1]!);
      expect(between, rows.join("\n")).toBeDefined();
      // An ordinary iteration: a prompt from the plugin, not the hook's command and its problem report.
      // Claude Code's turn summary, a blank row, `› Prompt from the … plugin`, and the one-row reminder:
      // four rows, against six with the hook's own block.
      expect(between!.length, between!.join("\n")).toBeLessThanOrEqual(4);
      expect(between!.join("\n")).not.toContain("stop.js");
      expect(between!.join("\n")).toContain(`iteration ${n + 2}/4`);
    }
  });

  it("draws the band while the loop runs: n/max as it goes, invalid, paused, then gone when the loop stops", async () => {
    const s = (scratch = new TuiScratch("module-band"));
    const stateFile = s.claude("continuation-loop.local.md");
    const held = (s.held = heldScript([HOLD, HOLD, text("never sent")]));
    const server = (s.server = await startMessagesServer(held.script));
    // The default terminal's width: the band stays on one row, cut at the edge rather than wrapped under itself.
    const tui = (s.tui = await startTui({
      version: NEWEST,
      baseUrl: server.url,
      cwd: s.proj,
      home: s.home,
      cols: 80,
      rows: 60,
    }));

    await tui.submit("/continuation-loop:loop-start --max-iterations 5 Tidy the docs");
    await held.arrived(0);
    await tui.waitFor((screen) => BAND.exec(screen)?.[2] === "1", 30_000);
    held.release(text("Tidied the first page."));
    await held.arrived(1);
    // Iteration 2 in flight: the band follows.
    await tui.waitFor((screen) => BAND.exec(screen)?.[2] === "2", 30_000);
    // A hand edit mid-loop shows too: the files are no longer those the Stop's view was made from.
    fs.writeFileSync(stateFile, fs.readFileSync(stateFile, "utf8").replace(/max_iterations: 5\b/, "max_iterations: 9"));
    await tui.waitFor((screen) => BAND.exec(screen)?.[3] === "9", 30_000);
    // A hand edit that breaks the file: the band says so, and the loop has not ended (no end toast); fixed, it
    // shows again.
    const valid = fs.readFileSync(stateFile, "utf8");
    fs.writeFileSync(stateFile, valid.replace("max_iterations: 9", "max_iterations: nine"));
    await tui.waitFor(/⟳ continuation-loop · state file invalid, paused: \/loop-status says why/, 30_000);
    fs.writeFileSync(stateFile, valid);
    await tui.waitFor((screen) => BAND.exec(screen)?.[3] === "9", 30_000);
    expect(tui.raw()).not.toContain("loop ended");
    // Paused by hand (active: false): the band says so within a few seconds, with no event needed.
    fs.writeFileSync(stateFile, fs.readFileSync(stateFile, "utf8").replace("active: true", "active: false"));
    const pausedBand = await tui.waitFor((screen) => BAND.exec(screen)?.[1] === "paused ", 30_000);
    // Wider than 80 columns with how to go on: one row, cut with "…", nothing of it on the row below.
    const bandRows = pausedBand.split("\n");
    const band = bandRows.findIndex((row) => BAND.test(row));
    expect(bandRows[band], pausedBand).toMatch(/…\s*(\[-\])?$/);
    expect(bandRows[band + 1], pausedBand).not.toMatch(/resumes it|active: true/);
    // Between turns, /loop-status fits the 80 columns Claude Code says it has: a row too long goes on under its own
    // text, never back at the answer's left edge.
    tui.press("escape");
    await interruptRecorded(s.home);
    await tui.submit("/continuation-loop:loop-status");
    const status = await tui.waitFor(/loop paused, iteration 2\/9[\s\S]*\n +last: /, 30_000);
    const all = status.split("\n");
    const from = all.findIndex((row) => /loop paused, iteration 2\/9/.test(row));
    const to = all.findIndex((row, i) => i > from && /^ +last: /.test(row));
    const rows = all.slice(from, to + 1);
    const at = rows[0]!.search(/(continuation-loop: )?loop paused/);
    for (const row of rows.slice(1)) expect(row, status).toMatch(new RegExp(`^ {${at + 2}}\\S|^ {${at + 4}}\\S`));
    expect(
      rows.some((row) => row.startsWith(" ".repeat(at + 4))),
      status,
    ).toBe(true);
    expect(rows.length, status).toBeLessThanOrEqual(14);
    // No word alone on a wrapped row when the row above could give it one ("this" over "session's").
    expect(
      rows.filter((row) => row.startsWith(" ".repeat(at + 4)) && /^ +\S+$/.test(row)),
      status,
    ).toEqual([]);
    // Stopped: the band goes.
    await tui.submit("/continuation-loop:loop-stop");
    await until(() => !fs.existsSync(stateFile), "the loop's end", 30_000);
    await tui.waitFor((screen) => !BAND.test(screen), 30_000);
    expect(server.mainRequests).toHaveLength(2);
  });
});
