// A throwaway project + HOME for loop e2e tests, with the repo loaded as a plugin.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { readHistory } from "../../support/testHome.js";
import { REPO_ROOT } from "./runClaude.js";

export const LOOP_MARKER = "[SYSTEM REMINDER - CONTINUATION LOOP ACTIVE]";

export interface LoopProject {
  root: string;
  proj: string;
  home: string;
  statePath: string;
  historyPath: string;
  writeState(text: string): void;
  readState(): string | undefined;
  history(): Record<string, unknown>[];
  cleanup(): void;
}

export function makeLoopProject(): LoopProject {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), "cl-e2e-"));
  const proj = path.join(root, "proj");
  const home = path.join(root, "home");
  fs.mkdirSync(path.join(proj, ".claude"), { recursive: true });
  const statePath = path.join(proj, ".claude", "continuation-loop.local.md");
  const historyPath = path.join(proj, ".claude", "continuation-loop.history.jsonl");
  return {
    root,
    proj,
    home,
    statePath,
    historyPath,
    writeState: (text) => fs.writeFileSync(statePath, text),
    readState: () => (fs.existsSync(statePath) ? fs.readFileSync(statePath, "utf8") : undefined),
    history: () => readHistory(historyPath),
    cleanup: () => fs.rmSync(root, { recursive: true, force: true }),
  };
}

/** The repo itself is the plugin (hooks/ bundles + .claude-plugin/). */
export const PLUGIN_DIR = REPO_ROOT;

/** Claude Code loads a plugin's module only in a trusted folder: the HOME a person who trusted it would have. */
export function trustProject(p: Pick<LoopProject, "home" | "proj">): void {
  fs.mkdirSync(p.home, { recursive: true });
  const config = {
    hasCompletedOnboarding: true,
    projects: { [fs.realpathSync(p.proj)]: { hasTrustDialogAccepted: true, hasCompletedProjectOnboarding: true } },
  };
  fs.writeFileSync(path.join(p.home, ".claude.json"), JSON.stringify(config));
}
