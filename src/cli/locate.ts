import { resolve } from "node:path";
import { displayPath, resolveHistoryPath, resolveProjectRoot, resolveStatePath, type Env } from "../io/paths.js";

export interface LoopLocation {
  root: string;
  statePath: string;
  historyPath: string;
  /** The state path as users see it (relative to the project root when inside it). */
  shown: string;
}

/** The state and history paths of a project root. */
export function locateAt(root: string, env: Env): LoopLocation {
  const statePath = resolveStatePath(root, env);
  return { root, statePath, historyPath: resolveHistoryPath(statePath), shown: displayPath(statePath, root) };
}

/** Where this project's loop lives: same rules as the Stop hook (CLAUDE_PROJECT_DIR, then cwd). */
export function locateLoop(env: Env, inputCwd: string | undefined, cwd: string): LoopLocation {
  return locateAt(resolveProjectRoot(env, inputCwd, cwd), env);
}

/** `--project DIR` (relative to the cwd) when given, else the usual project root. */
export function projectRoot(env: Env, cwd: string, project: string | true | undefined): string {
  return typeof project === "string" ? resolve(cwd, project) : resolveProjectRoot(env, undefined, cwd);
}
