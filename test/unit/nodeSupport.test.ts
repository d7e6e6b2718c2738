import { describe, expect, it } from "vitest";
import { acceptsNodeVersion, readNodeNeeded, renderNodeNeeded } from "../../src/core/nodeSupport.js";

describe("acceptsNodeVersion: 20.16 or later (package.json engines)", () => {
  it.each([
    ["20.16.0", true],
    ["20.16.1", true],
    ["20.20.2", true],
    ["21.0.0", true],
    ["22.23.3", true],
    ["24.21.0", true],
    ["20.15.1", false],
    ["20.0.0", false],
    ["18.19.0", false],
    ["16.20.2", false],
    ["12.22.9", false],
    ["", false],
    ["20", false],
    ["v22.1.0", false],
  ])("%s → %s", (version, accepted) => {
    expect(acceptsNodeVersion(version)).toBe(accepted);
  });
});

describe("renderNodeNeeded", () => {
  it("says in one line what is missing, how to check it, and that nothing else is affected", () => {
    for (const line of [renderNodeNeeded(), renderNodeNeeded("18.19.0")]) {
      expect(line).not.toContain("\n");
      expect(line).toMatch(/^continuation-loop: needs Node\.js 20\.16 or later on PATH/);
      expect(line).toContain("node --version");
      expect(line).toContain("nothing else in Claude Code is affected");
    }
    expect(renderNodeNeeded()).toContain("found none that runs");
    expect(renderNodeNeeded("18.19.0")).toContain("found v18.19.0");
    // The shell guard prints it inside single quotes and JSON (hooks/hooks.json).
    expect(renderNodeNeeded()).not.toMatch(/['"\\%]/);
  });
});

describe("readNodeNeeded", () => {
  it("knows the line in a hook's or the helper's output, and no other text", () => {
    expect(readNodeNeeded(`${renderNodeNeeded("18.19.0")}\n`)).toBe(renderNodeNeeded("18.19.0"));
    expect(readNodeNeeded(renderNodeNeeded())).toBe(renderNodeNeeded());
    expect(readNodeNeeded("continuation-loop: loop stopped at iteration 2/5")).toBeUndefined();
    expect(readNodeNeeded("")).toBeUndefined();
  });
});
