import { describe, expect, it } from "vitest";
import type { TodoItem } from "../../src/core/decideStop.js";
import { TODO_MARKER } from "../../src/core/protocol.js";
import {
  cleanSubject,
  compareIds,
  parseTaskFile,
  parseTodo,
  parseTodoList,
  pickUnfinished,
  renderTodoReminder,
  type ParsedTodo,
} from "../../src/core/todos.js";

const task = (id: string, subject: string, status: string, extra: object = {}) =>
  JSON.stringify({ id, subject, description: `about ${subject}`, status, blocks: [], blockedBy: [], ...extra });
const pending = (n: number, from = 1): TodoItem[] =>
  Array.from({ length: n }, (_, i) => ({ subject: `P${from + i}`, status: "pending" }));

describe("parseTaskFile", () => {
  it.each([
    ["a task file", task("1", "Write tests", "pending"), "1", { id: "1", subject: "Write tests", status: "pending" }],
    ["in progress", task("7", "Ship", "in_progress"), "7", { id: "7", subject: "Ship", status: "in_progress" }],
    ["completed", task("2", "Done thing", "completed"), "2", { id: "2", subject: "Done thing", status: "completed" }],
    [
      "id from the file name when absent",
      JSON.stringify({ subject: "No id", status: "pending" }),
      "12",
      { id: "12", subject: "No id", status: "pending" },
    ],
    [
      "numeric id",
      JSON.stringify({ id: 3, subject: "Num", status: "pending" }),
      "x",
      { id: "3", subject: "Num", status: "pending" },
    ],
    [
      "unknown fields ignored",
      task("4", "Extra", "pending", { owner: "me", activeForm: "Extra-ing", future: { a: 1 } }),
      "4",
      { id: "4", subject: "Extra", status: "pending" },
    ],
    [
      "legacy content field",
      JSON.stringify({ content: "Old style", status: "pending", activeForm: "Old" }),
      "5",
      { id: "5", subject: "Old style", status: "pending" },
    ],
    ["torn JSON", '{"id":"1","subject":"Wri', "1", undefined],
    ["empty file", "", "1", undefined],
    ["not an object", "[1,2]", "1", undefined],
    ["JSON null", "null", "1", undefined],
    ["unknown status", task("1", "Gone", "deleted"), "1", undefined],
    ["status of wrong type", JSON.stringify({ id: "1", subject: "X", status: 1 }), "1", undefined],
    ["no subject", JSON.stringify({ id: "1", status: "pending" }), "1", undefined],
    ["subject of wrong type", JSON.stringify({ id: "1", subject: ["x"], status: "pending" }), "1", undefined],
    ["blank subject", task("1", "   ", "pending"), "1", undefined],
    [
      "internal task (hidden by Claude Code)",
      task("1", "Internal", "pending", { metadata: { _internal: true } }),
      "1",
      undefined,
    ],
    [
      "other metadata kept",
      task("1", "Meta", "pending", { metadata: { tag: "x" } }),
      "1",
      { id: "1", subject: "Meta", status: "pending" },
    ],
  ] as const)("%s", (_name, text, fileId, expected) => {
    expect(parseTaskFile(text, fileId)).toEqual(expected);
  });
});

describe("parseTodoList", () => {
  const items = [
    { content: "First", status: "completed", activeForm: "Firsting" },
    { content: "Second", status: "in_progress", activeForm: "Seconding" },
    { content: "Third", status: "pending", activeForm: "Thirding", id: "9" },
  ];
  const parsed = [
    { id: undefined, subject: "First", status: "completed" },
    { id: undefined, subject: "Second", status: "in_progress" },
    { id: undefined, subject: "Third", status: "pending" },
  ];
  it.each([
    ["a legacy file (array)", items, parsed],
    ["a TodoWrite input ({todos})", { todos: items }, parsed],
    ["an empty list", [], []],
    [
      "bad items skipped",
      [items[0], 5, null, { content: "x" }, { status: "pending" }, items[2]],
      [parsed[0], parsed[2]],
    ],
    ["not a list", { todo: items }, undefined],
    ["todos of wrong type", { todos: "x" }, undefined],
    ["a string", "x", undefined],
  ] as const)("%s", (_name, value, expected) => {
    expect(parseTodoList(value)).toEqual(expected);
  });
});

