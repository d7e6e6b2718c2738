import { spawnSync } from "node:child_process";
import { mkdtempSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

export const REPO = resolve(dirname(fileURLToPath(import.meta.url)), "../..");
export const HOOKS = join(REPO, "hooks");
/**
 * The Node that runs the bundles: the one running the tests, or the one a vitest project names
 * (the process suite runs once per supported Node line; see vitest.config.ts).
 */
export const NODE = process.env.CONTINUATION_LOOP_TEST_NODE || process.execPath;

export interface HookRun {
  code: number | null;
  stdout: string;
  stderr: string;
  /** Parsed stdout JSON, when stdout is JSON. */
  json: Record<string, unknown> | undefined;
}

/** Runs a bundled hook the way Claude Code does: a process fed JSON on stdin. */
export function runHook(
  hook: "stop" | "prompt" | "cli" | "session",
  stdin: string | object,
  opts: { cwd?: string; env?: Record<string, string>; args?: string[]; hooks?: string } = {},
): HookRun {
  const input = typeof stdin === "string" ? stdin : JSON.stringify(stdin);
  const env: Record<string, string> = { PATH: process.env.PATH ?? "", HOME: opts.env?.HOME ?? tmpdir(), ...opts.env };
  const result = spawnSync(NODE, [join(opts.hooks ?? HOOKS, `${hook}.js`), ...(opts.args ?? [])], {
    input,
    cwd: opts.cwd ?? REPO,
    env,
    encoding: "utf8",
    timeout: 30_000,
  });
  let json: Record<string, unknown> | undefined;
  try {
    json = result.stdout.trim() ? (JSON.parse(result.stdout) as Record<string, unknown>) : undefined;
  } catch {
    json = undefined;
  }
  return { code: result.status, stdout: result.stdout, stderr: result.stderr, json };
}

/** A throwaway project with an optional state file; returns its paths. */
export function makeProject(stateText?: string): { root: string; statePath: string; historyPath: string } {
  const root = mkdtempSync(join(tmpdir(), "cl-project-"));
  const statePath = join(root, ".claude", "continuation-loop.local.md");
  mkdirSync(dirname(statePath), { recursive: true });
  if (stateText !== undefined) writeFileSync(statePath, stateText);
  return { root, statePath, historyPath: join(root, ".claude", "continuation-loop.history.jsonl") };
}

/** The records of a history file (`.claude/continuation-loop.history.jsonl`), oldest first. */
export const readHistory = (path: string): Record<string, unknown>[] =>
  readFileSync(path, "utf8")
    .trim()
    .split("\n")
    .map((line) => JSON.parse(line) as Record<string, unknown>);
