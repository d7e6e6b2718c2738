import { execFileSync } from "node:child_process";
import { appendFileSync, cpSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { describe, expect, it } from "vitest";
import {
  locateTodoSource,
  readLastTodoWrite,
  readUnfinishedTodos,
  resolveTaskListDir,
  taskListDirName,
  type TodoSourceOptions,
} from "../../src/io/readTodos.js";
import { MAX_SCAN_BACK } from "../../src/io/readTranscript.js";

const FIX = resolve(import.meta.dirname, "../fixtures/todos");
const NOWHERE = join(tmpdir(), "cl-no-such-home");
const opts = (
  config: string,
  sessionId: string | undefined,
  over: Partial<TodoSourceOptions> = {},
): TodoSourceOptions => ({
  env: { CLAUDE_CONFIG_DIR: join(FIX, config) },
  home: NOWHERE,
  sessionId,
  transcriptPath: undefined,
  ...over,
});
const transcript = (name: string) => join(FIX, "transcripts", name);
const P = (subject: string) => ({ subject, status: "pending" });
const A = (subject: string) => ({ subject, status: "in_progress" });

describe("readUnfinishedTodos: sources from fixture trees", () => {
  it.each([
    [
      "task list: in progress, then pending by numeric id; torn, foreign, internal, deleted and non-json files skipped",
      opts("tasks-mixed", "sess-mixed"),
      [A("Write the parser"), P("Add unit tests"), P("Update the README")],
    ],
    [
      "task list wins over the legacy file and the transcript",
      opts("tasks-mixed", "sess-mixed", { transcriptPath: transcript("todowrite.jsonl") }),
      [A("Write the parser"), P("Add unit tests"), P("Update the README")],
    ],
    ["task list all completed: [] (legacy file not consulted)", opts("tasks-done", "sess-done"), []],
    [
      "task list with many items, all returned in order",
      opts("many", "sess-many"),
      [A("Task number 4"), A("Task number 11"), ...[2, 3, 5, 6, 7, 8, 9, 10, 12].map((i) => P(`Task number ${i}`))],
    ],
    [
      "CLAUDE_CODE_TASK_LIST_ID wins over the session, named as Claude Code names it",
      opts("task-list-id", "sess-own", {
        env: { CLAUDE_CONFIG_DIR: join(FIX, "task-list-id"), CLAUDE_CODE_TASK_LIST_ID: "team.list 1" },
      }),
      [P("Shared team task")],
    ],
    [
      "the session's own list without CLAUDE_CODE_TASK_LIST_ID",
      opts("task-list-id", "sess-own"),
      [P("Own session task")],
    ],
    [
      "legacy file: list order, empty items skipped, subagent files ignored",
      opts("legacy", "sess-legacy"),
      [A("Build the hook"), P("Draft the design")],
    ],
    ["legacy file torn: exists, nothing readable", opts("legacy-torn", "sess-torn"), []],
    [
      "transcript: the last main-thread TodoWrite, torn last line and sidechain skipped",
      opts("legacy", "sess-other", { transcriptPath: transcript("todowrite.jsonl") }),
      [A("Fix the parser"), P("Run the suite"), P("Write the changelog")],
    ],
    [
      "transcript: last TodoWrite all completed",
      opts("legacy", "sess-other", { transcriptPath: transcript("todowrite-done.jsonl") }),
      [],
    ],
    [
      "transcript without TodoWrite: no source",
      opts("legacy", "sess-other", { transcriptPath: transcript("no-todowrite.jsonl") }),
      undefined,
    ],
    [
      "missing transcript: no source",
      opts("legacy", "sess-other", { transcriptPath: join(FIX, "nope.jsonl") }),
      undefined,
    ],
    ["transcript path is a folder: no source", opts("legacy", "sess-other", { transcriptPath: FIX }), undefined],
    ["no session, no transcript", opts("tasks-mixed", undefined), undefined],
    [
      "config dir missing",
      {
        env: { CLAUDE_CONFIG_DIR: join(FIX, "missing") },
        home: NOWHERE,
        sessionId: "sess-mixed",
        transcriptPath: undefined,
      },
      undefined,
    ],
  ] as const)("%s", (_name, options, expected) => {
    expect(readUnfinishedTodos(options)).toEqual(expected);
  });

  it.each([
    ["../../outside", "task dir"],
    ["../outside", "task dir one level up"],
    ["/abs/outside", "absolute"],
    ["..", "dot-dot"],
  ])("session id %j (%s) never leaves the config dir", (sessionId) => {
    const options = opts("traversal/config", sessionId);
    expect(resolveTaskListDir(options)!.startsWith(join(FIX, "traversal/config/tasks/"))).toBe(true);
    expect(readUnfinishedTodos(options)).toBeUndefined();
    expect(locateTodoSource(options)).toBeUndefined();
  });

  it.each([
    ["a uuid", "d7a6f4e7-9bd9-4bcb-9c85-22b0dd3f9a08", "d7a6f4e7-9bd9-4bcb-9c85-22b0dd3f9a08"],
    ["dots, slashes and spaces", "../a b/c.d", "---a-b-c-d"],
    ["underscores kept", "team_1", "team_1"],
  ])("taskListDirName: %s", (_name, id, expected) => {
    expect(taskListDirName(id)).toBe(expected);
  });

  it("uses ~/.claude from HOME when CLAUDE_CONFIG_DIR is unset", () => {
    expect(
      readUnfinishedTodos({
        env: { HOME: join(FIX, "legacy-home-absent") },
        home: NOWHERE,
        sessionId: "sess-mixed",
        transcriptPath: undefined,
      }),
    ).toBeUndefined();
    const home = mkdtempSync(join(tmpdir(), "cl-todo-home-"));
    cpSync(join(FIX, "tasks-mixed"), join(home, ".claude"), { recursive: true });
    expect(readUnfinishedTodos({ env: {}, home, sessionId: "sess-mixed", transcriptPath: undefined })).toHaveLength(3);
    expect(
      readUnfinishedTodos({ env: { HOME: home }, home: NOWHERE, sessionId: "sess-mixed", transcriptPath: undefined }),
    ).toHaveLength(3);
  });
});

describe("readUnfinishedTodos: damaged task lists (temp trees)", () => {
  const fresh = () => {
    const config = mkdtempSync(join(tmpdir(), "cl-todo-config-"));
    const dir = join(config, "tasks", "s1");
    mkdirSync(dir, { recursive: true });
    return {
      config,
      dir,
      options: {
        env: { CLAUDE_CONFIG_DIR: config },
        home: NOWHERE,
        sessionId: "s1",
        transcriptPath: transcript("todowrite.jsonl"),
      },
    };
  };
  const good = JSON.stringify({
    id: "1",
    subject: "Good one",
    description: "",
    status: "pending",
    blocks: [],
    blockedBy: [],
  });

  it("an empty task dir is a source with nothing unfinished (the transcript is not read)", () => {
    const { options } = fresh();
    expect(readUnfinishedTodos(options)).toEqual([]);
  });

  it("skips a folder named like a task file, a FIFO, an oversized file and binary junk", () => {
    const { dir, options } = fresh();
    writeFileSync(join(dir, "1.json"), good);
    mkdirSync(join(dir, "2.json"));
    execFileSync("mkfifo", [join(dir, "3.json")]);
    writeFileSync(
      join(dir, "4.json"),
      `{"id":"4","subject":"Huge","status":"pending","pad":"${"x".repeat(1100 * 1024)}"}`,
    );
    writeFileSync(join(dir, "5.json"), Buffer.from([0xff, 0xfe, 0x00, 0x01, 0x7b]));
    expect(readUnfinishedTodos(options)).toEqual([P("Good one")]);
  });

  it("a task list path that is a file is not a task list", () => {
    const config = mkdtempSync(join(tmpdir(), "cl-todo-config-"));
    mkdirSync(join(config, "tasks"));
    writeFileSync(join(config, "tasks", "s1"), good);
    expect(
      readUnfinishedTodos({
        env: { CLAUDE_CONFIG_DIR: config },
        home: NOWHERE,
        sessionId: "s1",
        transcriptPath: undefined,
      }),
    ).toBeUndefined();
  });
});

describe("readLastTodoWrite: bounded read from the end", () => {
  const call = (subject: string) =>
    `${JSON.stringify({ type: "assistant", isSidechain: false, message: { role: "assistant", content: [{ type: "tool_use", id: "t", name: "TodoWrite", input: { todos: [{ content: subject, status: "pending", activeForm: subject }] } }] } })}\n`;
  const filler = (bytes: number) => {
    const one = `${JSON.stringify({ type: "user", message: { role: "user", content: "x".repeat(4000) } })}\n`;
    return one.repeat(Math.ceil(bytes / one.length));
  };

  it("finds a call within reach of the end of a large transcript", () => {
    const path = join(mkdtempSync(join(tmpdir(), "cl-todo-tr-")), "t.jsonl");
    writeFileSync(path, call("Too old") + filler(MAX_SCAN_BACK + 1024) + call("Recent") + filler(MAX_SCAN_BACK / 2));
    expect(readLastTodoWrite(path)).toEqual([{ id: undefined, subject: "Recent", status: "pending" }]);
  });

  it("does not read past MAX_SCAN_BACK: an older call is out of reach", () => {
    const path = join(mkdtempSync(join(tmpdir(), "cl-todo-tr-")), "t.jsonl");
    writeFileSync(path, call("Too old") + filler(MAX_SCAN_BACK + 1024));
    expect(readLastTodoWrite(path)).toBeUndefined();
  });

  it.each([-12, -11, -10, -5, -1, 0, 1, 2])(
    "finds a call whose name straddles a 64 KiB read boundary (shift %i)",
    (shift) => {
      const line = call("Straddling");
      const after = line.length - line.indexOf('"TodoWrite"'); // bytes from the name to the end of its line
      const pad = 65536 - shift - after;
      const filler = `${JSON.stringify({ type: "user", message: { role: "user", content: "" } }).replace('""', `"${"x".repeat(pad - 55)}"`)}\n`;
      expect(filler.length).toBe(pad);
      const path = join(mkdtempSync(join(tmpdir(), "cl-todo-tr-")), "t.jsonl");
      writeFileSync(path, filler.repeat(3) + line + filler);
      expect(readLastTodoWrite(path)?.map((t) => t.subject)).toEqual(["Straddling"]);
    },
  );

  it("the newest of several calls in one message wins; the fixture's torn tail is tolerated", () => {
    const dir = mkdtempSync(join(tmpdir(), "cl-todo-tr-"));
    const path = join(dir, "t.jsonl");
    writeFileSync(path, readFileSync(transcript("todowrite-done.jsonl")));
    const two = JSON.parse(call("First")) as { message: { content: unknown[] } };
    two.message.content.push((JSON.parse(call("Second")) as { message: { content: unknown[] } }).message.content[0]);
    appendFileSync(
      path,
      `${JSON.stringify(two)}\n{"type":"assistant","message":{"content":[{"type":"tool_use","name":"TodoWrite"`,
    );
    expect(readLastTodoWrite(path)?.map((t) => t.subject)).toEqual(["Second"]);
  });
});
