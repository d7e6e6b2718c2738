// Which tool a permission prompt is for (docs/REFERENCE.md "Subagents"): the Notification's input names no subagent,
// so a subagent's prompt is told by the calls pending in the transcripts, and never named by the main thread's call.
import { describe, expect, it } from "vitest";
import { choosePendingCall, parsePermissionTool, renderPermissionWait } from "../../src/core/permissionWait.js";
import {
  findAnsweredCall,
  findCallAnswer,
  findNewestMessage,
  parseTranscriptLine,
  type TranscriptEntry,
} from "../../src/core/transcript.js";

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

describe("choosePendingCall", () => {
  const call = (name: string, transcript = "t.jsonl") => ({ name, id: `toolu_${name}`, transcript });

  it("takes the main thread's call, unless it runs a subagent: then the subagent's, in its own transcript", () => {
    expect(choosePendingCall("Claude needs your permission to use Bash", call("Bash"), undefined)).toEqual(
      call("Bash"),
    );
    const sub = call("Write", "agent-a1.jsonl");
    expect(choosePendingCall("Claude needs your permission", call("Agent"), sub)).toEqual(sub);
    expect(choosePendingCall(undefined, undefined, sub)).toEqual(sub);
  });

  it("takes none when the message names another tool than the call found: never a wrong call", () => {
    expect(choosePendingCall("Claude needs your permission to use Bash", call("Edit"), undefined)).toBeUndefined();
    expect(choosePendingCall("Claude needs your permission", call("Agent"), undefined)).toBeUndefined();
  });
});

const entry = (line: object): TranscriptEntry => {
  const parsed = parseTranscriptLine(JSON.stringify(line));
  if (!parsed) throw new Error("not a transcript line");
  return parsed;
};
const callLine = entry({
  type: "assistant",
  message: { role: "assistant", content: [{ type: "tool_use", id: "toolu_1", name: "Bash", input: {} }] },
});
const resultLine = (id: string) =>
  entry({
    type: "user",
    message: { role: "user", content: [{ type: "tool_result", tool_use_id: id, content: "ok" }] },
  });
const reply = entry({
  type: "assistant",
  message: { role: "assistant", content: [{ type: "text", text: "made it" }] },
});

describe("findCallAnswer", () => {
  it("answered once the call's result is written, whatever follows it", () => {
    expect(findCallAnswer([resultLine("toolu_1"), callLine], "toolu_1")).toBe("answered");
    expect(findCallAnswer([reply, resultLine("toolu_1"), callLine], "toolu_1")).toBe("answered");
  });

  it("pending while the call has no result after it; another call's result does not answer it", () => {
    expect(findCallAnswer([callLine], "toolu_1")).toBe("pending");
    expect(findCallAnswer([resultLine("toolu_0"), callLine], "toolu_1")).toBe("pending");
  });

  it("undefined when neither the call nor its result is among the entries", () => {
    expect(findCallAnswer([reply], "toolu_1")).toBeUndefined();
  });
});

describe("findAnsweredCall (the call was not in the transcript when the prompt opened)", () => {
  it("true once a call among the entries has its result after it", () => {
    expect(findAnsweredCall([reply, resultLine("toolu_1"), callLine])).toBe(true);
  });

  it("false for a call alone, or a result whose call came before the entries", () => {
    expect(findAnsweredCall([callLine])).toBe(false);
    expect(findAnsweredCall([resultLine("toolu_1")])).toBe(false);
  });
});

describe("findNewestMessage", () => {
  const at = (line: object, timestamp: string) => entry({ ...line, timestamp });
  const prompt = { type: "user", message: { role: "user", content: "Make the file" } };
  const call = {
    type: "assistant",
    message: { role: "assistant", content: [{ type: "tool_use", id: "toolu_1", name: "Bash", input: {} }] },
  };
  const expansion = { type: "user", message: { role: "user", content: [{ type: "text", text: "The skill's text" }] } };

  it("takes the message with the latest time, though lines written after it stand below it (2.1.197's first turn)", () => {
    const newestFirst = [
      at(expansion, "2026-01-01T00:00:00.378Z"),
      at(prompt, "2026-01-01T00:00:00.378Z"),
      at(call, "2026-01-01T00:00:00.572Z"),
    ];
    expect(findNewestMessage(newestFirst)?.toolUses[0]?.id).toBe("toolu_1");
  });

  it("takes the later line when the times are equal or either line has none", () => {
    const same = "2026-01-01T00:00:00.000Z";
    expect(findNewestMessage([at(prompt, same), at(call, same)])?.type).toBe("user");
    expect(findNewestMessage([entry(prompt), at(call, "2026-01-01T00:00:01.000Z")])?.type).toBe("user");
    expect(findNewestMessage([entry(prompt), entry(call)])?.type).toBe("user");
  });

  it("keeps to the main thread, or to a subagent's lines when asked", () => {
    const side = entry({ ...call, isSidechain: true });
    expect(findNewestMessage([side, entry(prompt)])?.type).toBe("user");
    expect(findNewestMessage([side, entry(prompt)], true)).toBe(side);
    expect(findNewestMessage([side])).toBeUndefined();
  });
});
