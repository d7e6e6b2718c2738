import { describe, expect, it } from "vitest";
import { LoopError } from "../../src/core/errors.js";
import { intOption, parseCliArgs } from "../../src/app/parseCliArgs.js";

const spec = { project: "value", json: "flag", limit: "value" } as const;

describe("parseCliArgs", () => {
  it.each([
    [[], {}],
    [["--project", "dir"], { project: "dir" }],
    [["--project=a b"], { project: "a b" }],
    [["--json", "--limit", "3"], { json: true, limit: "3" }],
  ])("%j", (argv, expected) => {
    expect(parseCliArgs("x", argv, spec)).toEqual(expected);
  });

  it.each([
    [["stray"], "unexpected argument"],
    [["--nope"], "unexpected argument"],
    [["--project"], "needs a value"],
    [["--json=yes"], "takes no value"],
    [["--project="], "needs a value"],
    [["--project", "--json"], "needs a value"],
    [["-x"], "unexpected argument"],
  ])("refuses %j", (argv, message) => {
    expect(() => parseCliArgs("x", argv, spec)).toThrow(message);
  });

  it("names the command, the flag and what it expects", () => {
    const describe = (argv: string[]) => {
      try {
        parseCliArgs("history", argv, spec);
      } catch (error) {
        return (error as LoopError).describe();
      }
      return "";
    };
    expect(describe(["--project"])).toContain("continuation-loop history");
    expect(describe(["--project"])).toContain("--project");
    expect(describe(["--json=1"])).toContain("--json");
    expect(describe(["--nope"])).toContain('"--nope"');
    expect(describe(["--nope"])).toContain("--project, --json, --limit");
    expect(describe(["stray"])).toContain('"stray"');
  });

  it.each([
    [{}, 20],
    [{ limit: "5" }, 5],
  ])("intOption %j", (options, expected) => {
    expect(intOption(options, "limit", 20, "history")).toBe(expected);
  });

  it.each([["0"], ["x"], ["-1"]])("intOption refuses %s", (value) => {
    expect(() => intOption({ limit: value }, "limit", 20, "history")).toThrow(LoopError);
  });
});
