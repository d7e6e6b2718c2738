/** Pure readers of Claude Code transcript JSONL lines (one JSON object a line). */

import type { ApiFailure } from "./apiFailure.js";
import { hashText } from "./hash.js";

export interface TranscriptEntry {
  type: string;
  isSidechain: boolean;
  /** Text blocks of an assistant message, or of a user prompt. */
  texts: string[];
  /** A user entry that only carries tool results (part of the same turn). */
  toolResultOnly: boolean;
  messageId: string | undefined;
  model: string | undefined;
  outputTokens: number | undefined;
  toolUses: { name: string; input: unknown; id?: string }[];
  /** A tool result line Claude Code wrote for a call its permission check refused: the call's id. */
  refusedCall: string | undefined;
  /** The ids of the calls whose results this entry carries. */
  resultIds: string[];
  /** An assistant line Claude Code wrote in place of a reply (`isApiErrorMessage`): the API error it records. */
  apiError: ApiFailure | undefined;
  /** When Claude Code made it (`timestamp`, ms since the epoch), where the line says. */
  time: number | undefined;
  /** The line's id and the line it follows (`parentUuid`, or across a compaction `logicalParentUuid`). */
  uuid: string | undefined;
  parent: string | undefined;
  /** The summary a compaction writes as a user line (`isCompactSummary`): no prompt, no turn of its own. */
  compactSummary: boolean;
}

type Json = Record<string, unknown>;
const asObject = (v: unknown): Json | undefined =>
  v && typeof v === "object" && !Array.isArray(v) ? (v as Json) : undefined;

const asString = (v: unknown): string | undefined => (typeof v === "string" && v ? v : undefined);

/**
 * One line → entry; undefined for blank, torn or foreign lines. A line with no message but an id (an attachment, a
 * hook's summary) is an entry of its own type with nothing in it: it links the lines around it.
 */
export function parseTranscriptLine(line: string): TranscriptEntry | undefined {
  if (!line.trim()) return undefined;
  let raw: unknown;
  try {
    raw = JSON.parse(line);
  } catch {
    return undefined;
  }
  const obj = asObject(raw);
  if (!obj || typeof obj.type !== "string") return undefined;
  const message =
    asObject(obj.message) ?? (asString(obj.uuid) && obj.type !== "user" && obj.type !== "assistant" ? {} : undefined);
  if (!message) return undefined;
  const content = message.content;
  const blocks = Array.isArray(content) ? content.map(asObject).filter((b): b is Json => !!b) : [];
  const texts =
    typeof content === "string"
      ? [content]
      : blocks.filter((b) => b.type === "text" && typeof b.text === "string").map((b) => b.text as string);
  const usage = asObject(message.usage);
  return {
    type: obj.type,
    isSidechain: obj.isSidechain === true,
    texts,
    toolResultOnly: blocks.length > 0 && blocks.every((b) => b.type === "tool_result"),
    messageId: typeof message.id === "string" ? message.id : undefined,
    model: typeof message.model === "string" ? message.model : undefined,
    outputTokens: typeof usage?.output_tokens === "number" ? usage.output_tokens : undefined,
    toolUses: blocks
      .filter((b) => b.type === "tool_use" && typeof b.name === "string")
      .map((b) => ({ name: b.name as string, input: b.input, ...(typeof b.id === "string" && { id: b.id }) })),
    refusedCall: readRefusedCall(obj, blocks),
    resultIds: blocks.flatMap((b) =>
      b.type === "tool_result" && typeof b.tool_use_id === "string" ? [b.tool_use_id] : [],
    ),
    apiError: obj.isApiErrorMessage === true ? readApiError(obj) : undefined,
    time: readTime(obj.timestamp),
    uuid: asString(obj.uuid),
    parent: asString(obj.parentUuid) ?? asString(obj.logicalParentUuid),
    compactSummary: obj.isCompactSummary === true,
  };
}

