import type { Env } from "../core/loopFiles.js";
import { renderPlainText } from "../core/plainText.js";

/** The world a hook or command runs in, passed in so tests can run it in-process (one type for all). */
export interface Context {
  env: Env;
  /** The process's working directory (the hook input's `cwd` wins where given). */
  cwd: string;
  home: string;
  now: () => number;
  /** The folder holding hooks/, templates/ and .claude/commands/ (the plugin root or npm package). */
  packageRoot: string;
  /** stdin, and where a command's text goes (a hook's answer is returned instead). */
  readStdin: () => string;
  out: (text: string) => void;
  err: (text: string) => void;
  /** The width of the terminal `out` writes to; undefined when it writes elsewhere (a pipe, a hook's answer). */
  readonly columns?: number;
}

/**
 * `ctx` whose `out` and `err` drop escape sequences and control characters: a goal, name or reason that holds them
 * is shown as text and never redraws, retitles or writes the clipboard of the terminal.
 */
export function plainOutput(ctx: Context): Context {
  const plain: Pick<Context, "out" | "err"> = {
    out: (text) => ctx.out(renderPlainText(text)),
    err: (text) => ctx.err(renderPlainText(text)),
  };
  // The other fields are read through ctx: some are getters that cost only when asked.
  return Object.setPrototypeOf(plain, ctx) as Context;
}

/**
 * `answer` with the text it shows dropping escape sequences and control characters: Claude Code draws its messages
 * and the continuation on the person's screen. A `terminalSequence` (the bell `notify` asks for) is meant.
 */
export function renderPlainAnswer(answer: HookAnswer): HookAnswer {
  const plain = (value: unknown, key = ""): unknown => {
    if (typeof value === "string") return key === "terminalSequence" ? value : renderPlainText(value);
    if (Array.isArray(value)) return value.map((item) => plain(item));
    if (value === null || typeof value !== "object") return value;
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, plain(v, k)]));
  };
  const json = answer.json && (plain(answer.json) as Record<string, unknown>);
  return { ...answer, ...(json && { json }), stderr: renderPlainText(answer.stderr) };
}

/** Documented exit codes of `continuation-loop`. */
export const EXIT = { ok: 0, failed: 1, usage: 2 } as const;

/** What a hook prints and how it exits. */
export interface HookAnswer {
  exitCode: 0 | 2;
  /** The JSON object it prints on stdout (`systemMessage`, `hookSpecificOutput`…); none: it prints nothing there. */
  json?: Record<string, unknown>;
  stderr: string;
}

export const SILENT: HookAnswer = { exitCode: 0, stderr: "" };

/** Exit 0 with one line for the user (`systemMessage`), plus other JSON fields when given. */
export function tell(message: string, extra: Record<string, unknown> = {}): HookAnswer {
  return { exitCode: 0, json: { systemMessage: message, ...extra }, stderr: "" };
}

/**
 * The answer with one more line for the user, before any it carries in its `systemMessage`. Its exit code and
 * stderr (a continuation's prompt) stay as they are.
 */
export function addSystemMessage(answer: HookAnswer, line: string | undefined): HookAnswer {
  if (line === undefined) return answer;
  const told = answer.json?.systemMessage;
  return { ...answer, json: { ...answer.json, systemMessage: typeof told === "string" ? `${line}\n${told}` : line } };
}
