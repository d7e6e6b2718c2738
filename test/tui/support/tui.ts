// Runs the real interactive Claude Code in a pseudo-terminal, offline against the scripted Messages
// server, and reads the screen through a terminal emulator, as a person at the terminal would.
import fs from "node:fs";
import path from "node:path";
import pty from "@lydell/node-pty";
import xterm from "@xterm/headless";
import { type BackgroundWorld, waitUntil } from "../../e2e/support/background.js";
import { type ClaudeVersion, cleanEnv, REPO_ROOT } from "../../e2e/support/runClaude.js";
import { bellCount, oscPayloads } from "./screen.js";

/** An API key long enough that its last 20 characters (what Claude Code remembers as approved) are its own. */
const TUI_API_KEY = "sk-ant-api03-tui-harness-0123456789abcdefghij";
/** A claude.ai OAuth token for the scripted server, which accepts any (`subscription: true`). */
const SUBSCRIPTION_TOKEN = "sk-ant-oat01-tui-harness-subscription";

export interface TuiOptions {
  /** Which Claude Code runs (one of `CLAUDE_VERSIONS`). */
  version: ClaudeVersion;
  /** Base URL of the scripted messages server (`server.url`). */
  baseUrl: string;
  /** Project directory Claude Code starts in (trusted in the prepared HOME). */
  cwd: string;
  /** Throwaway HOME; {@link prepareHome} fills it unless `prepareHome: false`. */
  home: string;
  /** Default: the repository itself, so the plugin under test is loaded. */
  pluginDirs?: string[];
  /** Tools granted without asking, e.g. `['Bash(echo:*)', 'Write']` (root may not skip permissions). */
  allowedTools?: string[];
  extraArgs?: string[];
  /** Added on top of the clean env; wins over the defaults. */
  env?: Record<string, string>;
  /**
   * Sign in as a claude.ai subscriber (an OAuth token in CLAUDE_CODE_OAUTH_TOKEN) instead of with an API key:
   * only then does Claude Code read the API's usage-limit headers (test/e2e/support/README.md).
   */
  subscription?: boolean;
  /** Terminal size; tall by default because 2.1.330 draws full-screen, with no scrollback. */
  cols?: number;
  rows?: number;
  /** Write `$HOME/.claude.json` (default true). */
  prepareHome?: boolean;
  /** Kill the process group after this many ms whatever happens (default 5 min). */
  timeoutMs?: number;
  /** How long startup may take before the input prompt shows (default 30 s). */
  startTimeoutMs?: number;
}

type Key =
  | "enter"
  | "escape"
  | "tab"
  | "shift+tab"
  | "backspace"
  | "up"
  | "down"
  | "left"
  | "right"
  | "ctrl+c"
  | "ctrl+d"
  | "ctrl+o"
  | "ctrl+s"
  | "ctrl+x";

const KEYS: Record<Key, string> = {
  enter: "\r",
  escape: "\x1b",
  tab: "\t",
  "shift+tab": "\x1b[Z",
  backspace: "\x7f",
  up: "\x1b[A",
  down: "\x1b[B",
  right: "\x1b[C",
  left: "\x1b[D",
  "ctrl+c": "\x03",
  "ctrl+d": "\x04",
  "ctrl+o": "\x0f",
  "ctrl+s": "\x13",
  "ctrl+x": "\x18",
};

type ScreenTest = RegExp | ((screen: string) => boolean);

export interface Tui {
  readonly version: ClaudeVersion;
  readonly pid: number;
  /** The visible screen: one line per row, trailing spaces trimmed, trailing empty rows dropped. */
  screen(): string;
  /** The visible rows (trailing spaces trimmed), `rows` of them. */
  lines(): string[];
  /** Every row the terminal still holds: scrollback (2.1.197 scrolls) and then the screen. */
  history(): string[];
  /** Polls the rendered screen until the test passes; on timeout (or exit) throws with the screen. */
  waitFor(test: ScreenTest, timeoutMs?: number): Promise<string>;
  /** Sends text as typed (no Enter). */
  type(text: string): void;
  /**
   * Resizes the terminal as an emulator does: its own grid first, then the pseudo-terminal's size, whose change
   * sends SIGWINCH to Claude Code.
   */
  resize(cols: number, rows: number): void;
  press(key: Key): void;
  /**
   * Types a line and presses Enter once the text shows in the input box, then waits until the box
   * has taken it. A slash command opens an autocomplete menu on both versions; with the whole
   * command typed, its first entry is that command and Enter runs it.
   */
  submit(text: string, timeoutMs?: number): Promise<void>;
  /**
   * Types `text` and Enter, then waits until `answered` holds, for a prompt the box may never be seen to take:
   * 2.1.197 puts a queued prompt a hook blocked back into the box (typed as the previous turn ends), and 2.1.332
   * any prompt a hook refused, at once when no hook process has to start. A box left holding it is emptied
   * (ctrl+c), as a person would, so that the next command is typed into an empty one.
   */
  submitAnswered(text: string, answered: () => boolean, timeoutMs?: number): Promise<void>;
  /** Everything the program wrote to the terminal, escape sequences included (BEL, OSC…). */
  raw(): string;
  /** BEL characters outside OSC sequences (an OSC may end with BEL; that is no bell). */
  bells(): number;
  /** OSC sequences written, without ESC ] and terminator, e.g. `0;✳ Claude Code` or `9;done`. */
  oscs(): string[];
  /** Resolves when the process exits. */
  readonly exited: Promise<{ exitCode: number; signal: number | undefined }>;
  /** Waits until the process exits; on timeout throws with the screen. */
  waitForExit(timeoutMs?: number): Promise<{ exitCode: number; signal: number | undefined }>;
  /** Kills the whole process group (hooks included) and waits for the exit. */
  close(): Promise<void>;
}

