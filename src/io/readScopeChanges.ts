import { posix, resolve } from "node:path";
import { LoopError } from "../core/errors.js";
import { type LoopFile, ownFilesOf } from "../core/loopFiles.js";
import type { LoopState } from "../core/parseState.js";
import { captureTree, renderExcludes } from "./captureTree.js";
import { inside, realOf } from "./readProjectFiles.js";
import { type GitRepo, readGitRepo, runGit, spawnGit } from "./runGit.js";

/** The field a refusal names: `scope` when set, else `max_files_changed`. */
const fieldOf = (state: Pick<LoopState, "scope">) => (state.scope !== undefined ? "scope" : "max_files_changed");

/**
 * Refuses `scope` entries that leave the project through a symlink (the field's own check already
 * refused absolute paths and `..`). An entry that does not exist yet is judged by its deepest
 * existing folder.
 */
export function checkScopePaths(root: string, entries: readonly string[], shown: string): void {
  const realRoot = realOf(root);
  for (const entry of entries) {
    const path = resolve(root, entry);
    if (inside(root, path) && inside(realRoot, realOf(path))) continue;
    throw new LoopError("SCOPE_OUTSIDE_PROJECT", "the path leaves the project", {
      file: shown,
      field: "scope",
      expected: "paths inside the project, e.g. scope: [src, test] (a symlink out of it does not count as inside)",
      received: JSON.stringify(entry),
    });
  }
}

/**
 * Every loop's files anywhere in the work tree: in a repository of several projects (a monorepo's packages),
 * another project's loop changing its own files is no change of this loop's.
 */
const EVERY_LOOP_FILES = [
  ":(exclude,top,glob)**/.claude/continuation-loop.*",
  ":(exclude,top,glob)**/.claude/.continuation-loop*",
  ":(exclude,top,glob)**/.claude/worktrees/**",
];

export interface ScopeTree {
  repo: GitRepo;
  /** The working tree now, as a git tree (tracked and untracked files, .gitignore honoured, the loop's files left out). */
  tree: string;
  excludes: string[];
  /** Whether the tree holds stand-ins (large untracked files, submodules' changes) that a checkpoint must not keep. */
  standIns: boolean;
}

/**
 * The whole work tree as a git tree, so that a project in a folder of a larger repository sees what the
 * loop changed beside it too; refused, naming the field, outside git.
 */
export function captureScopeTree(
  state: Pick<LoopState, "scope">,
  root: string,
  env: NodeJS.ProcessEnv,
  ownFiles: string[],
  shown: string,
): ScopeTree {
  let repo: GitRepo;
  try {
    repo = readGitRepo(root, env);
  } catch (error) {
    if (!(error instanceof LoopError)) throw error;
    if (error.code === "GIT_MISSING")
      throw new LoopError("SCOPE_NOT_GIT", `${error.message}, so the working tree cannot be compared`, {
        file: shown,
        field: fieldOf(state),
        expected: "git on PATH (install it), or no scope and max_files_changed",
      });
    throw new LoopError("SCOPE_NOT_GIT", "needs a git repository to compare the working tree with", {
      file: shown,
      field: fieldOf(state),
      expected: "the project inside a git work tree (git init), or no scope and max_files_changed",
      received: root,
    });
  }
  const excludes = [...renderExcludes(root, ownFiles), ...EVERY_LOOP_FILES];
  try {
    const { tree, standIns } = captureTree(repo, excludes, ":/", true);
    return { repo, tree, excludes, standIns: standIns > 0 };
  } catch (error) {
    const reason = error instanceof LoopError ? error.message : String(error);
    throw new LoopError("SCOPE_NOT_GIT", `reading the working tree failed (${reason})`, {
      file: shown,
      field: fieldOf(state),
    });
  }
}

/** A path from the top of the work tree as seen from the project root at `prefix`: `../web/w.js` beside it. */
const renderProjectPath = (prefix: string, path: string): string =>
  path.startsWith(prefix) ? path.slice(prefix.length) : posix.relative(prefix, path);

/**
 * The files that differ between `base` and the tree now, relative to the project root: a file beside the
 * project reads `../web/w.js`. `base` "" (no Stop yet) or gone from the object store: the last commit,
 * else the empty tree.
 */
export function readChangedFiles(scope: ScopeTree, base: string): string[] {
  const { repo, tree, excludes } = scope;
  const diff = (from: string) =>
    spawnGit(repo, ["diff-tree", "-r", "-z", "--no-renames", "--name-only", from, tree, "--", ":/", ...excludes]);
  const paths = (stdout: string) =>
    stdout
      .split("\0")
      .filter(Boolean)
      .map((path) => renderProjectPath(repo.prefix, path));
  // One git call on the common path; the fallbacks only when the base is not there.
  for (const from of [base, "HEAD^{tree}"]) {
    if (!from) continue;
    const run = diff(from);
    if (run.status === 0) return paths(run.stdout);
  }
  const empty = runGit(repo, ["hash-object", "-t", "tree", "-w", "--stdin"], { input: "" }).trim();
  const run = diff(empty);
  if (run.status !== 0)
    throw new LoopError("SCOPE_NOT_GIT", `git diff-tree failed: ${run.stderr.trim()}`, { field: "scope" });
  return paths(run.stdout);
}

/**
 * The tree a new loop's first Stop compares with: the working tree as /loop-start finds it.
 * Refuses scope outside git or leaving the project, before any file is written.
 */
export function readScopeBaseline(
  state: Pick<LoopState, "scope" | "max_files_changed">,
  file: LoopFile,
  env: NodeJS.ProcessEnv,
): string | undefined {
  if (state.scope === undefined && state.max_files_changed === undefined) return undefined;
  if (state.scope) checkScopePaths(file.root, state.scope, file.shown);
  return captureScopeTree(state, file.root, env, ownFilesOf(file), file.shown).tree;
}