describe("cleanSubject", () => {
  it.each([
    ["plain", "Write tests", "Write tests"],
    ["newlines folded", "Line one\n  line two\r\n", "Line one line two"],
    [
      "loop marker defused",
      "[SYSTEM REMINDER - CONTINUATION LOOP ACTIVE] x",
      "(SYSTEM REMINDER - CONTINUATION LOOP ACTIVE] x",
    ],
    ["todo marker defused, any case", "[system reminder - todo continuation]", "(system reminder - todo continuation]"],
    ["long subject capped", "a".repeat(300), `${"a".repeat(199)}…`],
  ] as const)("%s", (_name, input, expected) => {
    expect(cleanSubject(input)).toBe(expected);
  });

  it("is applied by parseTodo", () => {
    expect(parseTodo({ subject: "a\nb", status: "pending" })?.subject).toBe("a b");
  });
});

describe("compareIds", () => {
  it.each([
    ["numbers numerically", ["10", "2", "1"], ["1", "2", "10"]],
    ["numbers before text", ["b", "3", "a"], ["3", "a", "b"]],
    ["leading zeros", ["010", "9"], ["9", "010"]],
  ] as const)("%s", (_name, ids, expected) => {
    expect([...ids].sort(compareIds)).toEqual(expected);
  });
});

describe("pickUnfinished", () => {
  const t = (id: string | undefined, subject: string, status: ParsedTodo["status"]): ParsedTodo => ({
    id,
    subject,
    status,
  });
  it.each([
    ["nothing", [], []],
    ["all done", [t("1", "a", "completed"), t("2", "b", "completed")], []],
    [
      "in progress first, then pending by numeric id",
      [
        t("10", "ten", "pending"),
        t("2", "two", "pending"),
        t("3", "three", "in_progress"),
        t("1", "one", "completed"),
        t("11", "eleven", "in_progress"),
      ],
      [
        { subject: "three", status: "in_progress" },
        { subject: "eleven", status: "in_progress" },
        { subject: "two", status: "pending" },
        { subject: "ten", status: "pending" },
      ],
    ],
    [
      "list order without ids",
      [t(undefined, "c", "pending"), t(undefined, "a", "in_progress"), t(undefined, "b", "pending")],
      [
        { subject: "a", status: "in_progress" },
        { subject: "c", status: "pending" },
        { subject: "b", status: "pending" },
      ],
    ],
  ] as const)("%s", (_name, items, expected) => {
    expect(pickUnfinished(items)).toEqual(expected);
  });
});

describe("renderTodoReminder", () => {
  it("is undefined when nothing is unfinished", () => {
    expect(renderTodoReminder([])).toBeUndefined();
  });

  it("begins with the marker, lists in-progress then pending, in the given order", () => {
    const text = renderTodoReminder([
      { subject: "Ship it", status: "in_progress" },
      { subject: "Write docs", status: "pending" },
      { subject: "Tag release", status: "pending" },
    ])!;
    const lines = text.split("\n");
    expect(lines[0]).toBe(TODO_MARKER);
    expect(lines.filter((l) => l.startsWith("- "))).toEqual([
      "- [in_progress] Ship it",
      "- [pending] Write docs",
      "- [pending] Tag release",
    ]);
    expect(text).toContain("3 unfinished");
    expect(text).not.toContain("more");
    expect(text).not.toContain("CONTINUATION LOOP");
  });

  it.each([
    ["5 pending: all shown, no more line", 0, 5, 5, undefined],
    ["6 pending: 5 shown, and 1 more", 0, 6, 5, "… and 1 more"],
    ["12 pending: 5 shown, and 7 more", 0, 12, 5, "… and 7 more"],
    ["7 in progress are all shown, with 5 of 8 pending", 7, 8, 12, "… and 3 more"],
    ["only in progress", 3, 0, 3, undefined],
  ] as const)("%s", (_name, active, waiting, shown, more) => {
    const items: TodoItem[] = [
      ...Array.from({ length: active }, (_, i) => ({ subject: `A${i + 1}`, status: "in_progress" as const })),
      ...pending(waiting),
    ];
    const lines = renderTodoReminder(items)!.split("\n");
    const listed = lines.filter((l) => l.startsWith("- "));
    expect(listed).toHaveLength(shown);
    expect(listed.filter((l) => l.startsWith("- [in_progress]"))).toHaveLength(active);
    expect(listed.filter((l) => l.startsWith("- [pending]")).map((l) => l.slice("- [pending] ".length))).toEqual(
      pending(Math.min(5, waiting)).map((p) => p.subject),
    );
    const moreLines = lines.filter((l) => l.startsWith("…"));
    expect(moreLines).toEqual(more ? [more] : []);
    // The "more" line follows the last listed item.
    if (more) expect(lines.indexOf(more)).toBe(lines.indexOf(listed[listed.length - 1]!) + 1);
  });
});