/**
 * A HOME in which the interactive UI starts offline with no dialog (measured on both versions):
 * onboarding done (else a welcome screen goes online and exits), a theme, the API key approved
 * (else a custom-key dialog defaults to "No"), and the project trusted (else a trust dialog).
 */
function prepareHome(home: string, project: string, apiKey = TUI_API_KEY): void {
  fs.mkdirSync(home, { recursive: true });
  const config = {
    hasCompletedOnboarding: true,
    theme: "dark",
    customApiKeyResponses: { approved: [apiKey.slice(-20)], rejected: [] },
    projects: {
      [fs.realpathSync(project)]: { hasTrustDialogAccepted: true, hasCompletedProjectOnboarding: true },
    },
  };
  fs.writeFileSync(path.join(home, ".claude.json"), JSON.stringify(config, null, 2));
}

function buildTuiArgs(opts: TuiOptions): string[] {
  const args: string[] = [];
  for (const dir of opts.pluginDirs ?? [REPO_ROOT]) args.push("--plugin-dir", dir);
  if (opts.allowedTools?.length) args.push("--allowedTools", opts.allowedTools.join(" "));
  args.push(...(opts.extraArgs ?? []));
  return args;
}

/** The input box's row: the prompt sign at the start of a line, on both versions. */
const PROMPT_ROW = /^❯ ?/;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const squash = (s: string) => s.replace(/\s+/g, "");

/**
 * Claude Code in a terminal in a background world (test/e2e/support/background.ts): its project, its HOME as the
 * world wrote it, the world's environment and its scripted server; `extra` adds to or overrides these.
 */
export function startTuiIn(world: BackgroundWorld, extra: Partial<TuiOptions> = {}): Promise<Tui> {
  if (!world.server) throw new Error("start() the world first");
  const { version, proj: cwd, home } = world;
  return startTui({ version, baseUrl: world.server.url, cwd, home, prepareHome: false, env: world.env(), ...extra });
}

/**
 * The world's history once Claude Code's Notification hook has recorded that the loop waits for a permission
 * answer (the event a permission test waits on); the screen is shown if it never comes.
 */
export function waitForPermissionRecord(world: BackgroundWorld, tui: Tui) {
  return waitUntil(
    () => world.history(),
    (h) => h.some((r) => r.decision === "waiting_permission"),
    "the permission wait's record",
  ).catch((error: Error) => {
    throw new Error(`${error.message}\nscreen:\n${tui.screen()}`);
  });
}

