// `continuation-loop` itself in a pseudo-terminal drawn by a headless terminal emulator, read row by row as a person
// watching it would (Claude Code's own terminal runs in tui.ts).
import pty from "@lydell/node-pty";
import xterm from "@xterm/headless";
import { CLI } from "../../e2e/support/runCommand.js";

export interface CliTerminal {
  term: xterm.Terminal;
  child: pty.IPty;
  /** Every byte the command wrote, as written. */
  raw: () => string;
  exited: Promise<number>;
  /** The emulator's rows once what was written so far is drawn. */
  rows: () => Promise<string[]>;
  /** The rows once `test` holds of them; throws after 60 s with the screen. */
  waitForRows: (test: (rows: string[]) => boolean, what: string) => Promise<string[]>;
  /** Ends the command and what it started. */
  stop: () => void;
}

export function startCliTerminal(
  args: readonly string[],
  opts: { cwd: string; env: Record<string, string>; cols: number; rows: number; term?: xterm.Terminal },
): CliTerminal {
  const term = opts.term ?? new xterm.Terminal({ cols: opts.cols, rows: opts.rows, allowProposedApi: true });
  const child = pty.spawn(process.execPath, [CLI, ...args], {
    name: "xterm-256color",
    cols: opts.cols,
    rows: opts.rows,
    cwd: opts.cwd,
    env: opts.env,
  });
  let raw = "";
  child.onData((data) => {
    raw += data;
    term.write(data);
  });
  const exited = new Promise<number>((resolve) => child.onExit(({ exitCode }) => resolve(exitCode)));
  const rows = async () => {
    await new Promise<void>((resolve) => term.write("", resolve));
    const buf = term.buffer.active;
    const out: string[] = [];
    for (let i = 0; i < buf.length; i++) out.push(buf.getLine(i)?.translateToString(true) ?? "");
    return out;
  };
  const waitForRows = async (test: (rows: string[]) => boolean, what: string) => {
    const deadline = Date.now() + 60_000;
    for (;;) {
      const now = await rows();
      if (test(now)) return now;
      if (Date.now() > deadline) throw new Error(`no ${what} on screen:\n${now.join("\n")}`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  };
  const stop = () => {
    try {
      process.kill(-child.pid, "SIGKILL");
    } catch {
      // gone
    }
  };
  return { term, child, raw: () => raw, exited, rows, waitForRows, stop };
}
