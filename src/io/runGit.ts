import { loadChildProcess } from "./loadChildProcess.js";
import { statSync } from "node:fs";
import { basename, resolve } from "node:path";
import { LoopError } from "../core/errors.js";

/** The project's git work tree, as checkpoints see it. */
export interface GitRepo {
  /** The project root: every git command runs here, and pathspecs stay under it. */
  root: string;
  env: NodeJS.ProcessEnv;
  /** The real index, absolute; a checkpoint only ever copies it. */
  indexPath: string;
  /** The project root inside the work tree, "" at its top, else "sub/dir/". */
  prefix: string;
  /** git's id of the linked worktree the project is in; undefined in the main one. */
  worktree: string | undefined;
}

export interface GitOptions {
  input?: string;
  /** A temporary index (`GIT_INDEX_FILE`), so that the real one is never written. */
  indexFile?: string;
  /** Variables added to the environment (a commit's identity and date). */
  extraEnv?: Record<string, string>;
  /** The person's git hooks run: for a worktree made in their place (`post-checkout`), as their own git would. */
  personHooks?: boolean;
}

/**
 * Options every git command of the product runs with, whatever the person's git config says (docs/REFERENCE.md
 * "Your git configuration"). --no-optional-locks: never take index.lock from under the person's (or Claude's) own
 * git commands. core.hooksPath: a checkpoint's update-ref would run their reference-transaction hook, and one
 * that fails would fail it; their post-index-change hook would run on the temporary index. core.splitIndex: each
 * temporary index written would leave a shared index file of the whole index's size in their git folder.
 */
const GIT_OPTIONS = ["--no-optional-locks", "-c", "core.hooksPath=/dev/null", "-c", "core.splitIndex=false"];

/** The environment's own pathspec switches: every pathspec the product writes says its own magic. */
const PATHSPEC_SWITCHES = [
  "GIT_LITERAL_PATHSPECS",
  "GIT_GLOB_PATHSPECS",
  "GIT_NOGLOB_PATHSPECS",
  "GIT_ICASE_PATHSPECS",
];

/** A trace to stderr (`GIT_TRACE=1`) would stand in the place of git's own message when a command fails. */
const tracesToStderr = (name: string, value: string | undefined): boolean =>
  name.startsWith("GIT_TRACE") && /^(?:1|2|true|[3-9])$/i.test(value?.trim() ?? "");

/** `env` without what would change how git reads the product's pathspecs or what it says on stderr. */
function renderGitEnv(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const clean = { ...env };
  for (const name of PATHSPEC_SWITCHES) delete clean[name];
  for (const name of Object.keys(clean)) if (tracesToStderr(name, clean[name])) delete clean[name];
  return clean;
}

/** Starts git in `cwd` as every command of the product does; spawnSync's own answer. */
export function startGit(
  cwd: string,
  args: string[],
  options: { env: NodeJS.ProcessEnv; input?: string; timeout: number; maxBuffer: number; personHooks?: boolean },
) {
  const leading = options.personHooks ? GIT_OPTIONS.slice(0, 1) : GIT_OPTIONS;
  return loadChildProcess().spawnSync("git", [...leading, ...args], {
    cwd,
    env: renderGitEnv(options.env),
    encoding: "utf8",
    input: options.input,
    maxBuffer: options.maxBuffer,
    timeout: options.timeout,
    windowsHide: true,
  });
}

const TIMEOUT_MS = 120_000;

/** Runs git in the project root; a failure is a LoopError naming the git command and its message. */
export function runGit(repo: Pick<GitRepo, "root" | "env">, args: string[], options: GitOptions = {}): string {
  const result = spawnGit(repo, args, options);
  if (result.status !== 0) {
    const reason = result.stderr.trim().split("\n").slice(0, 3).join(" ") || `exit status ${result.status}`;
    throw new LoopError("CHECKPOINT_FAILED", `git ${args[0]} failed: ${reason}`, { field: "checkpoints" });
  }
  return result.stdout;
}