function readTime(value: unknown): number | undefined {
  const time = typeof value === "string" ? Date.parse(value) : Number.NaN;
  return Number.isNaN(time) ? undefined : time;
}

/** The error's kind (`error`), HTTP status and, on 2.1.332, the API's error type; each where Claude Code gave it. */
function readApiError(obj: Json): ApiFailure {
  const { error: kind, apiErrorStatus: status, apiErrorType: type } = obj;
  return {
    ...(typeof kind === "string" && kind && { kind }),
    ...(typeof status === "number" && { status }),
    ...(typeof type === "string" && type && { type }),
  };
}

/**
 * Claude Code 2.1.332 marks the result of a call its permission check refused (no rule allowed it and nobody
 * answered, or the person said no) with `permissionDecision.decision: "reject"`; 2.1.197 marks none.
 */
function readRefusedCall(obj: Json, blocks: Json[]): string | undefined {
  if (asObject(obj.permissionDecision)?.decision !== "reject") return undefined;
  const id = blocks.find((b) => b.type === "tool_result")?.tool_use_id;
  return typeof id === "string" ? id : undefined;
}

/** The tools Claude Code refused in these entries, by name, once each (oldest first); sidechains left out. */
export function readRefusedTools(entries: readonly TranscriptEntry[]): string[] {
  const names = new Map<string, string>();
  const refused = new Set<string>();
  for (const entry of entries) {
    if (entry.isSidechain) continue;
    for (const use of entry.toolUses) if (use.id) names.set(use.id, use.name);
    if (entry.refusedCall) refused.add(names.get(entry.refusedCall) ?? "a tool");
  }
  return [...refused];
}

/**
 * Did Claude Code refuse every call of the turn since its last start (at least one)? A turn whose every call was
 * refused did no work, whatever its reply says (docs/REFERENCE.md "How a loop ends").
 */
export function readAllRefused(entries: readonly TranscriptEntry[]): boolean {
  let from = entries.length;
  while (from > 0 && !isTurnStart(entries[from - 1] as TranscriptEntry)) from--;
  const calls = new Set<string>();
  const refused = new Set<string>();
  for (const entry of entries.slice(from)) {
    if (entry.isSidechain) continue;
    for (const use of entry.toolUses) calls.add(use.id ?? `#${calls.size}`);
    if (entry.refusedCall) refused.add(entry.refusedCall);
  }
  return calls.size > 0 && [...calls].every((id) => refused.has(id));
}

export interface ReplyScan {
  /** The last assistant reply's text ("" when none was found after the last user entry). */
  reply: string;
  /** True once a user entry (the start of the reply) was reached: the scan saw the whole reply. */
  complete: boolean;
}

/**
 * Scans entries from newest to oldest for the final assistant reply: the assistant text written
 * after the last user entry (a prompt, a tool result, or text this plugin injected — never read).
 */
export function scanReply(newestFirst: Iterable<TranscriptEntry>): ReplyScan {
  const parts: string[] = [];
  for (const entry of newestFirst) {
    // Claude Code 2.1.197 may write a compaction's summary below the reply of the turn it compacted in.
    if (entry.isSidechain || entry.compactSummary) continue;
    if (entry.type === "user") return { reply: parts.reverse().join("\n"), complete: true };
    if (entry.type === "assistant") parts.push(entry.texts.join("\n"));
  }
  return { reply: parts.reverse().join("\n"), complete: false };
}

/** True when the entry is a prompt typed by the user or injected by a hook: the start of a turn. */
export function isTurnStart(entry: TranscriptEntry): boolean {
  return entry.type === "user" && !entry.toolResultOnly && !entry.isSidechain && !entry.compactSummary;
}

/**
 * A line read above a turn's start, against that start: "before" it by time (a line with no time too: the scan
 * stops there), a main-thread reply written after it ("turn": Claude Code 2.1.197 may write a session's first reply
 * above its prompt), or "skip" (the prompt's own lines, bookkeeping).
 */
