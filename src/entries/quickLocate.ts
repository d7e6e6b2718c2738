import { existsSync } from "node:fs";
import { resolveProjectRoot, resolveStatePath, type Env } from "../io/paths.js";

/**
 * The idle path: does a state file exist for this input? Uses JSON.parse only, so a session
 * without a loop pays for nothing else (no YAML, no zod, no transcript).
 */
export function stateFileExists(stdin: string, env: Env, cwd: string): boolean {
  let inputCwd: string | undefined;
  try {
    const raw: unknown = JSON.parse(stdin);
    const value = raw && typeof raw === "object" ? (raw as { cwd?: unknown }).cwd : undefined;
    inputCwd = typeof value === "string" ? value : undefined;
  } catch {
    // bad input: the full hook decides what to say, if a loop exists
  }
  return existsSync(resolveStatePath(resolveProjectRoot(env, inputCwd, cwd), env));
}
