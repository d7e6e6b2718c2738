import { LoopError, renderReceived } from "./errors.js";
import {
  acceptsValue,
  expectedOf,
  type FieldName,
  flagOf,
  isBooleanField,
  isRepeatedField,
  USER_FIELDS,
} from "./fields.js";
import { LOOP_NAME } from "./loopFileNames.js";
import { readMeantName } from "./readMeantName.js";
import { isSpace, parseWord } from "./parseWord.js";

/** What `/loop-start` (or `continuation-loop start`) asked for. */
export interface StartRequest {
  /** State-file fields given as flags, already typed and validated. */
  fields: Partial<Record<FieldName, unknown>>;
  template: string | undefined;
  /** `--name NAME`: a named loop file. */
  name: string | undefined;
  force: boolean;
  help: boolean;
  /** `--bg`: the loop runs in a Claude Code background session (docs/REFERENCE.md "Leave it running"). */
  background?: true;
  /** `--worktree NAME` (with `--bg`, from a terminal): in the git worktree `.claude/worktrees/NAME`. */
  worktree?: string;
  /** No goal was given: the usage card is shown instead of starting (README "Quick start"). */
  card?: true;
  /** The rest of the line from the first word that is not an option, exactly as typed. */
  goal: string;
  /** The command as the person typed it (`/loop-start`, `continuation-loop run`): a refusal names its siblings so. */
  command: string;
}

const FIELD_BY_FLAG = new Map<string, FieldName>(USER_FIELDS.map((field) => [flagOf(field), field]));
const REPEATED = USER_FIELDS.filter(isRepeatedField);
/** Every option `/loop-start` takes, as a refusal lists them. */
const OPTIONS = ["name", "template", "force", "bg", "worktree", "help", ...FIELD_BY_FLAG.keys()];
const TEMPLATE_NAME = /^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$/;
/** An option word: `--` then a letter (`---` or `--5` begin a goal). */
const OPTION = /^--[A-Za-z]/;
/** A refusal names the command as the person typed it (`/loop-start`, `continuation-loop start`). */
const usage = (
  command: string,
  message: string,
  extra: { field?: string; expected?: string; received?: string } = {},
) => new LoopError("USAGE", message, { file: command, ...extra });

/** Candidate typed values of a flag's text, tried in order against the field's schema. */
function candidates(text: string): unknown[] {
  const out: unknown[] = [];
  if (/^-?\d+(\.\d+)?$/.test(text)) out.push(Number(text));
  if (text === "true" || text === "false") out.push(text === "true");
  out.push(text);
  return out;
}

/** Flag text → typed value accepted by the field's schema; LoopError naming flag and expectation. */
function typedValue(acc: Accumulator, field: FieldName, text: string): unknown {
  const value = candidates(text).find((candidate) => acceptsValue(field, candidate));
  if (value !== undefined) return value;
  throw usage(acc.command, "invalid value", {
    field: `--${flagOf(field)}`,
    expected: expectedOf(field),
    received: renderReceived(text),
  });
}

interface Accumulator {
  /** The command as typed, which a refusal names. */
  command: string;
  fields: Partial<Record<FieldName, unknown>>;
  /** The entries of the list fields whose flag repeats (`--completion-promise`, `--scope`), in order. */
  lists: Partial<Record<FieldName, unknown[]>>;
  template: string | undefined;
  name: string | undefined;
  force: boolean;
  help: boolean;
  bg: boolean;
  worktree: string | undefined;
}

/** Does this flag take a value from the next word (`--flag value`)? Booleans do only as `--flag=value`. */
export function takesValue(name: string): boolean {
  const field = FIELD_BY_FLAG.get(name);
  if (field) return !isBooleanField(field);
  return name === "template" || name === "name" || name === "worktree";
}

