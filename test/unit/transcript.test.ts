import { describe, expect, it } from "vitest";
import {
  fingerprintToolCalls,
  insertByTime,
  parseTranscriptLine,
  placeAbove,
  readAllRefused,
  readRefusedTools,
  scanReply,
  tallyUsage,
  type TranscriptEntry,
} from "../../src/core/transcript.js";

const line = (o: object) => JSON.stringify(o);
const user = (content: unknown) => ({ type: "user", message: { role: "user", content } });
const assistant = (text: string, extra: object = {}) => ({
  type: "assistant",
  message: { role: "assistant", content: [{ type: "text", text }], ...extra },
});
const entries = (...objs: object[]) =>
  objs.map((o) => parseTranscriptLine(line(o))).filter((e): e is TranscriptEntry => !!e);

describe("parseTranscriptLine", () => {
  it.each([
    ["blank", ""],
    ["torn", '{"type":"assistant","message":{"con'],
    ["not an object", "[1,2]"],
    ["no message", '{"type":"summary","summary":"x"}'],
  ])("ignores %s lines", (_name, text) => {
    expect(parseTranscriptLine(text)).toBeUndefined();
  });

  it("reads text, tool uses, usage and model", () => {
    const entry = parseTranscriptLine(
      line({
        type: "assistant",
        message: {
          id: "m1",
          model: "claude-x",
          content: [
            { type: "text", text: "hi" },
            { type: "tool_use", name: "Bash", input: { command: "ls" } },
          ],
          usage: { output_tokens: 12 },
        },
      }),
    );
    expect(entry).toMatchObject({
      type: "assistant",
      texts: ["hi"],
      messageId: "m1",
      model: "claude-x",
      outputTokens: 12,
      toolUses: [{ name: "Bash", input: { command: "ls" } }],
    });
  });

  it("tells tool results from prompts", () => {
    expect(parseTranscriptLine(line(user([{ type: "tool_result", content: "ok" }])))?.toolResultOnly).toBe(true);
    expect(parseTranscriptLine(line(user("a prompt")))?.toolResultOnly).toBe(false);
  });
});

describe("scanReply reads only the final assistant reply", () => {
  it.each([
    ["the last assistant text", [user("go"), assistant("first"), assistant("second")], "first\nsecond", true],
    [
      "text after the last tool result",
      [user("go"), assistant("thinking"), user([{ type: "tool_result", content: "x" }]), assistant("final")],
      "final",
      true,
    ],
    ["never the user's prompt", [assistant("old DONE"), user("say DONE")], "", true],
    [
      "never injected continuation text",
      [assistant("working"), user("[SYSTEM REMINDER - CONTINUATION LOOP ACTIVE] say DONE")],
      "",
      true,
    ],
    ["no user entry in reach", [assistant("a"), assistant("b")], "a\nb", false],
    ["sidechains skipped", [user("go"), assistant("main"), { ...assistant("side"), isSidechain: true }], "main", true],
  ])("%s", (_name, objs, reply, complete) => {
    expect(scanReply(entries(...objs).reverse())).toEqual({ reply, complete });
  });
});

describe("tallyUsage", () => {
  const zero = { total: 0, byModel: {}, lastId: "", lastTokens: 0 };
  it("sums output tokens per message and per model, once per message", () => {
    const list = entries(
      assistant("a", { id: "m1", model: "opus", usage: { output_tokens: 10 } }),
      assistant("b", { id: "m1", model: "opus", usage: { output_tokens: 10 } }),
      user([{ type: "tool_result", content: "" }]),
      assistant("c", { id: "m2", model: "haiku", usage: { output_tokens: 5 } }),
    );
    expect(tallyUsage(list, zero)).toEqual({ total: 15, byModel: { opus: 10, haiku: 5 }, lastId: "m2", lastTokens: 5 });
  });

  it("leaves out a subagent's lines (isSidechain), written into the main transcript or not", () => {
    const list = entries(
      assistant("main", { id: "m1", model: "opus", usage: { output_tokens: 10 } }),
      { ...assistant("sub", { id: "s1", model: "opus", usage: { output_tokens: 5000 } }), isSidechain: true },
      assistant("main again", { id: "m2", model: "opus", usage: { output_tokens: 3 } }),
    );
    expect(tallyUsage(list, zero)).toEqual({ total: 13, byModel: { opus: 13 }, lastId: "m2", lastTokens: 3 });
  });

  it("does not count a message twice across two reads", () => {
    const first = tallyUsage(entries(assistant("a", { id: "m1", model: "x", usage: { output_tokens: 4 } })), zero);
    const second = tallyUsage(
      entries(
        assistant("b", { id: "m1", model: "x", usage: { output_tokens: 9 } }),
        assistant("c", { id: "m2", model: "x", usage: { output_tokens: 1 } }),
      ),
      first,
    );
    expect(second.total).toBe(10);
  });
});

