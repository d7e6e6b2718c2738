import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { plainOutput } from "../../src/app/context.js";
import { cellWidth, clipToCells } from "../../src/core/cellWidth.js";
import { parseLastNumber } from "../../src/core/metric.js";
import { readPlainTail, renderPlainText, renderWithoutEscapes } from "../../src/core/plainText.js";
import { tailOf } from "../../src/io/runVerify.js";

const FIXTURES = join(import.meta.dirname, "..", "fixtures", "output");
/** The same failing vitest run with FORCE_COLOR=1 and without colour (its timings differ). */
const COLOUR = readFileSync(join(FIXTURES, "vitest-failure.colour.txt"), "utf8");
const PLAIN = readFileSync(join(FIXTURES, "vitest-failure.plain.txt"), "utf8");
const CONTROL = /[\x00-\x08\x0b-\x1f\x7f-\x9f]/;
const untimed = (text: string) => text.replace(/\d+ms/g, "Nms").replace(/\d\d:\d\d:\d\d/, "T");

/** A download bar redrawn 2,000 times on one line, between two lines of real text. */
const BAR = Array.from(
  { length: 2000 },
  (_, step) => `\r\x1b[2Kdownloading [${"#".repeat(Math.floor(step / 50)).padEnd(40)}] ${Math.floor(step / 20)}%`,
).join("");
const PROGRESS = `step 1 ok\n${BAR}\nError: checksum mismatch\n`;

describe("renderPlainText", () => {
  it("gives a colour test run's failure as the run without colour prints it", () => {
    const shown = renderPlainText(COLOUR);
    expect(shown).not.toMatch(CONTROL);
    expect(untimed(shown)).toBe(untimed(PLAIN));
  });

  it("keeps a redrawn line's last state, the text a terminal leaves", () => {
    expect(renderPlainText(PROGRESS)).toBe(
      `step 1 ok\ndownloading [${"#".repeat(39).padEnd(40)}] 99%\nError: checksum mismatch\n`,
    );
    expect(renderPlainText("50%\r100%")).toBe("100%");
    expect(renderPlainText("downloading\rdone")).toBe("doneloading");
    expect(renderPlainText("downloading\r\x1b[Kdone")).toBe("done");
    expect(renderPlainText("downloading\x1b[1G\x1b[0Kdone")).toBe("done");
    expect(renderPlainText("abc\x1b[2Kd")).toBe("   d");
    expect(renderPlainText("ab\x08\x08xy")).toBe("xy");
    expect(renderPlainText("ok\r\nnext\r\n")).toBe("ok\nnext\n");
  });

  it("drops every escape sequence and control character, and nothing else", () => {
    const cases: [string, string][] = [
      ["\x1b]0;my title\x07after", "after"],
      ["\x1b]52;c;aGVsbG8+d29ybGQ/\x07after", "after"],
      ["\x1b]8;;https://example.com/a?b=1\x1b\\link\x1b]8;;\x1b\\", "link"],
      ["\x1b[2J\x1b[H\x1b[3;4Hx\x1b[5A", "x"],
      ["\x1b[38;2;255;0;0mred\x1b[0m \x9b31mc1", "red c1"],
      ["\x1bPq#0;2\x1b\\dcs \x1b7save\x1b8 \x1b(Bok", "dcs save ok"],
      ["a\x07b\x00c\x7fd\x85e\x1b", "abcde"],
      ["\x1b]0;never ended\nnext line", "\nnext line"],
      ["tab\tstays", "tab\tstays"],
    ];
    for (const [text, shown] of cases) expect(renderPlainText(text)).toBe(shown);
  });

  it("drops the bidi embeddings, overrides and isolates, on a redrawn line too; keeps right-to-left text and marks", () => {
    // A name ending in an override reverses the rest of its line in a terminal with bidi: "3/10" shows as "01/3".
    expect(renderPlainText("fix\u202e · 3/10")).toBe("fix · 3/10");
    expect(renderPlainText("\u202a\u202b\u202c\u202d\u2066a\u2067b\u2068c\u2069")).toBe("abc");
    expect(renderPlainText("50%\r\u202e100%")).toBe("100%");
    expect(renderPlainText("50%\r\u2066100%\u2069 \u202a\u202d\u2069")).toBe("100% ");
    expect(renderWithoutEscapes("reply \u2067txt.exe\r\n")).toBe("reply txt.exe\r\n");
    const hebrew = "שלום \u200fעולם\u200e ok\u061c";
    expect(renderPlainText(hebrew)).toBe(hebrew);
    expect(cellWidth("fix\u202e · 3/10")).toBe(cellWidth("fix · 3/10"));
  });

  it("returns plain text as it is", () => {
    const text = "Ship 🚀 the 日本語 docs — café\u0301\n\tindented\n";
    expect(renderPlainText(text)).toBe(text);
  });
});

