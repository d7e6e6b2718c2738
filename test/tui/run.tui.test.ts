// `continuation-loop run` in a real terminal: its progress is one live line, rewritten in place as the
// loop goes on, read through a terminal emulator as a person watching it would.
import { afterEach, describe, expect, it } from "vitest";
import { cellWidth } from "../../src/core/cellWidth.js";
import { type MessagesServer, startMessagesServer, text } from "../e2e/support/messagesServer.js";
import { type LoopProject, makeLoopProject } from "../e2e/support/loopProject.js";
import { runCommandEnv } from "../e2e/support/runCommand.js";
import { NEWEST } from "../e2e/support/runClaude.js";
import { startCliTerminal } from "./support/cliTerminal.js";

let server: MessagesServer | undefined;
let project: LoopProject | undefined;
let release: (() => void) | undefined;
let stop: (() => void) | undefined;

afterEach(async () => {
  release?.();
  stop?.();
  await server?.close();
  project?.cleanup();
  server = project = release = stop = undefined;
});

const PROGRESS_ROW = /^\[\d+\/6\]/;
const WIDE_REPLY = "報告書の数字を台帳と照合しました".repeat(4);
/** A terminal as narrow as the default one: the live line must fit it to be redrawn in place. */
const COLS = 80;

// The live line is the helper's own drawing; both pins run `run` itself in test/e2e/run.e2e.test.ts.
describe.each([NEWEST])("Claude Code %s", (version) => {
  it("shows the loop's progress as one live line, rewritten in place, then the end", async () => {
    const p = (project = makeLoopProject());
    let reached!: () => void;
    const third = new Promise<void>((resolve) => {
      reached = resolve;
    });
    const released = new Promise<void>((resolve) => {
      release = resolve;
    });
    let n = 0;
    server = await startMessagesServer(async () => {
      n++;
      if (n === 3) {
        reached();
        await released;
      }
      // The reply the live line quotes at iteration 3: in a wide script, two cells a character.
      return text(n >= 6 ? "<promise>DONE</promise>" : n === 2 ? `reply 2 ${WIDE_REPLY}` : `reply ${n}`);
    });
    const { env } = runCommandEnv(version, {
      dir: p.root,
      baseUrl: server.url,
      home: p.home,
      env: { TERM: "xterm-256color" },
    });
    const t = startCliTerminal(["run", "--max-iterations", "6", "Count to six"], {
      cwd: p.proj,
      env,
      cols: COLS,
      rows: 30,
    });
    stop = t.stop;
    const { term, child, rows, waitForRows, exited } = t;

    // Iteration 3's request is held: iterations 1 and 2 are done, and the one line says so.
    await third;
    const during = await waitForRows(
      (r) => r.some((row) => row.startsWith("[3/6]") && row.includes('"reply 2 報告書')),
      "live line at iteration 3",
    );
    // One row, cut to the width (with "…"): a line wider than the terminal would wrap, and each redraw would
    // leave its first row behind.
    expect(during.filter((row) => PROGRESS_ROW.test(row))).toHaveLength(1);
    const live = during.findIndex((row) => PROGRESS_ROW.test(row));
    expect(during[live]?.endsWith("…")).toBe(true);
    expect(during.slice(live + 1).filter((row) => row.includes("照合"))).toEqual([]);
    // It got there by rewriting its row: erase the line, write it again.
    expect(t.raw().split("\r\x1b[2K[").length - 1).toBeGreaterThanOrEqual(2);

    // Narrower mid-loop. The live line redraws on a timer, and a redraw written at the old width after the grid
    // narrowed wraps in any terminal: so the pseudo-terminal's size changes first (SIGWINCH), and the grid once a
    // redraw at the new width is out. Then the next redraws fit the new width, on one row, and nothing of the wider
    // line is left on another.
    const redraws = () =>
      t
        .raw()
        .split("\r\x1b[2K")
        .slice(1)
        .map((line) => line.split(/[\r\n]/)[0] ?? "");
    const before = redraws().length;
    child.resize(50, 30);
    await waitForRows(
      () =>
        redraws()
          .slice(before)
          .some((line) => cellWidth(line) < 50),
      "a redraw at the new width",
    );
    term.resize(50, 30);
    const drawn = redraws().length;
    const narrow = await waitForRows(() => redraws().length >= drawn + 2, "two redraws after the resize");
    expect(
      narrow.filter((row) => PROGRESS_ROW.test(row)),
      narrow.join("\n"),
    ).toHaveLength(1);
    const row = narrow.findIndex((line) => PROGRESS_ROW.test(line));
    expect(narrow[row]?.endsWith("…"), narrow.join("\n")).toBe(true);
    expect(narrow.slice(row + 1).join(""), narrow.join("\n")).toBe("");
    term.resize(COLS, 30);
    child.resize(COLS, 30);

    release?.();
    expect(await exited).toBe(0);
    const after = await rows();
    expect(after.filter((row) => PROGRESS_ROW.test(row))).toEqual([]);
    expect(after.some((row) => row.startsWith("continuation-loop: the loop completed at iteration 6/6"))).toBe(true);
    term.dispose();
  });
});
