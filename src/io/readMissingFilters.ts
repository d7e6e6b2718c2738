import { existsSync } from "node:fs";
import { delimiter, isAbsolute, join, resolve } from "node:path";
import { type GitRepo, spawnGit } from "./runGit.js";

/** A `.gitattributes` filter driver git is configured to run whose program is not installed. */
export interface MissingFilter {
  /** The driver's name: `lfs` for `filter=lfs`. */
  name: string;
  /** The program its command runs: `git-lfs`. */
  program: string;
}

/** The first word of a filter's command, as the shell git runs it with would read it. */
const readProgram = (command: string): string => {
  const quoted = /^\s*(["'])(.*?)\1/.exec(command);
  return quoted ? (quoted[2] ?? "") : (command.trim().split(/\s+/)[0] ?? "");
};

const SUFFIXES = process.platform === "win32" ? ["", ".exe", ".cmd", ".bat"] : [""];

/** Whether the shell would find `program`: a path from the project root, or a name on PATH. */
function findProgram(program: string, root: string, env: NodeJS.ProcessEnv): boolean {
  if (program.includes("/") || program.includes("\\") || isAbsolute(program))
    return SUFFIXES.some((suffix) => existsSync(resolve(root, program + suffix)));
  const dirs = (env.PATH ?? env.Path ?? "").split(delimiter).filter(Boolean);
  return dirs.some((dir) => SUFFIXES.some((suffix) => existsSync(join(dir, program + suffix))));
}

/**
 * The filter drivers (`filter.<name>.process` or `.clean` in git's config) whose program is not installed: a clone
 * of a Git LFS repository on a machine without git-lfs. Read only when `git add` failed, to say why.
 */
export function readMissingFilters(repo: Pick<GitRepo, "root" | "env">): MissingFilter[] {
  const listed = spawnGit(repo, ["config", "-z", "--get-regexp", "^filter\\..*\\.(process|clean)$"]);
  if (listed.status !== 0) return [];
  const missing = new Map<string, string>();
  for (const entry of listed.stdout.split("\0")) {
    const cut = entry.indexOf("\n");
    if (cut < 0) continue;
    const key = entry.slice(0, cut);
    const name = key.slice("filter.".length, key.lastIndexOf("."));
    const program = readProgram(entry.slice(cut + 1));
    if (name && program && !missing.has(name) && !findProgram(program, repo.root, repo.env)) missing.set(name, program);
  }
  return [...missing].map(([name, program]) => ({ name, program }));
}

/**
 * The repository as git commands see it with the missing filters off (files read as they are), through git's
 * GIT_CONFIG_COUNT variables, which reach every command: after those set already.
 */
export function renderFiltersOff<T extends Pick<GitRepo, "env">>(repo: T, filters: readonly MissingFilter[]): T {
  const env = { ...repo.env };
  let count = Number(env.GIT_CONFIG_COUNT) || 0;
  for (const { name } of filters) {
    for (const [key, value] of [
      ["process", ""],
      ["clean", ""],
      ["required", "false"],
    ]) {
      env[`GIT_CONFIG_KEY_${count}`] = `filter.${name}.${key}`;
      env[`GIT_CONFIG_VALUE_${count}`] = value;
      count += 1;
    }
  }
  env.GIT_CONFIG_COUNT = String(count);
  return { ...repo, env };
}

/** What the person is told: which filter, which program, what to do. */
export const renderMissingFilters = (filters: readonly MissingFilter[]): string =>
  filters
    .map(({ name, program }) => `the .gitattributes filter "${name}" runs ${program}, which is not installed`)
    .join("; ");