describe("renderWithoutEscapes (Claude Code's output that run passes on)", () => {
  it("drops escape sequences and controls, and keeps every line break, a lone CR too", () => {
    const reply = "::error::the last reply\r::add-mask::x \x1b[2J\x1b]0;PWNED\x07kept\tthere\r\n";
    expect(renderWithoutEscapes(reply)).toBe("::error::the last reply\r::add-mask::x kept\tthere\r\n");
    expect(renderWithoutEscapes("plain\r\ntext")).toBe("plain\r\ntext");
  });
});

describe("tailOf (what Claude reads of a command's output)", () => {
  it("counts its lines and characters after cleaning", () => {
    const raw = COLOUR.trimEnd().split("\n").slice(-30).join("\n");
    const tail = tailOf(COLOUR);
    expect(tail).not.toMatch(CONTROL);
    expect(untimed(tail)).toBe(untimed(tailOf(PLAIN)));
    expect(tail.length).toBeLessThan(raw.length);
  });

  it("gives a progress bar's last state and keeps the lines before it", () => {
    expect(tailOf(PROGRESS)).toBe(
      `step 1 ok\ndownloading [${"#".repeat(39).padEnd(40)}] 99%\nError: checksum mismatch`,
    );
  });

  it("skips lines left blank by cleaning at the end", () => {
    expect(readPlainTail("one\ntwo\n\x1b[0m\n\x1b[?25h", 1)).toEqual(["two"]);
    expect(tailOf("\x1b[0m")).toBe("(no output)");
  });
});

describe("parseLastNumber with colour and redraws", () => {
  it("reads the figure, not a colour code's digits", () => {
    expect(parseLastNumber("score: \x1b[32m42\x1b[0m\n")).toEqual({ value: 42 });
    expect(parseLastNumber("coverage 10%\rcoverage 87.5%\n")).toEqual({ value: 87.5 });
  });
});

describe("what a person's terminal is given", () => {
  it("counts and cuts the cells the text shows, its escapes dropped", () => {
    expect(cellWidth("\x1b[31mred\x1b[0m")).toBe(3);
    expect(cellWidth("\x1b]0;a long window title\x07日本")).toBe(4);
    expect(clipToCells("\x1b]52;c;aGVsbG8=\x07abcdef", 4)).toBe("abc…");
    expect(clipToCells("go\x1b[2J\x1b[H on", 10)).toBe("go on");
  });

  it("plainOutput cleans what a command prints, and reads the rest through its context", () => {
    const printed: string[] = [];
    const ctx = plainOutput({
      env: {},
      cwd: "/p",
      home: "/h",
      now: () => 1,
      packageRoot: "/r",
      readStdin: () => "",
      out: (text) => printed.push(`out:${text}`),
      err: (text) => printed.push(`err:${text}`),
      columns: 90,
    });
    ctx.out("goal: ship\x1b]0;PWNED\x07 it\n");
    ctx.err("\x1b[2Jcleared?\n");
    expect(printed).toEqual(["out:goal: ship it\n", "err:cleared?\n"]);
    expect([ctx.cwd, ctx.columns, ctx.now()]).toEqual(["/p", 90, 1]);
  });
});
