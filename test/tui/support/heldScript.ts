// A script for the messages server in which some replies wait: the turn stays in flight (spinner on
// screen) until the test releases it or the user interrupts it with Esc.
import fs from "node:fs";
import path from "node:path";
import { type ScriptedReply, text } from "../../e2e/support/messagesServer.js";

/** Placeholder in a script: this request is held open. */
export const HOLD = Symbol("hold");

export interface HeldScript {
  script: (req: unknown, index: number) => Promise<ScriptedReply | undefined>;
  /** Resolves when the request at `index` (counting scripted requests from 0) has arrived. */
  arrived(index: number, timeoutMs?: number): Promise<void>;
  /** Lets the requests held so far answer, with `reply` (default: a reply the user never sees). */
  release(reply?: ScriptedReply): void;
}

export function heldScript(replies: readonly (ScriptedReply | typeof HOLD)[]): HeldScript {
  let count = 0;
  let waiting: ((reply: ScriptedReply) => void)[] = [];
  return {
    script: async (_req, index) => {
      count = Math.max(count, index + 1);
      const reply = replies[index];
      if (reply !== HOLD) return reply;
      return new Promise<ScriptedReply>((resolve) => waiting.push(resolve));
    },
    arrived: async (index, timeoutMs = 60_000) => {
      const deadline = Date.now() + timeoutMs;
      while (count <= index) {
        if (Date.now() > deadline) throw new Error(`request ${index + 1} did not arrive in ${timeoutMs} ms`);
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    },
    release: (reply = text("(a reply to a request the user interrupted)")) => {
      for (const answer of waiting) answer(reply);
      waiting = [];
    },
  };
}

/** Waits until the session's transcript records that the user interrupted a turn (Esc). */
export async function interruptRecorded(home: string, timeoutMs = 30_000): Promise<void> {
  const projects = path.join(home, ".claude", "projects");
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const files = fs.existsSync(projects)
      ? fs.readdirSync(projects).flatMap((dir) =>
          fs
            .readdirSync(path.join(projects, dir))
            .filter((f) => f.endsWith(".jsonl"))
            .map((f) => path.join(projects, dir, f)),
        )
      : [];
    if (files.some((f) => fs.readFileSync(f, "utf8").includes("[Request interrupted by user"))) return;
    if (Date.now() > deadline) throw new Error(`no interruption recorded in a transcript under ${projects}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
