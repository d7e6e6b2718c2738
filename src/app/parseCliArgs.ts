import { parseArgs } from "node:util";
import { LoopError } from "../core/errors.js";
import { readMeantName } from "../core/readMeantName.js";
import { renderOptionRows, renderParagraph } from "../core/renderHelp.js";

/** One flag of a command: `value` names what it takes (`--name NAME`); without it the flag takes none. */
export interface OptionSpec {
  value?: string;
  help: string;
  /** The values it takes, and how the refusal of another says so. */
  accepts?: { test: (value: string) => boolean; expected: string };
  /** From a terminal only: the slash command refuses it (`--project`, `--html`). */
  terminalOnly?: true;
}

/** What a command accepts after its name: its row's parse spec in the command table. */
export interface ArgsSpec {
  options?: Record<string, OptionSpec>;
  /** The words after the options: how usage shows them, and how many there may be. */
  words?: { usage: string; max: number };
  /** Everything after `--` reaches the command unchanged (`run GOAL -- CLAUDE_ARGS…`). */
  passThrough?: true;
}

export interface ParsedArgs {
  /** The flags given (`help` among them). */
  options: Record<string, string | true>;
  words: string[];
  /** The words after `--`, for a pass-through command. */
  passed: string[];
}

/** Every command takes `--help` (or `-h`). */
const HELP: OptionSpec = { help: "this text" };
const flagOf = (name: string, option: OptionSpec) => `--${name}${option.value ? ` ${option.value}` : ""}`;

/** "N|best [--name NAME] [--all]": the words and flags after the command's name. */
export function renderArgsUsage(spec: ArgsSpec): string {
  const flags = Object.entries(spec.options ?? {}).map(([name, option]) => `[${flagOf(name, option)}]`);
  return [spec.words?.usage, ...flags, spec.passThrough && "[-- ARGS…]"].filter(Boolean).join(" ");
}

/** `--help`: the usage line, what the command does, and each flag. */
export function renderCommandHelp(command: string, summary: string, spec: ArgsSpec, columns?: number): string {
  const rows = Object.entries({ ...spec.options, help: HELP }).map(
    ([name, option]) => [flagOf(name, option), option.help] as const,
  );
  return [
    `Usage: ${command} ${renderArgsUsage(spec)}`.trimEnd(),
    ...renderParagraph(`${summary.charAt(0).toUpperCase()}${summary.slice(1)}.`, columns),
    "",
    ...renderOptionRows(rows, columns),
  ].join("\n");
}

/**
 * argv of one command → its options and words, by `node:util`'s `parseArgs` (its tokens, so nothing is read
 * from Node's messages). A mistake is one line naming the command, the flag as typed and what it expects.
 */
export function parseCliArgs(command: string, argv: string[], spec: ArgsSpec): ParsedArgs {
  const options: Record<string, OptionSpec> = { ...spec.options, help: HELP };
  const types = Object.fromEntries(
    Object.entries(options).map(([name, o]) => [name, { type: o.value ? "string" : "boolean" }] as const),
  );
  const { tokens } = parseArgs({
    args: argv,
    options: { ...types, help: { type: "boolean", short: "h" } },
    strict: false,
    allowPositionals: true,
    tokens: true,
  });
  const refuse = (message: string, details: { field?: string; expected: string; received?: string }) =>
    new LoopError("USAGE", message, { file: command, ...details });
  const out: ParsedArgs = { options: {}, words: [], passed: [] };
  for (const token of tokens) {
    if (token.kind === "option-terminator") {
      if (spec.passThrough) {
        out.passed = argv.slice(token.index + 1);
        break;
      }
    } else if (token.kind === "positional") {
      if (out.words.length >= (spec.words?.max ?? 0))
        throw refuse(`unexpected argument ${JSON.stringify(token.value)}`, {
          expected: `${command} ${renderArgsUsage(spec)}`.trimEnd(),
        });
      out.words.push(token.value);
    } else {
      const typed = argv[token.index] as string;
      const option = Object.hasOwn(options, token.name) ? options[token.name] : undefined;
      const field = `--${token.name}`;
      if (!option) {
        const known = Object.entries(options).map(([name, o]) => flagOf(name, o));
        const meant = readMeantName(token.name, Object.keys(options));
        throw refuse(`unknown option ${typed.split("=")[0]}${meant ? ` (did you mean --${meant}?)` : ""}`, {
          expected: `one of ${known.join(", ")}`,
        });
      }
      if (!option.value && token.value !== undefined)
        throw refuse("takes no value", { field, expected: `${field} alone`, received: JSON.stringify(token.value) });
      if (option.value && (!token.value || (!token.inlineValue && token.value.startsWith("-"))))
        throw refuse("needs a value", { field, expected: `${field} ${option.value} or ${field}=${option.value}` });
      if (option.accepts && !option.accepts.test(token.value as string)) {
        const { expected } = option.accepts;
        throw refuse("invalid value", { field, expected, received: JSON.stringify(token.value) });
      }
      if (Object.hasOwn(out.options, token.name))
        throw refuse("given twice", { field, expected: "each option at most once" });
      out.options[token.name] = token.value ?? true;
    }
  }
  return out;
}

/** A whole number of at least 1 (`--limit N`, `restart N`), or the fallback when absent. */
export function parseWholeNumber(raw: string | true | undefined, field: string, command: string, fallback: number) {
  if (raw === undefined) return fallback;
  if (typeof raw === "string" && /^[1-9][0-9]{0,8}$/.test(raw)) return Number(raw);
  throw new LoopError("USAGE", "invalid value", {
    file: command,
    field,
    expected: "a whole number of at least 1",
    received: JSON.stringify(raw),
  });
}