/** Like runGit, but a non-zero exit is an answer ("no such ref"), not an error. */
export function spawnGit(
  repo: Pick<GitRepo, "root" | "env">,
  args: string[],
  options: GitOptions = {},
): { status: number | null; stdout: string; stderr: string } {
  const env = { ...repo.env, ...options.extraEnv, ...(options.indexFile ? { GIT_INDEX_FILE: options.indexFile } : {}) };
  const result = startGit(repo.root, args, {
    env,
    input: options.input,
    maxBuffer: 512 * 1024 * 1024,
    timeout: TIMEOUT_MS,
    personHooks: options.personHooks,
  });
  if (result.error) {
    if ((result.error as NodeJS.ErrnoException).code === "ENOENT")
      throw new LoopError("GIT_MISSING", "git is not installed or not on PATH", { field: "checkpoints" });
    throw new LoopError("CHECKPOINT_FAILED", `git ${args[0]} could not run: ${result.error.message}`, {
      field: "checkpoints",
    });
  }
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

/** The git work tree the project root is in; refused, naming the field, outside one. */
export function readGitRepo(root: string, env: NodeJS.ProcessEnv): GitRepo {
  if (!isDirectory(root)) {
    throw new LoopError("CHECKPOINT_NOT_GIT", "the project root is not a folder", {
      field: "checkpoints",
      expected: "an existing folder inside a git work tree",
      received: root,
    });
  }
  const { status, answers } = readRevParse({ root, env }, REPO_QUESTIONS);
  const [inside, prefix, indexPath, gitDir, commonDir] = answers;
  if (status !== 0 || inside !== "true" || !indexPath) {
    throw new LoopError("CHECKPOINT_NOT_GIT", "not a git repository; set checkpoints: false or run git init", {
      field: "checkpoints",
      expected: "the project root inside a git work tree",
      received: root,
    });
  }
  return {
    root,
    env,
    indexPath: resolve(root, indexPath),
    prefix: prefix ?? "",
    worktree: readWorktreeId(root, gitDir, commonDir),
  };
}

/** What readGitRepo asks `git rev-parse`, in the order of its answers. */
const REPO_QUESTIONS = [
  ["--is-inside-work-tree"],
  ["--show-prefix"],
  ["--git-path", "index"],
  ["--git-dir"],
  ["--git-common-dir"],
];

/**
 * `git rev-parse`'s answers, one per question. rev-parse writes each on a line of its own, unquoted: a folder
 * named with a line break makes more lines than answers, and then each question is asked alone.
 */
export function readRevParse(
  repo: Pick<GitRepo, "root" | "env">,
  questions: string[][],
): { status: number | null; answers: string[] } {
  const probe = spawnGit(repo, ["rev-parse", ...questions.flat()]);
  const lines = probe.stdout.split("\n");
  if (probe.status !== 0 || lines.length === questions.length + 1) return { status: probe.status, answers: lines };
  const answers: string[] = [];
  for (const question of questions) {
    const alone = spawnGit(repo, ["rev-parse", ...question]);
    if (alone.status !== 0) return { status: alone.status, answers };
    answers.push(alone.stdout.replace(/\n$/, ""));
  }
  return { status: 0, answers };
}

/** A linked worktree's git folder is `<common>/worktrees/<id>`; the main one's is the common folder itself. */
function readWorktreeId(root: string, gitDir: string | undefined, commonDir: string | undefined): string | undefined {
  if (!gitDir || !commonDir) return undefined;
  const own = resolve(root, gitDir);
  return own === resolve(root, commonDir) ? undefined : basename(own);
}

function isDirectory(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}

export interface CheckpointScope {
  /** The project root; checkpoints hold and restore only what is under it. */
  root: string;
  /** `default` or a named loop's NAME. */
  loop: string;
  env: NodeJS.ProcessEnv;
  /** More files to leave out (absolute or relative to the root), e.g. a state file pinned elsewhere. */
  exclude?: string[];
}
