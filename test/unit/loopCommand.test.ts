import { describe, expect, it } from "vitest";
import { matchLoopCommand, renderSiblingCommand } from "../../src/core/loopCommand.js";

describe("matchLoopCommand", () => {
  it.each([
    ["/loop-start Fix it", { name: "start", args: "Fix it" }],
    ["/continuation-loop:loop-start --max-iterations 2 Go", { name: "start", args: "--max-iterations 2 Go" }],
    ["/loop-start\nmulti\nline", { name: "start", args: "multi\nline" }],
    ["  /loop-stop", { name: "stop", args: "" }],
    ["/continuation-loop:loop-status", { name: "status", args: "" }],
    ["/loop-status now please", { name: "status", args: "now please" }],
    ['/loop-start it\'s "x" $(y)', { name: "start", args: 'it\'s "x" $(y)' }],
    // The shape only: whether /loop-restart exists is the command table's word (isSlashCommand).
    ["/loop-restart Go", { name: "restart", args: "Go" }],
  ])("%j", (prompt, expected) => {
    expect(matchLoopCommand(prompt)).toEqual(
      expected && { ...expected, typed: expect.stringMatching(/^\/(continuation-loop:)?loop-/) },
    );
  });

  it.each([
    ["a plain prompt", "please /loop-start later"],
    ["another plugin's command", "/other:loop-start Go"],
    ["a command without the slash", "loop-start Go"],
    ["a name glued to the text", "/loop-start:Go"],
    ["an upper-case name", "/loop-Start Go"],
  ])("ignores %s", (_name, prompt) => {
    expect(matchLoopCommand(prompt)).toBeUndefined();
  });
});

describe("renderSiblingCommand", () => {
  it.each([
    ["/loop-pause", "/loop-resume"],
    ["/continuation-loop:loop-pause", "/continuation-loop:loop-resume"],
    ["/loop-start --again", "/loop-resume"],
    ["continuation-loop pause", "continuation-loop resume"],
    ["continuation-loop restart", "continuation-loop resume"],
    ["anything", "/loop-resume"],
  ])("%s → %s", (command, expected) => {
    expect(renderSiblingCommand(command, "resume")).toBe(expected);
  });

  it("names a named loop with --name, the default loop with none", () => {
    expect(renderSiblingCommand("continuation-loop pause", "resume", "docs")).toBe(
      "continuation-loop resume --name docs",
    );
    expect(renderSiblingCommand("/loop-pause", "resume", "default")).toBe("/loop-resume");
  });
});
