import { LoopError, renderReceived } from "./errors.js";
import { FIELD_NAMES, FIELD_RULES, type FieldName } from "./fields.js";

/** What `/loop-start` (or `continuation-loop start`) asked for. */
export interface StartRequest {
  /** State-file fields given as flags, already typed and validated. */
  fields: Partial<Record<FieldName, unknown>>;
  template: string | undefined;
  force: boolean;
  help: boolean;
  /** The rest of the line from the first word that is not an option, exactly as typed. */
  goal: string;
}

/** `max_iterations` → `max-iterations`: one flag per state-file field, from FIELD_RULES. */
export const flagOf = (field: FieldName): string => field.replace(/_/g, "-");
const FIELD_BY_FLAG = new Map<string, FieldName>(FIELD_NAMES.map((field) => [flagOf(field), field]));
/** Boolean fields: `--flag` alone means true; a value only as `--flag=false`. */
export const BOOLEAN_FIELDS = new Set<FieldName>(["active", "require_todos_done"]);
const TEMPLATE_NAME = /^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$/;
/** An option word: `--` then a letter (`---` or `--5` begin a goal). */
const OPTION = /^--[A-Za-z]/;

const usage = (message: string, extra: { field?: string; expected?: string; received?: string } = {}) =>
  new LoopError("USAGE", message, { file: "/loop-start", ...extra });

/** Candidate typed values of a flag's text, tried in order against the field's schema. */
function candidates(text: string): unknown[] {
  const out: unknown[] = [];
  if (/^-?\d+(\.\d+)?$/.test(text)) out.push(Number(text));
  if (text === "true" || text === "false") out.push(text === "true");
  out.push(text);
  return out;
}

/** Flag text → typed value accepted by the field's schema; LoopError naming flag and expectation. */
function typedValue(field: FieldName, text: string): unknown {
  const rule: { schema: { safeParse(v: unknown): { success: boolean } }; expected: string } = FIELD_RULES[field];
  const value = candidates(text).find((candidate) => rule.schema.safeParse(candidate).success);
  if (value !== undefined) return value;
  throw usage("invalid value", {
    field: `--${flagOf(field)}`,
    expected: rule.expected,
    received: renderReceived(text),
  });
}

interface Accumulator {
  fields: Partial<Record<FieldName, unknown>>;
  promises: string[];
  template: string | undefined;
  force: boolean;
  help: boolean;
}

/** Does this flag take a value from the next word (`--flag value`)? Booleans do only as `--flag=value`. */
function takesValue(name: string): boolean {
  const field = FIELD_BY_FLAG.get(name);
  if (field) return !BOOLEAN_FIELDS.has(field);
  return name === "template";
}

/** Applies one option; `value` is undefined for a bare flag. */
function applyOption(acc: Accumulator, rawName: string, value: string | undefined): void {
  const name = rawName.replace(/_/g, "-");
  if (name === "force" || name === "help") {
    if (value !== undefined)
      throw usage("takes no value", {
        field: `--${name}`,
        expected: `--${name} alone`,
        received: renderReceived(value),
      });
    acc[name] = true;
    return;
  }
  if (name === "template") {
    if (value === undefined || !TEMPLATE_NAME.test(value)) {
      throw usage("invalid template name", {
        field: "--template",
        expected: "a template name such as default, tdd, feature or debug",
        received: renderReceived(value ?? ""),
      });
    }
    acc.template = value;
    return;
  }
  const field = FIELD_BY_FLAG.get(name);
  if (!field) {
    throw usage(`unknown option --${rawName}`, {
      expected: `one of ${["template", "force", "help", ...FIELD_BY_FLAG.keys()].map((f) => `--${f}`).join(", ")}; put "--" before a goal that starts with "--"`,
    });
  }
  if (field === "completion_promise") {
    if (value === undefined)
      throw usage("needs a value", {
        field: "--completion-promise",
        expected: FIELD_RULES.completion_promise.expected,
      });
    acc.promises.push(typedValue(field, value) as string);
    return;
  }
  if (field in acc.fields)
    throw usage("given twice", {
      field: `--${name}`,
      expected: "each option at most once (only --completion-promise repeats)",
    });
  if (value === undefined && !BOOLEAN_FIELDS.has(field))
    throw usage("needs a value", { field: `--${name}`, expected: FIELD_RULES[field].expected });
  acc.fields[field] = value === undefined ? true : typedValue(field, value);
}

function finish(acc: Accumulator, goal: string): StartRequest {
  const fields = { ...acc.fields };
  if (acc.promises.length === 1) fields.completion_promise = acc.promises[0];
  if (acc.promises.length > 1) fields.completion_promise = acc.promises;
  if (!acc.help && goal.trim() === "") {
    throw usage("a goal is required", {
      expected: "/loop-start [options] GOAL, e.g. /loop-start --max-iterations 5 Fix the failing tests",
    });
  }
  return { fields, template: acc.template, force: acc.force, help: acc.help, goal };
}

const empty = (): Accumulator => ({ fields: {}, promises: [], template: undefined, force: false, help: false });
const isSpace = (ch: string | undefined) => ch !== undefined && /\s/.test(ch);

/** Reads one value word at `pos`: "double" (\" and \\ escapes), 'single' (literal), or bare up to whitespace. */
function readWord(line: string, pos: number, flag: string): { value: string; end: number } {
  const quote = line[pos];
  if (quote === '"' || quote === "'") {
    let value = "";
    for (let i = pos + 1; i < line.length; i++) {
      const ch = line[i] as string;
      if (ch === quote) {
        if (i + 1 < line.length && !isSpace(line[i + 1])) {
          throw usage("a quoted value must be followed by a space", {
            field: flag,
            expected: `a space after the closing ${quote}`,
          });
        }
        return { value, end: i + 1 };
      }
      if (quote === '"' && ch === "\\" && (line[i + 1] === '"' || line[i + 1] === "\\")) {
        value += line[++i];
        continue;
      }
      value += ch;
    }
    throw usage(`the value opens a quote (${quote}) that is never closed`, {
      field: flag,
      expected: `a closing ${quote}`,
    });
  }
  let end = pos;
  while (end < line.length && !isSpace(line[end])) end++;
  return { value: line.slice(pos, end), end };
}

/**
 * The raw text typed after `/loop-start`. Options come first (values may be quoted); from the first
 * word that is not an option, the rest is the goal, byte for byte. Nothing is ever evaluated: `$(…)`,
 * backticks, `;` and newlines are plain characters here.
 */
export function parseStartArgs(line: string): StartRequest {
  const acc = empty();
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
      const { value, end: after } = readWord(line, pos + 2 + eq + 1, `--${name}`);
      applyOption(acc, name, value);
      pos = after;
    } else if (takesValue(word.replace(/_/g, "-"))) {
      let next = end;
      while (isSpace(line[next])) next++;
      if (next >= line.length) applyOption(acc, word, undefined);
      const { value, end: after } = readWord(line, next, `--${word}`);
      applyOption(acc, word, value);
      pos = after;
    } else {
      applyOption(acc, word, undefined);
      pos = end;
    }
  }
}

/** The same options from a shell's argv (`continuation-loop start …`): the words after the options are joined by spaces. */
export function parseStartArgv(argv: string[]): StartRequest {
  const acc = empty();
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
