/**
 * Pure todo handling: parse task files, legacy TodoWrite lists and TodoWrite calls, pick what is
 * unfinished, render the reminder. No zod here: this runs before every prompt, and hand-written
 * guards cost nothing at start-up.
 */
import type { TodoItem } from "./decideStop.js";
import { TODO_MARKER } from "./protocol.js";

/** Most pending items listed; in-progress ones are always all listed. */
const MAX_PENDING_SHOWN = 5;
const MAX_SUBJECT = 200;

type TodoStatus = "pending" | "in_progress" | "completed";

/** One entry of any source, before filtering. `id` orders task files; list order breaks ties. */
export interface ParsedTodo {
  id: string | undefined;
  subject: string;
  status: TodoStatus;
}

type Json = Record<string, unknown>;
const asObject = (v: unknown): Json | undefined =>
  v && typeof v === "object" && !Array.isArray(v) ? (v as Json) : undefined;
const isStatus = (v: unknown): v is TodoStatus => v === "pending" || v === "in_progress" || v === "completed";

/**
 * One line, bounded, and unable to pose as a hook's marker (a subject saying
 * "[SYSTEM REMINDER - CONTINUATION LOOP ACTIVE]" must not fake the loop).
 */
export function cleanSubject(text: string): string {
  const flat = text
    .replace(/\s+/g, " ")
    .trim()
    .replace(/\[(SYSTEM REMINDER)\s*-/gi, "($1 -");
  return flat.length > MAX_SUBJECT ? `${flat.slice(0, MAX_SUBJECT - 1)}…` : flat;
}

/**
 * One todo in any known shape: a task file `{id, subject, status, …}` or a TodoWrite item
 * `{content, status, activeForm}`. Undefined when it is neither; unknown fields are ignored.
 */
export function parseTodo(value: unknown, fallbackId?: string): ParsedTodo | undefined {
  const obj = asObject(value);
  if (!obj || !isStatus(obj.status)) return undefined;
  // Claude Code hides tasks it made for itself; so do we.
  if (asObject(obj.metadata)?._internal) return undefined;
  const text =
    typeof obj.subject === "string" ? obj.subject : typeof obj.content === "string" ? obj.content : undefined;
  const subject = text === undefined ? "" : cleanSubject(text);
  if (!subject) return undefined;
  const id = typeof obj.id === "string" || typeof obj.id === "number" ? String(obj.id) : fallbackId;
  return { id, subject, status: obj.status };
}

/** A task file's text (`<config>/tasks/<list>/<id>.json`); undefined when torn or foreign. */
export function parseTaskFile(text: string, fileId?: string): ParsedTodo | undefined {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    return undefined;
  }
  return parseTodo(raw, fileId);
}

/**
 * A todo list: the legacy file (a JSON array, or `{todos: […]}`) or a TodoWrite call's input
 * (`{todos: […]}`). Undefined when the value is no list at all; bad items are skipped.
 */
export function parseTodoList(value: unknown): ParsedTodo[] | undefined {
  const list = Array.isArray(value) ? value : asObject(value)?.todos;
  if (!Array.isArray(list)) return undefined;
  // A list's own order is its order: item ids (old TodoWrite had them) are not sort keys.
  return list
    .map((item) => parseTodo(item))
    .filter((t): t is ParsedTodo => !!t)
    .map((t) => ({ ...t, id: undefined }));
}

/** Only digits: a task file's id. */
const isNumeric = (id: string) => /^\d+$/.test(id);

/** Numeric ids numerically, before other ids (by text). A source has ids on all items or on none. */
export function compareIds(a: string | undefined, b: string | undefined): number {
  if (a === undefined || b === undefined) return 0;
  const an = isNumeric(a);
  const bn = isNumeric(b);
  if (an && bn) return Number(a) - Number(b) || a.localeCompare(b);
  if (an !== bn) return an ? -1 : 1;
  return a < b ? -1 : a > b ? 1 : 0;
}

/** Unfinished items: every in-progress one first, then pending, each in id / list order. */
export function pickUnfinished(items: readonly ParsedTodo[]): TodoItem[] {
  const sorted = [...items].sort((x, y) => compareIds(x.id, y.id)); // stable: list order breaks ties
  const pick = (status: TodoItem["status"]) =>
    sorted.filter((t) => t.status === status).map((t) => ({ subject: t.subject, status }));
  return [...pick("in_progress"), ...pick("pending")];
}

/** The reminder text, or undefined when nothing is unfinished. */
export function renderTodoReminder(items: readonly TodoItem[]): string | undefined {
  const active = items.filter((t) => t.status === "in_progress");
  const pending = items.filter((t) => t.status === "pending");
  if (active.length + pending.length === 0) return undefined;
  const lines = [
    TODO_MARKER,
    `This session's todo list still has ${active.length + pending.length} unfinished item(s):`,
    ...active.map((t) => `- [in_progress] ${t.subject}`),
    ...pending.slice(0, MAX_PENDING_SHOWN).map((t) => `- [pending] ${t.subject}`),
  ];
  if (pending.length > MAX_PENDING_SHOWN) lines.push(`… and ${pending.length - MAX_PENDING_SHOWN} more`);
  lines.push(
    "Keep them in mind with the new request: carry on with them, or update their status if the plan has changed.",
  );
  return lines.join("\n");
}
