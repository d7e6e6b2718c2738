// The name meant by one mistyped (src/core/readMeantName.ts): for a state file's keys, the helper's commands
// and their options alike.
import { describe, expect, it } from "vitest";
import { readMeantName } from "../../src/core/readMeantName.js";

const COMMANDS = ["start", "restart", "stop", "pause", "resume", "status", "report", "history", "doctor"];

describe("readMeantName", () => {
  it.each([
    ["stauts", "status"],
    ["Status", "status"],
    ["hstory", "history"],
    ["histroy", "history"],
    ["docter", "doctor"],
    ["reusme", "resume"],
  ])("reads the command %s as %s", (typed, meant) => {
    expect(readMeantName(typed, COMMANDS)).toBe(meant);
  });

  it("counts two neighbouring letters swapped as one slip: stauts is status, not start", () => {
    expect(readMeantName("stauts", ["start", "status"])).toBe("status");
    expect(readMeantName("stauts", ["start"])).toBe("start");
    // A short name takes one slip only, so a swap there still matches.
    expect(readMeantName("nmae", ["name", "all"])).toBe("name");
  });

  it.each([
    ["htm", ["name", "html", "project"], "html"],
    ["limt", ["limit", "all", "json", "project"], "limit"],
    ["max_restart", ["report", "html", "max-restarts"], "max-restarts"],
    ["maxRestarts", ["report", "html", "max-restarts"], "max-restarts"],
    ["proj", ["name", "project"], undefined],
    ["projec", ["name", "project"], "project"],
  ])("reads the option --%s among %j as %s", (typed, names, meant) => {
    expect(readMeantName(typed, names)).toBe(meant);
  });

  it.each(["nope", "x", "deploy", "frobnicate", "statistics"])("names nothing for %s", (typed) => {
    expect(readMeantName(typed, COMMANDS)).toBeUndefined();
  });
});
