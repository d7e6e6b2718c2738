// A terminal resized mid-loop (140 → 60 columns and 15 rows → 140), as an emulator does it: the band, the status
// line and /loop-status typed after the resize fit the new width, each on its rows once; and a goal and a question
// of wide, joined and combining characters are cut between whole characters, never into half an emoji.
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { text } from "../e2e/support/messagesServer.js";
import { CLAUDE_VERSIONS, NEWEST, REPO_ROOT } from "../e2e/support/runClaude.js";
import { HOLD, heldScript } from "./support/heldScript.js";
import type { Tui } from "./support/tui.js";
import { perWorldTest } from "./support/worldTest.js";

const worlds = perWorldTest();

/**
 * A goal of CJK, combining accents, Hebrew and a ZWJ emoji; its /loop-status row, "  goal in <file>: GOAL", has its
 * 127th and 128th UTF-16 units in the rocket, where a cut by units at 128 would leave half of it (composed, as
 * Claude Code passes on what is typed).
 */
const GOAL = "Translate the 日本語 guide, café (cafe\u0301) notes,, שלום עולם the 👨‍👩‍👧 family page 🚀 and ship it";
const GOAL_ROW_HEAD = "  goal in .claude/continuation-loop.local.md: ";
/** Claude's question, whose 39th and 40th units are one emoji (the band shows its first 40). */
const QUESTION = `${"Keep the 日本語 names for the old report tables".slice(0, 38)}🚀 or rename them?`;
/** The loop's sign in the band (the companion module) and in the status line. */
const BAND = /⟳ continuation-loop · loop paused 1\/5/;
const STATUS_LINE = /⟳ loop paused 1\/5/;
/** What a screen must never show: a replacement character (half an emoji), or an escape sequence's text. */
const GARBLED = /\uFFFD|\x1b|\[\d+(;\d+)*m/;

const rowsMatching = (screen: string, pattern: RegExp) => screen.split("\n").filter((row) => pattern.test(row));

/** The row under the band: where a band that wrapped, or a row of an earlier width's band, would be. */
function rowBelowBand(screen: string): string {
  const rows = screen.split("\n");
  return rows[rows.findIndex((row) => BAND.test(row)) + 1] ?? "";
}

/** Types a line of text the screen cannot echo character for character (joined emoji), then Enter once its end shows. */
async function typeLine(tui: Tui, line: string, end: string): Promise<void> {
  tui.type(line);
  await tui.waitFor((screen) => screen.replace(/\s+/g, "").includes(end.replace(/\s+/g, "")));
  tui.press("enter");
  await tui.waitFor(
    (screen) =>
      !screen.replace(/\s+/g, "").includes(end.replace(/\s+/g, "")) || BAND.test(screen) || STATUS_LINE.test(screen),
    30_000,
  );
}

/** The rows of the last /loop-status answer on screen: from its head to its `last:` row. */
function statusAnswer(tui: Tui): string[] | undefined {
  const rows = tui.lines();
  let end = rows.length - 1;
  while (end >= 0 && !/last: #1 pause/.test(rows[end] ?? "")) end--;
  let start = end;
  while (start >= 0 && !/loop paused, iteration 1\/5/.test(rows[start] ?? "")) start--;
  return end < 0 || start < 0 ? undefined : rows.slice(start, end + 1);
}

/** Types /loop-status and waits for a new answer to show whole. */
async function typeStatus(tui: Tui): Promise<string[]> {
  const before = tui.lines().filter((row) => /last: #1 pause/.test(row)).length;
  await tui.submitAnswered(
    "/continuation-loop:loop-status",
    () => tui.lines().filter((row) => /last: #1 pause/.test(row)).length > before && statusAnswer(tui) !== undefined,
  );
  return statusAnswer(tui) ?? [];
}

describe.each(CLAUDE_VERSIONS)("Claude Code %s: a resize mid-loop", (version) => {
  it("re-fits the band, the status line and /loop-status at 140 → 60 → 140 columns, with wide characters cut whole", async () => {
    expect(`${GOAL_ROW_HEAD}${GOAL.normalize("NFC")}`.codePointAt(126)).toBe(0x1f680);
    expect(QUESTION.codePointAt(38)).toBe(0x1f680);
    const module = version === NEWEST;
    const world = worlds.world(version);
    const held = heldScript([text(`Drafted the guide. <loop-pause>${QUESTION}</loop-pause>`), HOLD]);
    worlds.releaseAfter(() => held.release());
    await world.start(held.script);
    // The status line the README shows, beside the world's own settings.
    const settings = path.join(world.home, ".claude", "settings.json");
    const statusLine = {
      type: "command",
      command: `node "${path.join(REPO_ROOT, "hooks", "cli.js")}" statusline`,
      refreshInterval: 1,
    };
    fs.writeFileSync(settings, JSON.stringify({ ...JSON.parse(fs.readFileSync(settings, "utf8")), statusLine }));
    const tui = await worlds.tui(world, { cols: 140, rows: 40 });

    await typeLine(tui, `/continuation-loop:loop-start --max-iterations 5 ${GOAL}`, "and ship it");
    // The loop waits for the answer to Claude's question: the status line (and the band) say so.
    const wide = await tui.waitFor(
      (s) => STATUS_LINE.test(s) && (!module || /Claude asks: /.test(rowsMatching(s, BAND)[0] ?? "")),
      60_000,
    );
    expect(wide).not.toMatch(GARBLED);
    if (module) expect(rowsMatching(wide, BAND)).toHaveLength(1);

    // Narrower and shorter: at the next draw the band is one row cut at the edge, nothing of it on another row.
    tui.resize(60, 15);
    const narrow = await tui.waitFor(
      (s) =>
        rowsMatching(s, STATUS_LINE).length === 1 &&
        (!module ||
          (rowsMatching(s, BAND).length === 1 &&
            rowsMatching(s, BAND)[0]?.includes("…") === true &&
            !/answers it|next prompt|Claude asks/.test(rowBelowBand(s)))),
      30_000,
    );
    expect(narrow).not.toMatch(GARBLED);
    for (const row of narrow.split("\n")) expect(row.length, narrow).toBeLessThanOrEqual(60);

    // /loop-status typed at 60 columns (rows enough to read it): the module's answer fits the new width.
    tui.resize(60, 40);
    const at60 = await typeStatus(tui);
    expect(at60.join("\n")).not.toMatch(GARBLED);
    if (module) {
      const indent = at60[0]!.search(/\S/);
      for (const row of at60.slice(1)) expect(row, at60.join("\n")).toMatch(new RegExp(`^ {${indent + 2},}\\S`));
    }

    // Back to 140: the band shows the question's start and how to go on, on one row again; /loop-status takes the width back.
    tui.resize(140, 40);
    const back = await tui.waitFor(
      (s) =>
        rowsMatching(s, STATUS_LINE).length === 1 &&
        (!module || /Claude asks: Keep the .*— your next/.test(rowsMatching(s, BAND)[0] ?? "")),
      30_000,
    );
    expect(back).not.toMatch(GARBLED);
    const at140 = await typeStatus(tui);
    expect(at140.join("\n")).not.toMatch(GARBLED);
    // The goal's row reaches past the emoji a cut by characters would have halved.
    expect(at140.join(" ")).toMatch(/family page/);
    if (module) {
      expect(at140.length, at140.join("\n")).toBeLessThan(at60.length);
      expect(Math.max(...at140.map((row) => row.length)), at140.join("\n")).toBeGreaterThan(60);
    }
  });
});
