import { dirname, join } from "node:path";
import { parseContinuedIn } from "../core/handover.js";
import { readLinesInWindow } from "./readLines.js";

/** `/background` records the hand-over at the end of the forked-from transcript: the last lines are enough. */
const TAIL = 256 * 1024;

/**
 * The session that session `from` was continued in, as Claude Code recorded it at the end of `from`'s
 * transcript (beside `transcript`, this session's own, in the same project folder); undefined when none.
 */
export function readContinuedIn(transcript: string, from: string): string | undefined {
  if (!/^[A-Za-z0-9-]+$/.test(from)) return undefined; // a session id names a file beside ours, nothing else
  const lines = readLinesInWindow(join(dirname(transcript), `${from}.jsonl`), TAIL);
  for (let i = lines.length - 1; i >= 0; i--) {
    const to = parseContinuedIn(lines[i] ?? "", from);
    if (to !== undefined) return to;
  }
  return undefined;
}
