import { describe, expect, it } from "vitest";
import { LoopError } from "../../src/core/errors.js";
import { type ArgsSpec, parseCliArgs, parseWholeNumber, renderCommandHelp } from "../../src/app/parseCliArgs.js";

const spec: ArgsSpec = {
  options: {
    project: { value: "DIR", help: "the project" },
    json: { help: "as JSON" },
    limit: { value: "N", help: "at most N" },
  },
};
const words: ArgsSpec = { words: { usage: "N|best", max: 1 }, options: { name: { value: "NAME", help: "a loop" } } };
const passing: ArgsSpec = { words: { usage: "GOAL", max: 1 }, passThrough: true };

/** The one line a refusal shows, as LoopError.describe() renders it. */
const refusal = (argv: string[], with_ = spec, command = "continuation-loop history") => {
  try {
    parseCliArgs(command, argv, with_);
  } catch (error) {
    expect(error).toBeInstanceOf(LoopError);
    expect((error as LoopError).code).toBe("USAGE");
    return (error as LoopError).describe();
  }
  throw new Error(`${JSON.stringify(argv)} was accepted`);
};

describe("parseCliArgs", () => {
  it.each([
    [[], {}],
    [["--project", "dir"], { project: "dir" }],
    [["--project=a b"], { project: "a b" }],
    [["--json", "--limit", "3"], { json: true, limit: "3" }],
    [["--project=-x"], { project: "-x" }],
  ])("%j", (argv, expected) => {
    expect(parseCliArgs("x", argv, spec)).toEqual({ options: expected, words: [], passed: [] });
  });

  it("takes --help and -h, and as many words as the spec allows", () => {
    expect(parseCliArgs("x", ["--help"], spec).options).toEqual({ help: true });
    expect(parseCliArgs("x", ["-h"], spec).options).toEqual({ help: true });
    expect(parseCliArgs("x", ["best", "--name", "a"], words)).toMatchObject({
      words: ["best"],
      options: { name: "a" },
    });
    expect(parseCliArgs("x", ["--name", "a", "--", "3"], words)).toMatchObject({ words: ["3"] });
  });

  it("passes every word after -- unchanged to a pass-through command", () => {
    const argv = ["Fix it", "--", "--model", "x", "--", "-p", "a b"];
    expect(parseCliArgs("x", argv, passing)).toMatchObject({
      words: ["Fix it"],
      passed: ["--model", "x", "--", "-p", "a b"],
    });
  });

  it.each([
    [
      ["stray"],
      'continuation-loop history: unexpected argument "stray". Expected continuation-loop history [--project DIR] [--json] [--limit N]',
    ],
    [
      ["--nope"],
      "continuation-loop history: unknown option --nope. Expected one of --project DIR, --json, --limit N, --help",
    ],
    [["--nope=3"], "unknown option --nope."],
    [["-x"], "unknown option -x."],
    [["-json"], "unknown option -json."],
    [["--project"], "continuation-loop history: --project: needs a value. Expected --project DIR or --project=DIR"],
    [["--project="], "--project: needs a value"],
    [["--project", "--json"], "--project: needs a value"],
    [["--json=yes"], 'continuation-loop history: --json: takes no value. Expected --json alone; received "yes"'],
    [["--help=1"], "--help: takes no value"],
    [["--json", "--json"], "continuation-loop history: --json: given twice. Expected each option at most once"],
    [["--toString"], "unknown option --toString"],
  ])("refuses %j in one line naming the command, the flag and what it expects", (argv, message) => {
    const line = refusal(argv);
    expect(line).toContain(message);
    expect(line).not.toContain("\n");
  });

  it("names the words it does not take, after -- too unless the command passes them on", () => {
    expect(refusal(["1", "2"], words, "continuation-loop restore")).toBe(
      'continuation-loop restore: unexpected argument "2". Expected continuation-loop restore N|best [--name NAME]',
    );
    expect(refusal(["--", "x"], {}, "/loop-pause")).toBe('/loop-pause: unexpected argument "x". Expected /loop-pause');
  });

  it("refuses a value the option does not accept, with what it expects", () => {
    const named: ArgsSpec = {
      options: {
        name: { value: "NAME", help: "a loop", accepts: { test: (v) => /^[a-z]+$/.test(v), expected: "a-z" } },
      },
    };
    expect(parseCliArgs("x", ["--name=ok"], named).options).toEqual({ name: "ok" });
    expect(refusal(["--name", "../x"], named, "/loop-stop")).toBe(
      '/loop-stop: --name: invalid value. Expected a-z; received "../x"',
    );
  });

  it("renders --help from the spec", () => {
    expect(renderCommandHelp("continuation-loop restore", "put a checkpoint back", words)).toBe(
      [
        "Usage: continuation-loop restore N|best [--name NAME]",
        "Put a checkpoint back.",
        "",
        "  --name NAME  a loop",
        "  --help       this text",
      ].join("\n"),
    );
  });

  it.each([
    [undefined, 20],
    ["5", 5],
    ["123456789", 123456789],
  ])("parseWholeNumber %j", (raw, expected) => {
    expect(parseWholeNumber(raw, "--limit", "continuation-loop history", 20)).toBe(expected);
  });

  it.each([["0"], ["x"], ["-1"], ["05"], ["1.5"], ["1234567890"], [true]] as const)(
    "parseWholeNumber refuses %j",
    (raw) => {
      let line = "";
      try {
        parseWholeNumber(raw, "--limit", "continuation-loop history", 20);
      } catch (error) {
        line = (error as LoopError).describe();
      }
      expect(line).toBe(
        `continuation-loop history: --limit: invalid value. Expected a whole number of at least 1; received ${JSON.stringify(raw)}`,
      );
    },
  );
});