export function placeAbove(entry: TranscriptEntry, turnStart: TranscriptEntry): "before" | "turn" | "skip" {
  if (entry.type !== "user" && entry.type !== "assistant") return "skip";
  if (entry.time === undefined || turnStart.time === undefined || entry.time < turnStart.time) return "before";
  return entry.type === "assistant" && !entry.isSidechain && entry.time > turnStart.time ? "turn" : "skip";
}

/**
 * `lines` (oldest first, a turn start first) with `later` (file order) put in by time: each before the first line
 * after the turn start that is later than it, else at the end.
 */
export function insertByTime<T extends { entry: TranscriptEntry }>(lines: T[], later: T[]): T[] {
  const out = lines.slice();
  for (const line of later) {
    const time = line.entry.time ?? 0;
    const at = out.findIndex((other, i) => i > 0 && (other.entry.time ?? 0) > time);
    out.splice(at === -1 ? out.length : at, 0, line);
  }
  return out;
}

/**
 * Fingerprint of the tool calls the last turn of these entries made on the main thread (oldest first; sidechains
 * left out): each call's tool name and input, in order. "" when the turn called no tool. Outside git it is a
 * turn's evidence of change (docs/REFERENCE.md "How a loop ends").
 */
export function fingerprintToolCalls(entries: readonly TranscriptEntry[]): string {
  let from = entries.length;
  while (from > 0 && !isTurnStart(entries[from - 1] as TranscriptEntry)) from--;
  const calls: string[] = [];
  const seen = new Set<string>();
  for (const entry of entries.slice(from)) {
    if (entry.isSidechain || entry.type !== "assistant") continue;
    for (const use of entry.toolUses) {
      // A line written twice holds the same call: its id says so.
      if (use.id !== undefined && seen.has(use.id)) continue;
      if (use.id !== undefined) seen.add(use.id);
      calls.push(`${use.name}\u0000${JSON.stringify(use.input) ?? ""}`);
    }
  }
  return calls.length === 0 ? "" : hashText(calls.join("\u0001"));
}

/** Claude Code's record of an Esc: a user line `[Request interrupted by user]` (or `… for tool use]`). */
const INTERRUPTED = "[Request interrupted by user";

/** Was the turn this last entry ends interrupted by the user (docs/REFERENCE.md "Pausing")? */
export function isInterruption(last: TranscriptEntry | undefined): boolean {
  return last?.type === "user" && last.texts.some((text) => text.trimStart().startsWith(INTERRUPTED));
}

export interface UsageTally {
  total: number;
  byModel: Record<string, number>;
  /** Last message counted, so a message split across two reads is not counted twice. */
  lastId: string;
  lastTokens: number;
}

/**
 * Adds output tokens of the main thread's assistant entries (oldest first); a message's lines repeat its usage.
 * A subagent's are left out wherever a version writes them, as docs/REFERENCE.md "Subagents" says.
 */
export function tallyUsage(entries: Iterable<TranscriptEntry>, start: UsageTally): UsageTally {
  const tally = { ...start, byModel: { ...start.byModel } };
  for (const entry of entries) {
    if (entry.type !== "assistant" || entry.isSidechain || entry.outputTokens === undefined) continue;
    const id = entry.messageId ?? "";
    const already = id !== "" && id === tally.lastId ? tally.lastTokens : 0;
    const added = Math.max(0, entry.outputTokens - already);
    tally.total += added;
    const model = entry.model ?? "unknown";
    // A line with nothing to add names no model (Claude Code's placeholder reply of a resumed session).
    if (added > 0 || model in tally.byModel) tally.byModel[model] = (tally.byModel[model] ?? 0) + added;
    tally.lastId = id;
    tally.lastTokens = Math.max(already, entry.outputTokens);
  }
  return tally;
}

/**
 * The newest prompt, reply or tool result of the main thread (`sidechain`: of a subagent's own transcript) among
 * entries read newest first: by the time each says, the later line when either says none. Claude Code 2.1.197 may
 * write a session's first reply above the prompt and attachments it answers, so the last line is not always the
 * newest message (docs/REFERENCE.md "Leave it running").
 */
