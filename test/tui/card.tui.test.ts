// The usage card and `--help` typed in a session at 80 columns, read from the screen: Claude Code wraps a
// blocked prompt's answer short of the edge, so each example must be a whole command on its own row, one a
// person copies, and each flag's description must wrap under itself, never back at the answer's edge.
import { describe, expect, it } from "vitest";
import { CLAUDE_VERSIONS } from "../e2e/support/runClaude.js";
import type { Tui } from "./support/tui.js";
import { perWorldTest } from "./support/worldTest.js";

const worlds = perWorldTest();
const COMMAND = "/continuation-loop:loop-start";
/** The card's last row, and its first. */
const CARD_END = /ends it\.\s*$/;
const CARD_HEAD = /Usage: \/continuation-loop:loop-start /;

/** The rows of the last answer on screen: from its card's head to `last` (searched from the bottom). */
function answerRows(tui: Tui, last: RegExp): string[] | undefined {
  const rows = tui.history();
  let end = -1;
  for (let i = rows.length - 1; i >= 0 && end < 0; i--) if (last.test(rows[i] ?? "")) end = i;
  let start = -1;
  for (let i = end; i >= 0 && start < 0; i--) if (CARD_HEAD.test(rows[i] ?? "")) start = i;
  return start < 0 ? undefined : rows.slice(start, end + 1).filter((row) => row.trim() !== "");
}

/** The input box's row, the lowest that starts with the prompt sign. */
const boxRow = (tui: Tui) => [...tui.lines()].reverse().find((row) => /^❯/.test(row));

/** Types a command whose answer is a refusal; once it shows, empties the box if the command came back there. */
async function answered(tui: Tui, text: string, last: RegExp): Promise<string[]> {
  const count = () => tui.history().filter((row) => last.test(row)).length;
  const before = count();
  tui.type(text);
  await tui.waitFor(() => boxRow(tui)?.includes(text) === true);
  tui.press("enter");
  await tui.waitFor(() => count() > before && answerRows(tui, last) !== undefined, 60_000);
  // 2.1.332 may put a refused command back into the box: erased key by key (two ctrl+c would end the session).
  await tui.waitFor(() => {
    if (boxRow(tui)?.includes(COMMAND)) for (const _ of `${text}..`) tui.press("backspace");
    return boxRow(tui)?.includes(COMMAND) === false;
  });
  return answerRows(tui, last) ?? [];
}

/** Each example: a whole command on one row, and what ends it on the next. */
function expectWholeExamples(rows: string[]): void {
  const examples = rows.filter((row) => row.trimStart().startsWith(`${COMMAND} --`) && !row.includes("--help"));
  expect(examples, rows.join("\n")).toHaveLength(3);
  for (const example of examples) {
    expect(example.trim(), rows.join("\n")).toMatch(
      /^\/continuation-loop:loop-start --(until|checklist|verify) .* \S+$/,
    );
    // A goal left on the next row would be missed by a person who copies the command's row.
    expect(rows[rows.indexOf(example) + 1], rows.join("\n")).toMatch(/^ +— ends (when|on) /);
  }
  for (const row of rows) expect(row.length, row).toBeLessThanOrEqual(80);
}

describe.each(CLAUDE_VERSIONS)("Claude Code %s: the usage card at 80 columns", (version) => {
  it("with no goal and with --help: whole example commands, and --help's descriptions under themselves", async () => {
    const world = worlds.world(version);
    await world.start([]);
    const tui = await worlds.tui(world, { cols: 80, rows: 200 });

    expectWholeExamples(await answered(tui, COMMAND, CARD_END));

    const help = await answered(tui, `${COMMAND} --help`, /--fresh-context\[=false\]|default false\)/);
    const card = help.slice(0, help.findIndex((row) => CARD_END.test(row)) + 1);
    expectWholeExamples(card);
    // The flags' rows: a flag at the answer's edge, or a description's row under the descriptions' column; no
    // word of a description wrapped back to the edge.
    const flags = help.slice(help.findIndex((row) => /^ +--name NAME/.test(row)));
    expect(flags.length, help.join("\n")).toBeGreaterThan(20);
    const column = Math.min(...flags.filter((row) => !/^ +--/.test(row)).map((row) => row.search(/\S/)));
    expect(column, help.join("\n")).toBeGreaterThan(20);
    for (const row of flags) expect(row, help.join("\n")).toMatch(/^ {1,6}--[a-z]|^ {20,}\S/);
  });
});
