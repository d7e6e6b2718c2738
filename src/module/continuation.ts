// Which Stop-hook answer is this plugin's continuation, and its text (docs/REFERENCE.md "The companion module"). Pure.
import { LOOP_MARKER, renderStopLine } from "../core/protocol.js";

/** The line the Stop hook ends its continuation with when the module handed it `id` (src/core/protocol.ts). */
export const stopLine = renderStopLine;

/** The Stop hooks' folded answer, as `classic.Stop`'s `next(e)` gives it. */
interface StopAnswer {
  block?: string;
  additionalContext?: string[];
  [key: string]: unknown;
}

/**
 * The continuation text of a context entry that is exactly this plugin's Stop hook's, this Stop (`id`):
 * the hook's own prompt, byte for byte, without its id line. Undefined for any other entry.
 */
export function readContinuation(entry: string | undefined, id: string): string | undefined {
  if (typeof entry !== "string" || !entry.startsWith(LOOP_MARKER)) return undefined;
  const line = `${stopLine(id)}\n`;
  return entry.endsWith(line) ? entry.slice(0, -line.length) : undefined;
}

/**
 * The Stop hooks' answer → the continuation to send as a prompt from the plugin (`text`) and the answer that
 * stays (`rest`). Only when nothing else in the answer continues the turn (no block, no other hook's
 * context, no stop of the session) is the continuation taken out; otherwise every part of the answer
 * stands as the hooks gave it, ours without its id line, and Claude reads them all in the continued turn.
 */
export function takeContinuation(result: StopAnswer, id: string): { text?: string; rest: StopAnswer } {
  const context = Array.isArray(result?.additionalContext) ? result.additionalContext : [];
  const at = context.findIndex((entry) => readContinuation(entry, id) !== undefined);
  if (at < 0) return { rest: result };
  const text = readContinuation(context[at], id) as string;
  const others = context.filter((_, i) => i !== at);
  const { additionalContext: _ours, ...rest } = result;
  if (result.block === undefined && others.length === 0 && result.preventContinuation === undefined)
    return { text, rest };
  return { rest: { ...rest, additionalContext: context.map((entry, i) => (i === at ? text : entry)) } };
}

let made = 0;
/** A fresh id per Stop (not a secret: it only tells this Stop's answer from an older one). */
export function makeStopId(now: number): string {
  made += 1;
  return `${now.toString(36)}-${made.toString(36)}-${Math.floor(Math.random() * 0xffffffff).toString(36)}`;
}

/** The continuations this module submitted whose UserPromptSubmit has not come yet (one at a time in practice). */
const sent: string[] = [];

/** Notes a continuation just handed to `$.prompt.submit`, so that its UserPromptSubmit can be told apart. */
export function noteSent(text: string): void {
  if (!sent.includes(text)) sent.push(text);
  // A submit refused for good never comes back: the list stays short whatever happens.
  if (sent.length > 4) sent.shift();
}

/**
 * Whether this UserPromptSubmit is for a continuation this module sent (then taken off the list): the prompt
 * is that text exactly, byte for byte. Any other prompt, the person's or another plugin's, is not.
 */
export function takeSent(prompt: unknown): boolean {
  if (typeof prompt !== "string") return false;
  const at = sent.indexOf(prompt);
  if (at < 0) return false;
  sent.splice(at, 1);
  return true;
}
