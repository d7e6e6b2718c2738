// One terminal test's world: a project and a HOME in a temporary folder, the scripted server, the
// terminal, and a held script if any; all of it gone after the test.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { MessagesServer } from "../../e2e/support/messagesServer.js";
import { readHistory } from "../../support/testHome.js";
import type { HeldScript } from "./heldScript.js";
import type { Tui } from "./tui.js";

export class TuiScratch {
  readonly tmp: string;
  readonly proj: string;
  readonly home: string;
  server: MessagesServer | undefined;
  tui: Tui | undefined;
  held: HeldScript | undefined;

  constructor(prefix: string) {
    this.tmp = fs.mkdtempSync(path.join(os.tmpdir(), `cl-tui-${prefix}-`));
    this.proj = path.join(this.tmp, "proj");
    this.home = path.join(this.tmp, "home");
    fs.mkdirSync(this.proj);
  }

  /** A path under the project's `.claude/`. */
  claude(name: string): string {
    return path.join(this.proj, ".claude", name);
  }

  /** The project's history, one object per whole line ([] before the first). */
  history(): Record<string, unknown>[] {
    return readHistory(this.claude("continuation-loop.history.jsonl"));
  }

  async dispose(): Promise<void> {
    this.held?.release();
    await this.tui?.close();
    await this.server?.close();
    fs.rmSync(this.tmp, { recursive: true, force: true });
  }
}

/** Polls a condition outside the screen (a file, a count) until it holds. */
export async function until(test: () => boolean, what: string, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!test()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
