// Helpers shared by the slash-command and install e2e tests (not a test file).
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { startMessagesServer } from "./support/messagesServer.js";
import type { MessagesServer } from "./support/messagesServer.js";
import { REPO_ROOT } from "./support/runClaude.js";

export const LOOP_MARKER = "[SYSTEM REMINDER - CONTINUATION LOOP ACTIVE]";
const CLI = path.join(REPO_ROOT, "hooks", "cli.js");
export const STATE = ".claude/continuation-loop.local.md";
export const HISTORY = ".claude/continuation-loop.history.jsonl";

/** A throwaway folder with a project and a HOME, and the scripted servers of one test. */
export class Scratch {
  readonly tmp = fs.mkdtempSync(path.join(os.tmpdir(), "cl-e2e-cmd-"));
  readonly proj = path.join(this.tmp, "proj");
  readonly home = path.join(this.tmp, "home");
  private readonly servers: MessagesServer[] = [];

  constructor() {
    fs.mkdirSync(this.proj);
  }

  async server(...args: Parameters<typeof startMessagesServer>): Promise<MessagesServer> {
    const s = await startMessagesServer(...args);
    this.servers.push(s);
    return s;
  }

  /** The bundled hooks/cli.js, run as a user would from a terminal. */
  cli(args: string[]): { code: number | null; stdout: string; stderr: string } {
    const r = spawnSync(process.execPath, [CLI, ...args], {
      cwd: this.tmp,
      encoding: "utf8",
      env: { PATH: process.env.PATH ?? "", HOME: this.home },
    });
    return { code: r.status, stdout: r.stdout, stderr: r.stderr };
  }

  async dispose(): Promise<void> {
    for (const s of this.servers.splice(0)) await s.close();
    fs.rmSync(this.tmp, { recursive: true, force: true });
  }
}

/** Every file under dir (relative path → content), skipping paths the test calls runtime data. */
export function tree(dir: string, skip: RegExp): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (d: string, prefix: string): void => {
    for (const name of fs.readdirSync(d).sort()) {
      const rel = prefix ? `${prefix}/${name}` : name;
      if (skip.test(rel)) continue;
      const p = path.join(d, name);
      if (fs.statSync(p).isDirectory()) {
        out[`${rel}/`] = "<dir>";
        walk(p, rel);
      } else out[rel] = fs.readFileSync(p, "utf8");
    }
  };
  walk(dir, "");
  return out;
}