export function findNewestMessage(
  newestFirst: Iterable<TranscriptEntry>,
  sidechain = false,
): TranscriptEntry | undefined {
  let newest: TranscriptEntry | undefined;
  for (const entry of newestFirst) {
    if (entry.isSidechain !== sidechain || (entry.type !== "user" && entry.type !== "assistant")) continue;
    if (!newest || (entry.time !== undefined && newest.time !== undefined && entry.time > newest.time)) newest = entry;
  }
  return newest;
}

/**
 * Where call `id` stands at a transcript's end, read newest first: "answered" once its result is there (the tool
 * ran, or was refused), "pending" when the call comes first, undefined when neither is among the entries.
 */
export function findCallAnswer(newestFirst: Iterable<TranscriptEntry>, id: string): "answered" | "pending" | undefined {
  for (const entry of newestFirst) {
    if (entry.resultIds.includes(id)) return "answered";
    if (entry.toolUses.some((use) => use.id === id)) return "pending";
  }
  return undefined;
}

/**
 * Does one of these entries hold a call and another its result: a call answered among them? For a prompt whose call
 * the transcript did not show yet when it opened: the entries written since, in whatever order Claude Code wrote
 * the call and its result.
 */
export function findAnsweredCall(entries: Iterable<TranscriptEntry>): boolean {
  const calls = new Set<string>();
  const results = new Set<string>();
  for (const entry of entries) {
    for (const { id } of entry.toolUses) {
      if (id === undefined) continue;
      if (results.has(id)) return true;
      calls.add(id);
    }
    for (const id of entry.resultIds) {
      if (calls.has(id)) return true;
      results.add(id);
    }
  }
  return false;
}

/**
 * These entries (oldest first) without the turns another Claude Code process of the same session wrote among them
 * (`--resume ID` in a second terminal appends to the same transcript; docs/REFERENCE.md "Several loops"): a line
 * is the other's when its chain of parents reaches a turn start that this Stop's own reply does not descend from.
 * A line whose chain leaves the entries first is kept, and so is everything when the reply is not among them.
 */
export function keepOwnTurns(entries: readonly TranscriptEntry[], reply: string | undefined): TranscriptEntry[] {
  const byId = new Map<string, TranscriptEntry>();
  for (const entry of entries) if (entry.uuid) byId.set(entry.uuid, entry);
  const wanted = reply?.trim();
  let own: TranscriptEntry | undefined;
  for (let i = entries.length - 1; i >= 0 && !own; i--) {
    const e = entries[i] as TranscriptEntry;
    const mainReply = e.type === "assistant" && !e.isSidechain && e.uuid !== undefined;
    if (mainReply && (!wanted || e.texts.join("\n").trimEnd().endsWith(wanted))) own = e;
  }
  if (!own) return [...entries];
  const mine = new Set<string>();
  for (let at: TranscriptEntry | undefined = own; at?.uuid && !mine.has(at.uuid); at = byId.get(at.parent ?? "")) {
    mine.add(at.uuid);
  }
  const theirs = new Map<string, boolean>();
  const isTheirs = (entry: TranscriptEntry): boolean => {
    const seen: string[] = [];
    let verdict = false;
    for (let at: TranscriptEntry | undefined = entry; at?.uuid; at = byId.get(at.parent ?? "")) {
      if (mine.has(at.uuid)) break;
      const known = theirs.get(at.uuid);
      if (known !== undefined) {
        verdict = known;
        break;
      }
      if (seen.includes(at.uuid)) break;
      seen.push(at.uuid);
      if (isTurnStart(at)) {
        verdict = true;
        break;
      }
    }
    for (const id of seen) theirs.set(id, verdict);
    return verdict;
  };
  return entries.filter((entry) => !entry.uuid || mine.has(entry.uuid) || !isTheirs(entry));
}