describe("readRefusedTools: the calls Claude Code's permission check refused in a turn", () => {
  const call = (name: string, id: string) => ({
    type: "assistant",
    message: { role: "assistant", content: [{ type: "tool_use", id, name, input: {} }] },
  });
  const result = (id: string, extra: object = {}) => ({
    ...user([{ type: "tool_result", tool_use_id: id, content: "x", is_error: true }]),
    ...extra,
  });
  const refused = { permissionDecision: { decision: "reject", source: "config" } };

  it("names each refused tool once, by its call; a failed or allowed call is not refused", () => {
    const turn = entries(
      user("go"),
      call("Bash", "t1"),
      result("t1", refused),
      call("Write", "t2"),
      result("t2", { permissionDecision: { decision: "allow" } }),
      call("Bash", "t3"),
      result("t3", refused),
      call("Edit", "t4"),
      result("t4"),
    );
    expect(readRefusedTools(turn)).toEqual(["Bash"]);
  });

  it("readAllRefused: every call of the turn since its start refused, at least one; a call that ran or failed is work", () => {
    expect(readAllRefused(entries(user("go"), call("Bash", "t1"), result("t1", refused)))).toBe(true);
    expect(
      readAllRefused(
        entries(
          call("Bash", "t0"),
          result("t0"),
          user("go"),
          call("Bash", "t1"),
          result("t1", refused),
          assistant("no"),
        ),
      ),
    ).toBe(true);
    expect(
      readAllRefused(entries(user("go"), call("Bash", "t1"), result("t1", refused), call("Edit", "t2"), result("t2"))),
    ).toBe(false);
    expect(readAllRefused(entries(user("go"), call("Bash", "t1"), result("t1")))).toBe(false);
    expect(readAllRefused(entries(user("go"), assistant("nothing to do")))).toBe(false);
  });

  it("a refusal whose call is not in the entries read is 'a tool'; a subagent's refusals are its own", () => {
    expect(readRefusedTools(entries(result("gone", refused)))).toEqual(["a tool"]);
    expect(
      readRefusedTools(
        entries({ ...call("Bash", "s1"), isSidechain: true }, { ...result("s1", refused), isSidechain: true }),
      ),
    ).toEqual([]);
  });
});

describe("fingerprintToolCalls: outside git, what the last turn did", () => {
  const call = (name: string, input: unknown, id: string, extra: object = {}) => ({
    type: "assistant",
    message: { role: "assistant", content: [{ type: "tool_use", id, name, input }] },
    ...extra,
  });
  const result = (id: string) => user([{ type: "tool_result", tool_use_id: id, content: "ok" }]);
  const turn = (...calls: object[]) =>
    entries(user("go"), ...calls.flatMap((c, i) => [c, result(`r${i}`)]), assistant("Done."));
  const edit = (file: string, id: string) => call("Edit", { file_path: file, new_string: "x" }, id);

  it("is empty for a turn that called no tool, and for no entries", () => {
    expect(fingerprintToolCalls(entries(user("go"), assistant("Done.")))).toBe("");
    expect(fingerprintToolCalls([])).toBe("");
  });

  it("is the same for the same calls, whatever their ids, and differs by a tool, an input or the order", () => {
    const same = fingerprintToolCalls(turn(edit("a.ts", "t1"), call("Bash", { command: "npm test" }, "t2")));
    expect(same).not.toBe("");
    expect(fingerprintToolCalls(turn(edit("a.ts", "u1"), call("Bash", { command: "npm test" }, "u2")))).toBe(same);
    for (const other of [
      turn(edit("b.ts", "t1"), call("Bash", { command: "npm test" }, "t2")),
      turn(edit("a.ts", "t1"), call("Read", { command: "npm test" }, "t2")),
      turn(call("Bash", { command: "npm test" }, "t2"), edit("a.ts", "t1")),
      turn(edit("a.ts", "t1")),
    ])
      expect(fingerprintToolCalls(other)).not.toBe(same);
  });

  it("reads only the last turn, leaves a subagent's calls out and counts a line written twice once", () => {
    const last = fingerprintToolCalls(turn(edit("a.ts", "t1")));
    const earlier = entries(user("before"), edit("z.ts", "t0"), result("t0"), assistant("Done."));
    expect(fingerprintToolCalls([...earlier, ...turn(edit("a.ts", "t1"))])).toBe(last);
    const sub = call("Write", { file_path: "s.ts", content: "" }, "s1", { isSidechain: true });
    expect(fingerprintToolCalls(turn(edit("a.ts", "t1"), sub))).toBe(last);
    expect(fingerprintToolCalls(turn(edit("a.ts", "t1"), edit("a.ts", "t1")))).toBe(last);
  });
});

describe("placeAbove and insertByTime: a reply written above the turn start it answers (2.1.197)", () => {
  const at = (o: object, time: string) =>
    entries({ ...o, timestamp: `2026-11-30T19:31:${time}Z` })[0] as TranscriptEntry;
  const start = at(user("go"), "08.378");

  it("a main-thread reply later than the turn start is the turn's; the prompt's own lines are passed over", () => {
    expect(placeAbove(at(assistant("first"), "08.572"), start)).toBe("turn");
    expect(placeAbove(at(user("the prompt's expansion"), "08.378"), start)).toBe("skip");
    expect(placeAbove(at({ ...assistant("a subagent's"), isSidechain: true }, "08.572"), start)).toBe("skip");
  });

  it("an older line, or one with no time, ends the walk", () => {
    expect(placeAbove(at(assistant("the turn before"), "01.000"), start)).toBe("before");
    expect(placeAbove(entries(assistant("no time"))[0] as TranscriptEntry, start)).toBe("before");
    expect(placeAbove(at(assistant("first"), "08.572"), entries(user("go"))[0] as TranscriptEntry)).toBe("before");
  });

  it("each reply goes before the first line after the turn start that is later than it, in file order", () => {
    const lines = [
      start,
      at(user([{ type: "tool_result", tool_use_id: "t1" }]), "15.000"),
      at(assistant("end"), "16.000"),
    ];
    const later = [at(assistant("a"), "08.572"), at(assistant("b"), "08.572")];
    const placed = insertByTime(
      lines.map((entry) => ({ entry })),
      later.map((entry) => ({ entry })),
    );
    expect(placed.map(({ entry }) => entry.texts[0] ?? entry.type)).toEqual(["go", "a", "b", "user", "end"]);
    const last = insertByTime([{ entry: start }], [{ entry: at(assistant("only"), "09.000") }]);
    expect(last.map(({ entry }) => entry.texts[0])).toEqual(["go", "only"]);
  });
});
