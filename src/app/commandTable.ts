// The command table's shape: one row per command of the helper (`continuation-loop NAME`), the slash
// commands among them (`/loop-NAME`). The rows are in loopCommands.ts (those the prompt hook may run) and
// runCli.ts (the rest, which the prompt hook never loads).
import { LoopError } from "../core/errors.js";
import { statSync } from "node:fs";
import { resolve } from "node:path";
import { LOOP_NAME } from "../core/loopFileNames.js";
import { chooseSessionLoop, type LoopFile, loopFileAt, resolveProjectRoot } from "../core/loopFiles.js";
import { scanLoops } from "../io/listLoops.js";
import { type Context, EXIT } from "./context.js";
import { SESSION_ANSWER_COLUMNS } from "../core/renderHelp.js";
import { renderCliCommand } from "./renderCliCommand.js";
import { type ArgsSpec, type OptionSpec, type ParsedArgs, parseCliArgs, renderCommandHelp } from "./parseCliArgs.js";

/** One run of a command, from a terminal or typed in Claude Code. */
export interface CommandCall extends ParsedArgs {
  /** The command as it was called, for messages: `continuation-loop stop`, `/loop-stop`. */
  command: string;
  /** Typed in Claude Code: the prompt hook answers it in the session. */
  slash: boolean;
  /** The words after the command's name, as given (a slash command's text split on whitespace). */
  argv: string[];
  /** A slash command's text after its name, exactly as typed. */
  line?: string;
  root: string;
  session: string | undefined;
  /** Typed in Claude Code: the session's permission mode (`default`, `acceptEdits`, `auto`…), as Claude Code says it. */
  permissionMode?: string;
  ctx: Context;
  /** One line for the user, and what Claude reads next (start, resume): in a session the prompt goes on. */
  tell(user: string, context: string): number;
}

export interface CommandRow extends ArgsSpec {
  /** What it does, in a few words: the usage text's line and the head of `--help`. */
  summary: string;
  /** The command reads its own words and answers its own `--help` (start: the field table's flags, then the goal). */
  own?: { usage: string };
  /** `/loop-NAME` runs it too, in Claude Code. */
  slash?: true;
  run: (call: CommandCall) => number | Promise<number>;
}

/**
 * The width a command's usage card and `--help` are fitted to: the terminal's, or the module's measure; typed in a
 * session with neither, an answer's in an 80-column terminal.
 */
export const readAnswerColumns = (call: Pick<CommandCall, "ctx" | "slash">): number | undefined =>
  call.ctx.columns ?? (call.slash ? SESSION_ANSWER_COLUMNS : undefined);

export const NAME: OptionSpec = {
  value: "NAME",
  help: "that loop: .claude/continuation-loop.NAME.local.md",
  // A name that could leave `.claude/` is refused.
  accepts: {
    test: (name) => name === "default" || LOOP_NAME.test(name),
    expected: "default, or 1 to 40 characters of a-z, 0-9 and - (e.g. --name auth-fix)",
  },
};
export const ALL: OptionSpec = { help: "every loop of the project" };
export const PROJECT: OptionSpec = { value: "DIR", help: "the project (default: the current one)", terminalOnly: true };

/** What a slash command accepts: its row without the flags only a terminal may give. */
export function slashSpec(row: CommandRow): ArgsSpec {
  const options = Object.entries(row.options ?? {}).filter(([, option]) => !option.terminalOnly);
  return { ...row, options: Object.fromEntries(options) };
}

/**
 * A flag only a terminal may give, typed after a slash command (`/loop-report --html FILE`): refused with the
 * helper's command that takes it, which a `!` line runs from Claude Code.
 */
function refuseTerminalFlag(row: CommandRow, call: Pick<CommandCall, "argv" | "command" | "ctx">): void {
  for (const word of call.argv) {
    if (word === "--") return;
    const name = /^--([^=]+)/.exec(word)?.[1];
    const option = name === undefined ? undefined : row.options?.[name];
    if (name === undefined || !option?.terminalOnly) continue;
    const helper = call.command.replace(/^\/(?:continuation-loop:)?loop-/, "");
    throw new LoopError("USAGE", "for a terminal only", {
      file: call.command,
      field: `--${name}`,
      expected: `!${renderCliCommand(call.ctx.packageRoot)} ${helper} --${name}${option.value ? ` ${option.value}` : ""} (a ! line runs it from Claude Code)`,
    });
  }
}

/** Parses the words by the row's spec, then runs it; `--help` prints the row's help instead. */
export async function runRow(row: CommandRow, call: Omit<CommandCall, keyof ParsedArgs | "root"> & { root?: string }) {
  if (call.slash && !row.own) refuseTerminalFlag(row, call);
  const spec = call.slash ? slashSpec(row) : row;
  const parsed: ParsedArgs = row.own
    ? { options: {}, words: [], passed: [] }
    : parseCliArgs(call.command, call.argv, spec);
  if (parsed.options.help)
    return say(call, renderCommandHelp(call.command, row.summary, spec, readAnswerColumns(call)));
  // `--project DIR` (relative to the cwd) when given, else `$CLAUDE_PROJECT_DIR`, else the cwd.
  const { env, cwd } = call.ctx;
  const project = parsed.options.project;
  const root =
    call.root ?? (typeof project === "string" ? resolve(cwd, project) : resolveProjectRoot(env, undefined, cwd));
  if (typeof project === "string") refuseMissingProject(root, project, call.command);
  return await row.run({ ...call, ...parsed, root });
}

/** A mistyped `--project` is refused, never made: stop or pause there would create the folders it names. */
function refuseMissingProject(root: string, project: string, command: string): void {
  let found: "folder" | "file" | undefined;
  try {
    found = statSync(root).isDirectory() ? "folder" : "file";
  } catch {
    // missing, or out of reach: no loop can be there
  }
  if (found !== "folder")
    throw new LoopError("USAGE", found ? "the project is not a folder" : "the project folder does not exist", {
      file: command,
      field: "--project",
      expected: "an existing folder (--project DIR)",
      received: JSON.stringify(project),
    });
}

/** Prints the command's answer: its lines for the user. */
export function say(call: Pick<CommandCall, "ctx">, text: string): number {
  call.ctx.out(`${text}\n`);
  return EXIT.ok;
}

/**
 * A refusal or a bug as one line, never a stack trace, beginning with the product's name: once, when the
 * refusal names the helper's command as typed (`continuation-loop status: unknown option …`).
 */
export function describeError(error: unknown): string {
  if (!(error instanceof LoopError))
    return `continuation-loop: internal error (${error instanceof Error ? error.message : String(error)}).`;
  const text = `${error.describe()}.`;
  return text.startsWith("continuation-loop ") ? text : `continuation-loop: ${text}`;
}

/**
 * The loop a command acts on (docs/REFERENCE.md "Which loop a command acts on"): `--name NAME`; else the loop
 * bound to this session; else the first loop nobody owns; else the project's first loop (the default file
 * first); else the default file.
 */
export function chooseTargetLoop(call: CommandCall): LoopFile {
  const name = stringOption(call, "name");
  if (name !== undefined) return loopFileAt(call.root, name);
  const { loops } = scanLoops(call.root, call.ctx.env);
  return (chooseSessionLoop(loops, call.session) ?? loops[0])?.file ?? loopFileAt(call.root, "default");
}

/** A flag's value, when it was given one. */
export const stringOption = (call: CommandCall, name: string): string | undefined => {
  const value = call.options[name];
  return typeof value === "string" ? value : undefined;
};
