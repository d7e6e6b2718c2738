// Which Stop-hook block is this plugin's continuation, and its text (README "The companion module"). Pure.
import { LOOP_MARKER } from "../core/loopMarker.js";

/** The line the Stop hook ends its continuation with when the module handed it `id` (src/app/moduleBridge.ts). */
export const stopLine = (id: string): string => `[continuation-loop stop ${id}]`;

/**
 * The continuation text of a block that is exactly this plugin's Stop hook's, this Stop (`id`): the hook's
 * own prompt, byte for byte, without the command Claude Code puts before it or the line it adds after.
 * Undefined for any other block (another hook's, several hooks' at once, an older Stop's): those stay as
 * they are.
 */
export function readContinuation(block: string | undefined, id: string): string | undefined {
  if (typeof block !== "string") return undefined;
  const start = block.indexOf(LOOP_MARKER);
  const end = block.indexOf(stopLine(id));
  if (start < 0 || end < start) return undefined;
  // Before the text: only the hook's own command, `[node ".../stop.js"]: `.
  if (!/^\[[^\n]*stop\.js"?\]: $/.test(block.slice(0, start))) return undefined;
  // After the id line: at most one line Claude Code adds, no other hook's block.
  const after = block.slice(end + stopLine(id).length).replace(/^\n+/, "");
  if (after.includes("\n") || after.includes("]: ")) return undefined;
  return block.slice(start, end);
}

let made = 0;
/** A fresh id per Stop (not a secret: it only tells this Stop's block from an older one). */
export function makeStopId(now: number): string {
  made += 1;
  return `${now.toString(36)}-${made.toString(36)}-${Math.floor(Math.random() * 0xffffffff).toString(36)}`;
}
