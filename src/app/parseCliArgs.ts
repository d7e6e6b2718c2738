import { parseArgs } from "node:util";
import { LoopError } from "../core/errors.js";

/** `value` options take the next word (or `=value`); `flag` options take none. */
export type OptionSpec = Record<string, "value" | "flag">;
export type ParsedOptions = Record<string, string | true>;

/** The word parseArgs quotes first in its message: the argument or the option it refuses. */
const quoted = (message: string): string => /'([^']*)'/.exec(message)?.[1] ?? "";

/**
 * argv of one sub-command → its options, by `node:util`'s `parseArgs` (strict: no positional words, no
 * unknown options). Its refusals become one line naming the command, the flag and what it expects.
 */
export function parseCliArgs(command: string, argv: string[], spec: OptionSpec): ParsedOptions {
  const file = `continuation-loop ${command}`;
  const options = Object.fromEntries(
    Object.entries(spec).map(([name, kind]) => [name, { type: kind === "flag" ? "boolean" : "string" }] as const),
  );
  let values: Record<string, string | boolean | undefined>;
  try {
    ({ values } = parseArgs({ args: argv, options, strict: true, allowPositionals: false }));
  } catch (error) {
    const code = (error as { code?: string }).code;
    const message = error instanceof Error ? error.message : String(error);
    if (code === "ERR_PARSE_ARGS_INVALID_OPTION_VALUE") {
      const name = quoted(message).split(" ")[0]?.replace(/^-+/, "") ?? "";
      const flag = spec[name] === "flag";
      throw new LoopError("USAGE", flag ? "takes no value" : "needs a value", {
        file,
        field: `--${name}`,
        ...(!flag && { expected: `--${name} VALUE or --${name}=VALUE` }),
      });
    }
    const known =
      Object.keys(spec)
        .map((k) => `--${k}`)
        .join(", ") || "no options";
    const arg = code === "ERR_PARSE_ARGS_UNKNOWN_OPTION" || code === "ERR_PARSE_ARGS_UNEXPECTED_POSITIONAL";
    throw new LoopError("USAGE", `unexpected argument ${JSON.stringify(arg ? quoted(message) : argv.join(" "))}`, {
      file,
      expected: known,
    });
  }
  const out: ParsedOptions = {};
  for (const [name, value] of Object.entries(values)) {
    if (value === undefined || value === false) continue;
    if (value === "") throw new LoopError("USAGE", "needs a value", { file, field: `--${name}` });
    out[name] = value;
  }
  return out;
}

/** A whole number option (e.g. --limit), or the fallback when absent. */
export function intOption(options: ParsedOptions, name: string, fallback: number, command: string): number {
  const raw = options[name];
  if (raw === undefined) return fallback;
  if (typeof raw === "string" && /^\d+$/.test(raw) && Number(raw) >= 1) return Number(raw);
  throw new LoopError("USAGE", "invalid value", {
    file: `continuation-loop ${command}`,
    field: `--${name}`,
    expected: "a whole number of at least 1",
    received: JSON.stringify(raw),
  });
}
