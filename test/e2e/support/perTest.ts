// What one e2e test starts (a scripted API, a loop project, a live session, a folder), released after it.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach } from "vitest";
import { killHomeProcesses } from "../../support/testHome.js";
import { type LiveSession, startLiveSession } from "./liveSession.js";
import { type LoopProject, makeLoopProject } from "./loopProject.js";
import { type MessagesServer, type MessagesServerOptions, type Script, startMessagesServer } from "./messagesServer.js";

export interface PerTest {
  /**
   * `makeLoopProject()`, removed after the test. `killProcesses`: every process still running with its HOME is
   * killed once the sessions are closed (a background Bash runs in a process group of its own and outlives them).
   */
  project(opts?: { killProcesses?: boolean }): LoopProject;
  /** `startMessagesServer(script, opts)`, closed after the test. */
  server(script: Script, opts?: MessagesServerOptions): Promise<MessagesServer>;
  /** `startLiveSession(opts, first)`, closed after the test (killed after 5 s). */
  session(...args: Parameters<typeof startLiveSession>): LiveSession;
  /** A new folder under the system's temp folder, removed after the test. */
  tempDir(prefix: string): string;
  /** Removes `dir` after the test, with the test's projects and folders. */
  removeAfter(dir: string): void;
  /** A step of the test's own, run once its sessions are closed and before its servers close. */
  onEnd(step: () => unknown): void;
}

/**
 * Registers an `afterEach` (call it at a test file's top level) that releases what each test started through the
 * returned {@link PerTest}: sessions first (they use the rest), then the test's own `onEnd` steps, then servers, then
 * projects and folders, each group in the order it was started. A step that throws does not keep the others from
 * running; the first error fails the test.
 */
export function perTest(): PerTest {
  const sessions: LiveSession[] = [];
  const steps: (() => unknown)[] = [];
  const servers: MessagesServer[] = [];
  const removals: (() => void)[] = [];
  afterEach(async () => {
    const all = [
      ...sessions.splice(0).map((s) => () => s.close(5000)),
      ...steps.splice(0),
      ...servers.splice(0).map((s) => () => s.close()),
      ...removals.splice(0),
    ];
    const errors: unknown[] = [];
    for (const step of all)
      await Promise.resolve()
        .then(step)
        .catch((e: unknown) => errors.push(e));
    if (errors.length > 0) throw errors[0];
  });
  const removeAfter = (dir: string) => removals.push(() => fs.rmSync(dir, { recursive: true, force: true }));
  return {
    project(opts) {
      const p = makeLoopProject();
      if (opts?.killProcesses) steps.push(() => killHomeProcesses(p.home));
      removals.push(p.cleanup);
      return p;
    },
    async server(script, opts) {
      const s = await startMessagesServer(script, opts);
      servers.push(s);
      return s;
    },
    session(...args) {
      const s = startLiveSession(...args);
      sessions.push(s);
      return s;
    },
    tempDir(prefix) {
      const dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
      removeAfter(dir);
      return dir;
    },
    removeAfter,
    onEnd: (step) => void steps.push(step),
  };
}
