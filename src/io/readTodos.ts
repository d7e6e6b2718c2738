import { closeSync, type Dirent, fstatSync, openSync, readdirSync, statSync, readSync } from "node:fs";
import { join, sep } from "node:path";
import type { TodoItem } from "../core/decideStop.js";
import { parseTaskFile, parseTodoList, pickUnfinished, type ParsedTodo } from "../core/todos.js";
import { parseTranscriptLine } from "../core/transcript.js";
import { resolveConfigDir, type Env } from "../core/loopFiles.js";
import { readBounded } from "./readBounded.js";
import { linesFromEnd } from "./readLines.js";
import { MAX_SCAN_BACK } from "./readTranscript.js";

export interface TodoSourceOptions {
  env: Env;
  home: string;
  sessionId: string | undefined;
  transcriptPath: string | undefined;
}

/** A task file is a few hundred bytes; anything far bigger is not one. */
const MAX_TODO_FILE = 1024 * 1024;

export type TodoSource =
  | { kind: "tasks"; path: string }
  | { kind: "legacy"; path: string }
  | { kind: "transcript"; path: string };

/**
 * The folder name Claude Code gives a task list: every character outside [A-Za-z0-9_-] becomes
 * "-" (as Claude Code 2.1.197 does). That also keeps `../..` from leaving `<config>/tasks`.
 */
export function taskListDirName(listId: string): string {
  return listId.replace(/[^a-zA-Z0-9_-]/g, "-");
}

/** `<config>/tasks/<CLAUDE_CODE_TASK_LIST_ID or session>`, or undefined without an id. */
export function resolveTaskListDir(options: Pick<TodoSourceOptions, "env" | "home" | "sessionId">): string | undefined {
  const listId = options.env.CLAUDE_CODE_TASK_LIST_ID || options.sessionId;
  return listId ? join(resolveConfigDir(options.env, options.home), "tasks", taskListDirName(listId)) : undefined;
}

/** `<config>/todos/<session>-agent-<session>.json`; refused (undefined) for an id that is not a plain name. */
function resolveLegacyTodoFile(options: Pick<TodoSourceOptions, "env" | "home" | "sessionId">): string | undefined {
  const id = options.sessionId;
  if (!id || !/^[A-Za-z0-9_-]+$/.test(id)) return undefined;
  return join(resolveConfigDir(options.env, options.home), "todos", `${id}-agent-${id}.json`);
}

const isDir = (path: string) => statSync(path, { throwIfNoEntry: false })?.isDirectory() === true;
const isFile = (path: string) => statSync(path, { throwIfNoEntry: false })?.isFile() === true;

/** A todo file's text, or undefined when it cannot be read or is too big to be one (then it is not read). */
function readTodoText(path: string): string | undefined {
  try {
    const read = readBounded(path, MAX_TODO_FILE);
    return read.kind === "found" ? read.bytes.toString("utf8") : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Every readable task file of the list; torn, foreign or unreadable ones are skipped. The folder
 * listing says which entries are regular files, so no file needs a stat of its own.
 */
function readTaskDir(dir: string): ParsedTodo[] {
  let entries: Dirent[];
  try {
    entries = readdirSync(dir, { withFileTypes: true });
  } catch {
    return [];
  }
  const items: ParsedTodo[] = [];
  for (const entry of entries) {
    // `.lock` and `.highwatermark` live beside the tasks.
    const name = entry.name;
    if (name.startsWith(".") || !name.endsWith(".json") || !entry.isFile()) continue;
    // Concatenated: `dir` is already joined, and path.join would walk each of 50 paths again.
    const text = readTodoText(`${dir}${sep}${name}`);
    const item = text === undefined ? undefined : parseTaskFile(text, name.slice(0, -".json".length));
    if (item) items.push(item);
  }
  return items;
}

function readLegacyFile(path: string): ParsedTodo[] {
  const text = readTodoText(path);
  if (text === undefined) return [];
  try {
    return parseTodoList(JSON.parse(text)) ?? [];
  } catch {
    return [];
  }
}

const NEEDLE = '"TodoWrite"';
// Only lines that can hold the call are parsed: a long session is mostly other JSON.
const parseTodoWriteLine = (line: string) => (line.includes(NEEDLE) ? parseTranscriptLine(line) : undefined);

/**
 * Do the last `maxBytes` of the file hold `needle`? A raw byte search, cheaper than splitting the
 * lines (8 MiB: ~6 ms instead of ~20 ms): a session that never called TodoWrite pays only this.
 */
function tailContains(fd: number, size: number, maxBytes: number, needle: string): boolean {
  const pattern = Buffer.from(needle);
  const floor = Math.max(0, size - maxBytes);
  const chunk = Buffer.alloc(64 * 1024 + pattern.length);
  for (let end = size; end > floor; ) {
    // Chunks overlap by the needle's length, so one cut in two is still found.
    const start = Math.max(floor, end - 64 * 1024);
    const length = Math.min(size, end + pattern.length - 1) - start;
    const read = readSync(fd, chunk, { length, position: start });
    if (chunk.subarray(0, read).includes(pattern)) return true;
    end = start;
  }
  return false;
}

/**
 * The todo list of the last main-thread TodoWrite call, read backwards from the transcript's end
 * (at most MAX_SCAN_BACK bytes). Undefined when there is none in reach.
 */
export function readLastTodoWrite(path: string): ParsedTodo[] | undefined {
  let fd: number;
  try {
    fd = openSync(path, "r");
  } catch {
    return undefined;
  }
  try {
    const size = fstatSync(fd).size;
    if (!tailContains(fd, size, MAX_SCAN_BACK, NEEDLE)) return undefined;
    for (const { entry } of linesFromEnd(fd, size, MAX_SCAN_BACK, parseTodoWriteLine)) {
      if (entry?.type !== "assistant" || entry.isSidechain) continue;
      const calls = entry.toolUses.filter((t) => t.name === "TodoWrite");
      for (const call of calls.reverse()) {
        const list = parseTodoList(call.input);
        if (list) return list;
      }
    }
    return undefined;
  } catch {
    return undefined; // EISDIR, EIO…: a transcript we cannot read is no source
  } finally {
    closeSync(fd);
  }
}

/** The first todo source that exists for the session, cheapest checks first. */
export function locateTodoSource(options: TodoSourceOptions): TodoSource | undefined {
  const tasks = resolveTaskListDir(options);
  if (tasks && isDir(tasks)) return { kind: "tasks", path: tasks };
  const legacy = resolveLegacyTodoFile(options);
  if (legacy && isFile(legacy)) return { kind: "legacy", path: legacy };
  if (options.transcriptPath && isFile(options.transcriptPath))
    return { kind: "transcript", path: options.transcriptPath };
  return undefined;
}

/**
 * Unfinished todos of the session from the first source that exists: undefined when none exists,
 * [] when one exists and everything in it is done. Never throws on what it reads.
 */
export function readUnfinishedTodos(options: TodoSourceOptions): TodoItem[] | undefined {
  const source = locateTodoSource(options);
  if (!source) return undefined;
  if (source.kind === "tasks") return pickUnfinished(readTaskDir(source.path));
  if (source.kind === "legacy") return pickUnfinished(readLegacyFile(source.path));
  const list = readLastTodoWrite(source.path);
  return list && pickUnfinished(list);
}
