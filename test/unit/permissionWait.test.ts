// Which tool a permission prompt is for (docs/REFERENCE.md "Subagents"): the Notification's input names no subagent,
// so a subagent's prompt is told by the calls pending in the transcripts, and never named by the main thread's call.
import { describe, expect, it } from "vitest";
import { parsePermissionTool, renderPermissionWait } from "../../src/core/permissionWait.js";

describe("parsePermissionTool", () => {
  it("takes the tool the message names (the main thread's, newest pin) over any transcript", () => {
    expect(parsePermissionTool("Claude needs your permission to use Bash", { main: "Edit", subagent: "Write" })).toBe(
      "Bash",
    );
    expect(parsePermissionTool("Claude needs your permission to use mcp__db__query.")).toBe("mcp__db__query");
  });

  it("names the main thread's pending call when the message names none", () => {
    expect(parsePermissionTool("Claude needs your permission", { main: "Edit" })).toBe("Edit");
  });

  it("names a subagent's call as a subagent's when the main thread's pending call runs the subagent", () => {
    for (const main of ["Agent", "Task"])
      expect(parsePermissionTool("Claude needs your permission", { main, subagent: "Bash" })).toBe(
        "Bash, from a subagent",
      );
  });

  it("names a background subagent's call as a subagent's when the main thread has no pending call", () => {
    expect(parsePermissionTool("Claude needs your permission", { subagent: "Write" })).toBe("Write, from a subagent");
  });

  it("never names the Agent call: a subagent's tool, unnamed, when its transcript does not hold the call yet", () => {
    expect(parsePermissionTool("Claude needs your permission", { main: "Agent" })).toBe("a subagent's tool");
    expect(renderPermissionWait({ tool: parsePermissionTool(undefined, { main: "Agent" }) })).toBe(
      "waiting for your permission (a subagent's tool)",
    );
  });

  it("says a tool when nothing tells which", () => {
    expect(parsePermissionTool("Claude needs your permission")).toBe("a tool");
    expect(parsePermissionTool(undefined, {})).toBe("a tool");
  });
});
