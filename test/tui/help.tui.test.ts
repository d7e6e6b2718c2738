// `--help` in a real terminal, read through a terminal emulator as a person reads it: the flags' descriptions
// start in one column and wrap under themselves at the terminal's width, never back to its left edge.
import pty from "@lydell/node-pty";
import xterm from "@xterm/headless";
import { describe, expect, it } from "vitest";
import { CLI } from "../e2e/support/runCommand.js";

/** The screen's rows once `continuation-loop ARGS` has run in a terminal `cols` wide; wrapped: a row the terminal wrapped. */
async function runInTerminal(args: string[], cols: number, exit = 0): Promise<{ text: string; wrapped: boolean }[]> {
  const term = new xterm.Terminal({ cols, rows: 200, scrollback: 0, allowProposedApi: true });
  const child = pty.spawn(process.execPath, [CLI, ...args], {
    name: "xterm-256color",
    cols,
    rows: 200,
    env: process.env,
  });
  child.onData((data) => term.write(data));
  const code = await new Promise<number>((resolve) => child.onExit(({ exitCode }) => resolve(exitCode)));
  expect(code).toBe(exit);
  await new Promise<void>((resolve) => term.write("", resolve));
  const buf = term.buffer.active;
  const rows: { text: string; wrapped: boolean }[] = [];
  for (let i = 0; i < buf.length; i++) {
    const line = buf.getLine(i);
    rows.push({ text: line?.translateToString(true) ?? "", wrapped: line?.isWrapped ?? false });
  }
  term.dispose();
  return rows;
}

describe("--help in a terminal", () => {
  it.each([64, 100, 160])("start --help fits the flags' rows to a terminal %i columns wide", async (cols) => {
    const rows = await runInTerminal(["start", "--help"], cols);
    // From the options' paragraph on, the helper fits every row itself: the terminal wraps none.
    const from = rows.findIndex((row) => row.text.startsWith("Options come first"));
    expect(from).toBeGreaterThan(0);
    const body = rows.slice(from).filter((row) => row.text.trim() !== "");
    expect(body.filter((row) => row.wrapped)).toEqual([]);
    // Every flag's description starts in one column, and each continuation line in that same column.
    const flags = body.filter((row) => row.text.startsWith("  --"));
    expect(flags.length).toBeGreaterThan(20);
    const starts = new Set(
      flags.map((row) => row.text.indexOf("  ", 4) + row.text.slice(row.text.indexOf("  ", 4)).search(/\S/)),
    );
    expect(starts.size).toBe(1);
    const [at] = [...starts];
    const continued = body.filter((row) => row.text.startsWith(" ".repeat(6)) && !row.text.startsWith("  --"));
    expect(continued.length).toBeGreaterThan(cols < 120 ? 10 : 0);
    for (const row of continued) expect(row.text.search(/\S/)).toBe(at);
    // What each flag does and its default, from the field table.
    expect(body.map((row) => row.text.trim()).join(" ")).toMatch(
      /--max-iterations N +most turns in the loop, the first one counted \(default 10\)/,
    );
  });

  it.each([
    ["start --help", ["start", "--help"], 0],
    ["start with no goal", ["start"], 2],
  ] as const)(
    "%s at 80 columns: every example command on one row, its explanation on the next",
    async (_name, args, exit) => {
      const rows = (await runInTerminal([...args], 80, exit)).filter((row) => row.text.trim() !== "");
      const head = rows.findIndex((row) => row.text.startsWith("Usage: continuation-loop start"));
      const card = rows.slice(head, rows.findIndex((row) => /ends it\.$/.test(row.text)) + 1);
      expect(card.length).toBeGreaterThan(6);
      // The terminal wraps no row of the card: the helper broke the long ones at words, under themselves.
      expect(card.filter((row) => row.wrapped)).toEqual([]);
      const examples = card.filter((row) => row.text.startsWith("  continuation-loop start --"));
      expect(examples.map((row) => row.text.trim())).toEqual([
        expect.stringMatching(/--until "npm test" \S.*\S$/),
        expect.stringMatching(/--checklist \S.*\S$/),
        expect.stringMatching(/--verify "npm run build" \S.*\S$/),
      ]);
      for (const example of examples) expect(card[card.indexOf(example) + 1]?.text).toMatch(/^ {6}— ends (when|on) /);
    },
  );

  it("lists the commands within a terminal 70 columns wide", async () => {
    const rows = await runInTerminal(["--help"], 70);
    const list = rows.slice(
      0,
      rows.findIndex((row) => row.text.startsWith("In Claude Code")),
    );
    expect(list.filter((row) => row.wrapped)).toEqual([]);
    expect(list.some((row) => row.text.startsWith("  restore N|best"))).toBe(true);
  });
});