/** Applies one option; `value` is undefined for a bare flag. */
function applyOption(acc: Accumulator, rawName: string, value: string | undefined): void {
  const name = rawName.replace(/_/g, "-");
  if (name === "force" || name === "help" || name === "bg") {
    if (value !== undefined)
      throw usage(acc.command, "takes no value", {
        field: `--${name}`,
        expected: `--${name} alone`,
        received: renderReceived(value),
      });
    acc[name] = true;
    return;
  }
  if (name === "template") {
    if (value === undefined || !TEMPLATE_NAME.test(value)) {
      throw usage(acc.command, "invalid template name", {
        field: "--template",
        expected: "a template name such as default, tdd, feature or debug",
        received: renderReceived(value ?? ""),
      });
    }
    acc.template = value;
    return;
  }
  if (name === "worktree") {
    if (value === undefined || !LOOP_NAME.test(value)) {
      throw usage(acc.command, "invalid worktree name", {
        field: "--worktree",
        expected: "1 to 40 characters of a-z, 0-9 and -, starting with a letter or digit (e.g. --worktree auth-fix)",
        received: renderReceived(value ?? ""),
      });
    }
    acc.worktree = value;
    return;
  }
  if (name === "name") {
    if (value === undefined || !LOOP_NAME.test(value)) {
      throw usage(acc.command, "invalid loop name", {
        field: "--name",
        expected:
          "default, or 1 to 40 characters of a-z, 0-9 and -, starting with a letter or digit (e.g. --name auth-fix)",
        received: renderReceived(value ?? ""),
      });
    }
    acc.name = value;
    return;
  }
  const field = FIELD_BY_FLAG.get(name);
  if (!field) {
    // The command's own options count too: `--nmae` means `--name` as `--max-iteration` means `--max-iterations`.
    const meant = readMeantName(name, OPTIONS);
    if (meant !== undefined)
      // The option meant, not all of them: the list is long, and --help has it.
      throw usage(acc.command, `unknown option --${rawName} (did you mean --${meant}?)`, {
        expected: `--${meant} (${acc.command} --help lists every option)`,
      });
    throw usage(acc.command, `unknown option --${rawName}`, {
      expected: `one of ${OPTIONS.map((f) => `--${f}`).join(", ")}; put "--" before a goal that starts with "--"`,
    });
  }
  if (isRepeatedField(field)) {
    if (value === undefined)
      throw usage(acc.command, "needs a value", { field: `--${name}`, expected: expectedOf(field) });
    // `--scope "[src, test]"` would be one path of that name, which no change is ever inside.
    if (field === "scope" && /^\[.*,.*\]$/s.test(value.trim()))
      throw usage(acc.command, "invalid value", {
        field: "--scope",
        expected: "one path per --scope, repeated for several (e.g. --scope src/parser --scope test/parser)",
        received: renderReceived(value),
      });
    acc.lists[field] = [...(acc.lists[field] ?? []), typedValue(acc, field, value)];
    return;
  }
  if (field in acc.fields)
    throw usage(acc.command, "given twice", {
      field: `--${name}`,
      expected: `each option at most once (only ${REPEATED.map((f) => `--${flagOf(f)}`).join(" and ")} repeat)`,
    });
  if (value === undefined && !isBooleanField(field))
    throw usage(acc.command, "needs a value", { field: `--${name}`, expected: expectedOf(field) });
  acc.fields[field] = value === undefined ? true : typedValue(acc, field, value);
}

function finish(acc: Accumulator, goal: string): StartRequest {
  const fields = { ...acc.fields };
  // One entry is written as a plain value, several as a list: as a person would write the file.
  for (const [field, list] of Object.entries(acc.lists) as [FieldName, unknown[]][])
    fields[field] = list.length === 1 ? list[0] : list;
  const card = !acc.help && goal.trim() === "";
  return {
    fields,
    template: acc.template,
    name: acc.name,
    force: acc.force,
    help: acc.help,
    ...(acc.bg && { background: true as const }),
    ...(acc.worktree !== undefined && { worktree: acc.worktree }),
    ...(card && { card: true as const }),
    goal,
    command: acc.command,
  };
}

const empty = (command: string): Accumulator => ({
  command,
  fields: {},
  lists: {},
  template: undefined,
  name: undefined,
  force: false,
  help: false,
  bg: false,
  worktree: undefined,
});
/**
 * The raw text typed after `/loop-start`. Options come first (values may be quoted); from the first
 * word that is not an option, the rest is the goal, byte for byte. Nothing is ever evaluated: `$(…)`,
 * backticks, `;` and newlines are plain characters here.
 */
export function parseStartArgs(line: string, command = "/loop-start"): StartRequest {
  const acc = empty(command);
  let pos = 0;
  for (;;) {
    while (isSpace(line[pos])) pos++;
    let end = pos;
    while (end < line.length && !isSpace(line[end])) end++;
    const word = line.slice(pos + 2, end);
    if (!line.startsWith("--", pos) || (word !== "" && !OPTION.test(line.slice(pos))))
      return finish(acc, line.slice(pos));
    if (word === "") {
      // `--` ends the options; one whitespace run after it separates the goal.
      while (isSpace(line[end])) end++;
      return finish(acc, line.slice(end));
    }
    const eq = word.indexOf("=");
    if (eq > 0) {
      const name = word.slice(0, eq);
      const { value, end: after } = parseWord(line, pos + 2 + eq + 1, `--${name}`, command);
      applyOption(acc, name, value);
      pos = after;
    } else if (takesValue(word.replace(/_/g, "-"))) {
      let next = end;
      while (isSpace(line[next])) next++;
      if (next >= line.length) applyOption(acc, word, undefined);
      const { value, end: after } = parseWord(line, next, `--${word}`, command);
      applyOption(acc, word, value);
      pos = after;
    } else {
      applyOption(acc, word, undefined);
      pos = end;
    }
  }
}

/** The same options from a shell's argv (`continuation-loop start …`): the words after the options are joined by spaces. */
export function parseStartArgv(argv: string[], command = "continuation-loop start"): StartRequest {
  const acc = empty(command);
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] as string;
    if (arg === "--") return finish(acc, argv.slice(i + 1).join(" "));
    if (!OPTION.test(arg)) return finish(acc, argv.slice(i).join(" "));
    const word = arg.slice(2);
    const eq = word.indexOf("=");
    if (eq > 0) applyOption(acc, word.slice(0, eq), word.slice(eq + 1));
    else if (takesValue(word.replace(/_/g, "-"))) {
      if (i + 1 >= argv.length) applyOption(acc, word, undefined);
      applyOption(acc, word, argv[++i]);
    } else applyOption(acc, word, undefined);
  }
  return finish(acc, "");
}
