import { existsSync, realpathSync, statSync } from "node:fs";
import { delimiter, dirname, isAbsolute, join, relative, resolve } from "node:path";
import { WORKTREES_PATHSPEC } from "../core/checkpointRefs.js";
import { hashText } from "../core/hash.js";
import { readIndexHolds } from "./readGitIndex.js";
import { startGit } from "./runGit.js";

/** Untracked files are fingerprinted by size and mtime, up to this many. */
const MAX_UNTRACKED = 2000;

/**
 * The top of the work tree git finds from `dir` (the folder holding `.git`), undefined outside one: as git does, the
 * walk up stops below a folder of `GIT_CEILING_DIRECTORIES`, where git answers "not a git repository".
 */
function readWorkTreeTop(dir: string): string | undefined {
  const ceilings = readCeilings(process.env.GIT_CEILING_DIRECTORIES);
  for (let d = ceilings.size > 0 ? realOf(dir) : dir; ; d = dirname(d)) {
    if (existsSync(join(d, ".git"))) return d;
    if (dirname(d) === d || ceilings.has(dirname(d))) return undefined;
  }
}

/** The real path; the path itself when it does not exist. */
const realOf = (path: string): string => {
  try {
    return realpathSync.native(path);
  } catch {
    return path;
  }
};

/** `GIT_CEILING_DIRECTORIES`' absolute folders, as real paths (git compares the real path of where it starts). */
const readCeilings = (listed: string | undefined): Set<string> =>
  new Set(
    (listed ?? "")
      .split(delimiter)
      .filter((path) => isAbsolute(path))
      .map((path) => realOf(path).replace(/[\\/]+$/, "") || path),
  );

/**
 * `git diff` does not see inside untracked files: their size and mtime stand for their content. `top`: the top of
 * the work tree, which the porcelain's paths start from whatever folder the project is.
 */
function untrackedStamps(top: string, entries: string[]): string {
  return entries
    .filter((entry) => entry.startsWith("?? "))
    .slice(0, MAX_UNTRACKED)
    .map((entry) => {
      try {
        const st = statSync(join(top, entry.slice(3)));
        return `${entry.slice(3)}:${st.size}:${st.mtimeMs}`;
      } catch {
        return entry;
      }
    })
    .join("\0");
}

/**
 * The submodules whose files differ from their own commit: the superproject's status and diff name such a
 * submodule (modified in the work tree), never what changed in it, so a turn's work there must be read inside it.
 */
function dirtySubmodules(top: string, entries: string[]): string[] {
  return entries
    .filter((entry) => entry[1] === "M" && existsSync(join(top, entry.slice(3), ".git")))
    .map((entry) => entry.slice(3));
}

/**
 * Pathspecs that leave out the loop's own files (state, lock, temp, history): they change every turn; and Claude
 * Code's worktrees in the project, where other loops work.
 */
