// A loop's data holding escape sequences (a pasted goal, a reply), shown in a real terminal: `continuation-loop
// status` and `run`'s live line, read through a pseudo-terminal and a headless terminal emulator. The screen shows
// the text; it is never cleared, retitled or written to the clipboard by the loop's data.
import { execFileSync } from "node:child_process";
import xterm from "@xterm/headless";
import { afterEach, describe, expect, it } from "vitest";
import { type LoopProject, makeLoopProject } from "../e2e/support/loopProject.js";
import { type MessagesServer, startMessagesServer, text } from "../e2e/support/messagesServer.js";
import { cleanEnv, NEWEST } from "../e2e/support/runClaude.js";
import { CLI, runCommandEnv } from "../e2e/support/runCommand.js";
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

/** Clear the screen and home the cursor, retitle the window, write the clipboard, a link, a bell. */
const HOSTILE = (words: [string, string, string, string]) =>
  `${words[0]}\x1b[2J\x1b[H ${words[1]} \x1b]0;PWNED\x07${words[2]} \x1b]52;c;cHduZWQ=\x07${words[3]} \x1b]8;;https://example.com\x1b\\it\x1b]8;;\x1b\\\x07`;
const EARLIER = "a line printed before the command";

/** A command in a pseudo-terminal, drawn by a headless emulator that records title changes and clipboard writes. */
function watch(args: string[], cwd: string, env: Record<string, string>) {
  const term = new xterm.Terminal({ cols: 100, rows: 30, allowProposedApi: true });
  const titles: string[] = [];
  const clipboard: string[] = [];
  term.onTitleChange((title) => titles.push(title));
  term.parser.registerOscHandler(52, (data) => {
    clipboard.push(data);
    return true;
  });
  term.write(`${EARLIER}\r\n`);
  const shown = startCliTerminal(args, { cwd, env, cols: 100, rows: 30, term });
  stop = shown.stop;
  return { ...shown, titles, clipboard };
}

describe("a loop's data holding escape sequences, on a person's terminal", () => {
  it("`status` shows the goal as text: the screen is not cleared, retitled or written to the clipboard", async () => {
    const p = (project = makeLoopProject());
    const env = { ...cleanEnv({ baseUrl: "http://127.0.0.1:9", home: p.home }), TERM: "xterm-256color" };
    const goal = HOSTILE(["Fix the build", "now", "and", "ship"]);
    execFileSync(process.execPath, [CLI, "start", "--max-iterations", "5", goal], { cwd: p.proj, env, stdio: "pipe" });
    const shown = watch(["status"], p.proj, env);

    expect(await shown.exited).toBe(0);
    const rows = await shown.rows();
    expect(rows[0]).toBe(EARLIER);
    expect(rows.join("\n")).toContain("Fix the build now and ship it");
    expect(shown.titles).toEqual([]);
    expect(shown.clipboard).toEqual([]);
    // Nothing but text and line ends reaches the terminal.
    expect(shown.raw()).not.toMatch(/[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f]/);
    shown.term.dispose();
  });

  // The live line is the helper's own drawing; run.tui.test.ts has its redraws, run.e2e.test.ts both pins.
  it.each([NEWEST])("Claude Code %s: `run`'s live line quotes a reply as text", async (version) => {
    const p = (project = makeLoopProject());
    let reached!: () => void;
    const second = new Promise<void>((resolve) => {
      reached = resolve;
    });
    const released = new Promise<void>((resolve) => {
      release = resolve;
    });
    let n = 0;
    server = await startMessagesServer(async () => {
      n++;
      if (n === 2) {
        reached();
        await released;
      }
      return text(n >= 3 ? "<promise>DONE</promise>" : HOSTILE(["Checked", "the", "ledger", "twice"]));
    });
    const { env } = runCommandEnv(version, {
      dir: p.root,
      baseUrl: server.url,
      home: p.home,
      env: { TERM: "xterm-256color" },
    });
    const goal = HOSTILE(["Count", "to", "three", "please"]);
    const shown = watch(["run", "--max-iterations", "4", goal], p.proj, env);

    await second;
    const during = await shown.waitForRows(
      (r) => r.some((row) => row.startsWith("[2/4]") && row.includes("Checked the ledger twice it")),
      "live line at iteration 2",
    );
    expect(during[0]).toBe(EARLIER);
    expect(shown.titles).toEqual([]);
    expect(shown.clipboard).toEqual([]);
    // Its own redraw (return, erase the line) is the only escape it writes.
    expect(shown.raw().replaceAll("\r\x1b[2K", "")).not.toMatch(/[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f]/);

    release?.();
    expect(await shown.exited).toBe(0);
    expect(shown.titles).toEqual([]);
    expect(shown.clipboard).toEqual([]);
    shown.term.dispose();
  });
});