export async function startTui(opts: TuiOptions): Promise<Tui> {
  const cols = opts.cols ?? 120;
  const rows = opts.rows ?? 60;
  if (opts.prepareHome ?? true) prepareHome(opts.home, opts.cwd, opts.env?.ANTHROPIC_API_KEY ?? TUI_API_KEY);
  const { ANTHROPIC_API_KEY: _key, ...keyless } = cleanEnv({ baseUrl: opts.baseUrl, home: opts.home });
  const env = {
    ...keyless,
    ...(opts.subscription ? { CLAUDE_CODE_OAUTH_TOKEN: SUBSCRIPTION_TOKEN } : { ANTHROPIC_API_KEY: TUI_API_KEY }),
    TERM: "xterm-256color",
    ...opts.env,
  };
  const term = new xterm.Terminal({ cols, rows, scrollback: 10_000, allowProposedApi: true });
  // Claude Code's terminal queries (device attributes, XTVERSION, kitty keyboard…) go unanswered: the
  // emulator's replies are not written back, so both versions see a terminal that answers none.
  const child = pty.spawn(opts.version.bin, buildTuiArgs(opts), {
    name: "xterm-256color",
    cols,
    rows,
    cwd: opts.cwd,
    env,
  });
  const chunks: string[] = [];
  child.onData((data) => {
    chunks.push(data);
    term.write(data);
  });
  let exitInfo: { exitCode: number; signal: number | undefined } | undefined;
  const exited = new Promise<{ exitCode: number; signal: number | undefined }>((resolve) => {
    child.onExit(({ exitCode, signal }) => {
      exitInfo = { exitCode, signal };
      resolve(exitInfo);
    });
  });
  const killGroup = (): void => {
    if (exitInfo) return;
    try {
      // node-pty makes the child a session (and process group) leader: this reaches its hooks too.
      process.kill(-child.pid, "SIGKILL");
    } catch {
      child.kill("SIGKILL");
    }
  };
  const hardStop = setTimeout(killGroup, opts.timeoutMs ?? 300_000);
  hardStop.unref();

  const rowsOf = (from: number, count: number): string[] => {
    const buf = term.buffer.active;
    const out: string[] = [];
    for (let i = from; i < from + count; i++) out.push(buf.getLine(i)?.translateToString(true) ?? "");
    return out;
  };
  const lines = (): string[] => rowsOf(term.buffer.active.baseY, term.rows);
  const screen = (): string => lines().join("\n").replace(/\n+$/, "");
  // Resolves once the emulator has parsed everything received so far.
  const flush = () => new Promise<void>((resolve) => term.write("", resolve));
  const raw = (): string => chunks.join("");

  const waitFor = async (test: ScreenTest, timeoutMs = 15_000): Promise<string> => {
    const deadline = Date.now() + timeoutMs;
    const passes = (s: string) => (typeof test === "function" ? test(s) : test.test(s));
    for (;;) {
      await flush();
      const s = screen();
      if (passes(s)) return s;
      if (exitInfo || Date.now() > deadline) {
        const why = exitInfo ? `Claude Code exited (${JSON.stringify(exitInfo)})` : `timed out after ${timeoutMs} ms`;
        throw new Error(`waitFor(${String(test)}): ${why}. Claude Code ${opts.version.name} screen:\n${s}`);
      }
      await sleep(50);
    }
  };

  const waitForExit = async (timeoutMs = 60_000) => {
    const deadline = Date.now() + timeoutMs;
    while (!exitInfo) {
      if (Date.now() > deadline) {
        await flush();
        const s = screen();
        throw new Error(
          `waitForExit: still running after ${timeoutMs} ms. Claude Code ${opts.version.name} screen:\n${s}`,
        );
      }
      await sleep(50);
    }
    return exitInfo;
  };

  const inputRow = (): string => [...lines()].reverse().find((l) => PROMPT_ROW.test(l)) ?? "";

  /** Types a line, then Enter once it shows; returns it without whitespace, as the screen is compared. */
  const typeAndEnter = async (text: string, timeoutMs: number): Promise<string> => {
    child.write(text);
    // The input box may wrap a long line: compare without whitespace.
    const typed = squash(text);
    await waitFor(() => squash(screen()).includes(typed), timeoutMs);
    // Let the autocomplete menu settle on the typed command before Enter picks its first entry.
    await sleep(300);
    child.write(KEYS.enter);
    return typed;
  };

  const tui: Tui = {
    version: opts.version,
    pid: child.pid,
    screen,
    lines,
    history: () => rowsOf(0, term.buffer.active.length),
    waitFor,
    type: (text) => child.write(text),
    resize: (cols, rows) => {
      term.resize(cols, rows);
      child.resize(cols, rows);
    },
    press: (key) => child.write(KEYS[key]),
    submit: async (text, timeoutMs = 15_000) => {
      const typed = await typeAndEnter(text, timeoutMs);
      await waitFor(() => !squash(inputRow()).includes(typed), timeoutMs);
    },
    submitAnswered: async (text, answered, timeoutMs = 30_000) => {
      const typed = await typeAndEnter(text, timeoutMs);
      await waitFor(answered, timeoutMs);
      if (!squash(inputRow()).includes(typed)) return;
      child.write(KEYS["ctrl+c"]);
      await waitFor(() => !squash(inputRow()).includes(typed), timeoutMs);
    },
    raw,
    bells: () => bellCount(raw()),
    oscs: () => oscPayloads(raw()),
    exited,
    waitForExit,
    close: async () => {
      clearTimeout(hardStop);
      killGroup();
      await Promise.race([exited, sleep(5_000)]);
      term.dispose();
    },
  };

  // Ready when the input box shows, as a person would wait for it.
  try {
    await waitFor(() => lines().some((l) => PROMPT_ROW.test(l)), opts.startTimeoutMs ?? 30_000);
  } catch (err) {
    await tui.close();
    throw err;
  }
  return tui;
}

/** The row a menu of Claude Code's has its cursor on (indented, unlike the input box's own sign), or "". */
const menuChoice = (t: Tui) => t.lines().find((line) => /^\s+❯\s/.test(line)) ?? "";

/**
 * Moves the cursor of the menu that opens (a dialog, a picker) with `key` until `wanted` holds of its row, then
 * picks that row and waits until the menu took it.
 */
export async function pickMenuRow(t: Tui, wanted: (row: string) => boolean, key: "up" | "down" = "up"): Promise<void> {
  await t.waitFor(() => menuChoice(t) !== "", 30_000);
  while (!wanted(menuChoice(t))) {
    const before = menuChoice(t);
    t.press(key);
    await t.waitFor(() => menuChoice(t) !== before);
  }
  const at = menuChoice(t);
  t.press("enter");
  await t.waitFor(() => menuChoice(t) !== at);
}
