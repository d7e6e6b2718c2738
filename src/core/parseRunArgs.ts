import { LoopError } from "./errors.js";
import { parseStartArgv, type StartRequest, takesValue } from "./parseStartArgs.js";

/** What `continuation-loop run` was asked (docs/REFERENCE.md "continuation-loop run"). */
export interface RunRequest {
  /** The loop to start, with `start`'s flags; undefined without a GOAL: take over the project's loop. */
  start: StartRequest | undefined;
  /** `--name NAME`: the loop to take over (a new loop's name is in `start`). */
  name: string | undefined;
  /** `--report FILE`, `--html FILE`: where the report goes at the end. */
  report: string | undefined;
  html: string | undefined;
  /** Restarts of Claude Code in a row without a new iteration before `run` gives up (exit 4). */
  maxRestarts: number;
  help: boolean;
  /** The words after `--`: Claude Code's own arguments, passed on unchanged. */
  claudeArgs: string[];
}

const DEFAULT_MAX_RESTARTS = 3;

const FILE = "continuation-loop run";
/** `run`'s own options; every other option before the goal is one of `start`'s. */
const RUN_OPTIONS: Record<string, "value" | "flag"> = {
  report: "value",
  html: "value",
  "max-restarts": "value",
  help: "flag",
};
/** Claude Code's arguments that choose the session or the mode: `run` sets them itself. */
const SESSION_ARGS = new Set(["-p", "--print", "--session-id", "-r", "--resume", "-c", "--continue", "--fork-session"]);
/** Claude Code's arguments that would run the session elsewhere (in the background, in a worktree), out of `run`'s reach. */
const ELSEWHERE_ARGS = new Set(["--bg", "--background", "-w", "--worktree"]);
/** What to do instead of `--bg` or `--worktree`, loop flag or Claude Code's. */
const LEAVE_RUNNING =
  "continuation-loop start --bg [--worktree NAME] GOAL to leave a loop running in a background session; run drives claude -p here, in the foreground";
const OPTION = /^--[A-Za-z]/;

const usage = (message: string, details: { field?: string; expected?: string; received?: string } = {}) =>
  new LoopError("USAGE", message, { file: FILE, ...details });

/** `start`'s parser, its refusals naming this command. */
function parseLoopWords(words: string[]): StartRequest {
  try {
    return parseStartArgv(words, FILE);
  } catch (error) {
    if (!(error instanceof LoopError && error.message.startsWith("unknown option"))) throw error;
    // start's list of flags, and not its "--" (in run, "--" starts Claude Code's arguments).
    throw new LoopError(error.code, error.message, {
      ...error.details,
      expected: `run's own ${Object.keys(RUN_OPTIONS)
        .map((name) => `--${name}`)
        .join(", ")}, or a flag of start (continuation-loop start --help)`,
    });
  }
}

function readMaxRestarts(value: string | true | undefined): number {
  if (value === undefined) return DEFAULT_MAX_RESTARTS;
  if (typeof value === "string" && /^\d{1,3}$/.test(value)) return Number(value);
  throw usage("invalid value", {
    field: "--max-restarts",
    expected: "a whole number from 0 to 999 (0: never restart Claude Code)",
    received: JSON.stringify(value === true ? "" : value),
  });
}

function checkClaudeArgs(args: string[]): void {
  for (const arg of args) {
    const name = arg.split("=")[0] ?? arg;
    if (ELSEWHERE_ARGS.has(name))
      throw usage(`${name} would run Claude Code where run cannot follow the loop`, {
        field: "-- CLAUDE_ARGS",
        expected: LEAVE_RUNNING,
      });
    if (SESSION_ARGS.has(name))
      throw usage(`${name} is run's to set`, {
        field: "-- CLAUDE_ARGS",
        expected:
          "Claude Code options other than -p, --session-id, --resume, --continue and --fork-session (run chooses the session and resumes it itself)",
      });
  }
}

/**
 * `run [run options] [loop flags] [GOAL…] [-- CLAUDE_ARGS…]`. The first `--` starts Claude Code's arguments;
 * before it, options come first (`run`'s own and `start`'s, in any order), and the rest is the goal.
 */
export function parseRunArgs(argv: string[]): RunRequest {
  const cut = argv.indexOf("--");
  const head = cut < 0 ? argv : argv.slice(0, cut);
  const claudeArgs = cut < 0 ? [] : argv.slice(cut + 1);
  const own: Record<string, string | true> = {};
  const loopWords: string[] = [];
  let i = 0;
  for (; i < head.length; i++) {
    const word = head[i] as string;
    if (!OPTION.test(word)) break;
    const eq = word.indexOf("=");
    const name = (eq > 0 ? word.slice(2, eq) : word.slice(2)).replace(/_/g, "-");
    const kind = RUN_OPTIONS[name];
    if (kind === undefined) {
      loopWords.push(word);
      if (eq < 0 && takesValue(name) && i + 1 < head.length) loopWords.push(head[++i] as string);
      continue;
    }
    if (name in own) throw usage("given twice", { field: `--${name}`, expected: "each option at most once" });
    if (kind === "flag") {
      if (eq > 0) throw usage("takes no value", { field: `--${name}`, expected: `--${name} alone` });
      own[name] = true;
      continue;
    }
    const value = eq > 0 ? word.slice(eq + 1) : head[++i];
    if (value === undefined || value === "")
      throw usage("needs a value", { field: `--${name}`, expected: `--${name} VALUE` });
    own[name] = value;
  }
  checkClaudeArgs(claudeArgs);
  const goalWords = head.slice(i);
  const loop = parseLoopWords([...loopWords, ...goalWords]);
  // start's flags that run could only ignore: the loop would run here, not where they asked.
  if (loop.background || loop.worktree !== undefined)
    throw usage("a flag of start, not of run", {
      field: loop.background ? "--bg" : "--worktree",
      expected: LEAVE_RUNNING,
    });
  const takeover = goalWords.length === 0 && !loop.help;
  if (takeover && (Object.keys(loop.fields).length > 0 || loop.template !== undefined || loop.force))
    throw usage("loop flags need a goal", {
      expected:
        "a GOAL after the flags to start a new loop, or only --name NAME to take over a loop (edit its state file to change its fields)",
    });
  const text = (key: string) => (typeof own[key] === "string" ? (own[key] as string) : undefined);
  return {
    start: takeover ? undefined : loop,
    name: loop.name,
    report: text("report"),
    html: text("html"),
    maxRestarts: readMaxRestarts(own["max-restarts"]),
    help: own.help === true || loop.help,
    claudeArgs,
  };
}
