import { LoopError } from "./errors.js";

/** `value` options take the next word (or `=value`); `flag` options take none. */
export type OptionSpec = Record<string, "value" | "flag">;
export type ParsedOptions = Record<string, string | true>;

/** argv of one sub-command → its options; no positional words are accepted. */
export function parseCliArgs(command: string, argv: string[], spec: OptionSpec): ParsedOptions {
  const out: ParsedOptions = {};
  const known =
    Object.keys(spec)
      .map((k) => `--${k}`)
      .join(", ") || "no options";
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] as string;
    const [name, inline] = arg.startsWith("--")
      ? arg.includes("=")
        ? [arg.slice(2, arg.indexOf("=")), arg.slice(arg.indexOf("=") + 1)]
        : [arg.slice(2), undefined]
      : [undefined, undefined];
    const kind = name === undefined ? undefined : spec[name];
    if (name === undefined || kind === undefined) {
      throw new LoopError("USAGE", `unexpected argument ${JSON.stringify(arg)}`, {
        file: `continuation-loop ${command}`,
        expected: known,
      });
    }
    if (kind === "flag") {
      if (inline !== undefined)
        throw new LoopError("USAGE", "takes no value", { file: `continuation-loop ${command}`, field: `--${name}` });
      out[name] = true;
      continue;
    }
    const value = inline ?? argv[++i];
    if (value === undefined || value === "") {
      throw new LoopError("USAGE", "needs a value", { file: `continuation-loop ${command}`, field: `--${name}` });
    }
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