function pathspecs(root: string, ownFiles: string[]): string[] {
  const specs = ["--", ".", WORKTREES_PATHSPEC];
  for (const file of ownFiles) {
    const rel = relative(root, file);
    // Its own `*`, `?` and `[` are letters, as in renderExcludes: only the siblings' `*` is a pattern.
    const literal = rel
      .split("\\")
      .join("/")
      .replace(/[*?[\\]/g, "\\$&");
    if (rel && !rel.startsWith("..") && !isAbsolute(rel)) specs.push(`:(exclude,glob)${literal}*`);
  }
  return specs;
}

const runGitIn = (root: string, args: string[]) =>
  startGit(root, args, { env: process.env, maxBuffer: 64 * 1024 * 1024, timeout: 10_000 });

/** Submodules in submodules are read down to this depth. */
const MAX_DEPTH = 8;

/**
 * Fingerprint of the working tree: `git status`, `git diff HEAD`, and untracked files' size and
 * mtime, leaving out `ownFiles`; a submodule with changes of its own adds its fingerprint. "" outside
 * git or with no git program, undefined when git fails.
 */
export function readTreeState(root: string, ownFiles: string[] = []): string | undefined {
  const top = readWorkTreeTop(root);
  return top === undefined ? "" : readTreeFacts(root, top, ownFiles, 0)?.state;
}

/** A submodule's changes of its own as a fingerprint; "" when it has none, is not checked out, or git cannot say. */
export function readSubmoduleChanges(path: string): string {
  const top = readWorkTreeTop(path);
  const facts = top === undefined ? undefined : readTreeFacts(path, top, [], 0);
  return facts?.changed ? facts.state : "";
}

/**
 * readTreeState's fingerprint inside a repository, and whether `git status` named any change; undefined when git fails.
 * `top`: the top of the work tree `root` is in.
 */
function readTreeFacts(
  root: string,
  top: string,
  ownFiles: string[],
  depth: number,
): { state: string; changed: boolean } | undefined {
  const only = pathspecs(root, ownFiles);
  const run = (args: string[]) => runGitIn(root, args);
  const status = run(["status", "--porcelain=v1", "-z", "--untracked-files=all", ...only]);
  // No git program: the tree cannot be read, so the turn's tool calls are the evidence, as outside git.
  if ((status.error as NodeJS.ErrnoException | undefined)?.code === "ENOENT") return { state: "", changed: false };
  if (status.status !== 0) return undefined;
  const entries = status.stdout.split("\0");
  const diff = run(["diff", "HEAD", "--no-color", "--no-ext-diff", ...only]);
  // A diff past the buffer or the time allowed is cut short: taken as no diff, work on a changed file would look like none.
  if (diff.error || diff.status === null) return undefined;
  const inner: string[] = [];
  for (const path of depth < MAX_DEPTH ? dirtySubmodules(top, entries) : []) {
    inner.push(`${path}:${readTreeFacts(join(top, path), join(top, path), [], depth + 1)?.state ?? "unreadable"}`);
  }
  // A repo without commits has no HEAD: the status alone is the state. Without submodules' changes, the
  // fingerprint is the one earlier versions kept, so a loop's unchanged turns go on counting across an upgrade.
  const own = `${status.stdout}\u0000${diff.status === 0 ? diff.stdout : ""}\u0000${untrackedStamps(top, entries)}`;
  return {
    state: hashText(inner.length === 0 ? own : `${own}\u0000${inner.join("\0")}`),
    changed: status.stdout !== "",
  };
}

/**
 * Whether git tracks a file: `unknown` (and why) when a repository holds it that git cannot answer for; `code`: the
 * error that kept git from starting (ENOENT, EMFILE, EAGAIN…), none when git ran and failed.
 */
export type GitTracking = { kind: "tracked" } | { kind: "untracked" } | { kind: "unknown"; why: string; code?: string };

/**
 * Is the file in git's index (committed or staged)? Then it came with the repository, not from this user
 * (docs/REFERENCE.md "Several loops"). Untracked outside git. Inside a repository git cannot read (no git, a
 * folder git refuses as another user's, a broken git), it is `unknown`: the callers refuse, as for a tracked file;
 * with no git program at all, the index file is read instead.
 */
export function readGitTracking(root: string, path: string): GitTracking {
  if (readWorkTreeTop(root) === undefined) return { kind: "untracked" };
  // Literal: a folder named `pkg[1]` is no pattern that a tracked `pkg1/…` answers.
  const run = startGit(root, ["ls-files", "-z", "--", `:(literal)${path}`], {
    env: process.env,
    maxBuffer: 1024 * 1024,
    timeout: 10_000,
  });
  if (run.error) {
    const code = (run.error as NodeJS.ErrnoException).code;
    // No git program (a slim container holding a checkout): the index file itself answers when it can.
    const held = code === "ENOENT" ? readIndexHolds(resolve(root, path)) : undefined;
    if (held !== undefined) return { kind: held ? "tracked" : "untracked" };
    return {
      kind: "unknown",
      why: code === "ENOENT" ? "git is not installed" : `git could not run (${code ?? "error"})`,
      ...(code && { code }),
    };
  }
  if (run.status !== 0) {
    const said = run.stderr.trim().split("\n")[0]?.slice(0, 200);
    return { kind: "unknown", why: `git exited with status ${run.status}${said ? `: ${said}` : ""}` };
  }
  return run.stdout.length > 0 ? { kind: "tracked" } : { kind: "untracked" };
}
