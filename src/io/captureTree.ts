import { copyFileSync, existsSync, lstatSync, mkdtempSync, rmSync, statSync, utimesSync } from "node:fs";
import { dirname, isAbsolute, join, relative, resolve } from "node:path";
import {
  type LeftOutFile,
  MAX_CAPTURED_BYTES,
  OWN_FILES_PATHSPEC,
  WORKTREES_PATHSPEC,
} from "../core/checkpointRefs.js";
import { LoopError } from "../core/errors.js";
import { readMissingFilters, renderFiltersOff, renderMissingFilters } from "./readMissingFilters.js";
import { readSubmoduleChanges } from "./readTreeState.js";
import { type GitRepo, runGit, spawnGit } from "./runGit.js";

/**
 * Runs `work` with the path of a temporary index file, removed afterwards with its folder. node:os is
 * loaded here, not imported: loading it costs every active Stop, and only checkpoints need it. A temp folder
 * that is missing or not writable (TMPDIR pointing nowhere) gives way to the git folder, which git writes anyway.
 */
export function withTempIndex<T>(repo: Pick<GitRepo, "indexPath">, work: (indexFile: string) => T): T {
  let dir: string;
  try {
    dir = mkdtempSync(join(process.getBuiltinModule("node:os").tmpdir(), "continuation-loop-"));
  } catch {
    dir = mkdtempSync(join(dirname(repo.indexPath), "continuation-loop-"));
  }
  try {
    return work(join(dir, "index"));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * Copies the real index: its stat data lets `git add` skip files that did not change. The copy
 * keeps the index's own mtime, which git's racy-clean check compares entries with: with a fresh
 * mtime, a file edited in the same second at the same size would be taken as unchanged.
 */
function seedIndex(from: string, to: string): boolean {
  try {
    copyFileSync(from, to);
    const stat = statSync(from);
    utimesSync(to, stat.atime, stat.mtime);
    return true;
  } catch {
    return false;
  }
}

/**
 * Pathspecs that leave out the loop's own files, Claude Code's worktrees in the project, and `exclude` (absolute,
 * or relative to the root).
 */
export function renderExcludes(root: string, exclude: string[] = []): string[] {
  const specs = [OWN_FILES_PATHSPEC, WORKTREES_PATHSPEC];
  for (const path of exclude) {
    const rel = relative(root, resolve(root, path)).split("\\").join("/");
    // Siblings too: the state file's lock and temporary files share its name.
    if (rel && !rel.startsWith("..") && !isAbsolute(rel))
      specs.push(`:(exclude,glob)${rel.replace(/[*?[\\]/g, "\\$&")}*`);
  }
  return specs;
}

/**
 * Runs `git add`; in a sparse checkout git refuses paths outside its cone (the loop's own files among them) unless
 * told `--sparse`, an option older gits do not know: then the first answer is the one that counts. Whether it was.
 */
function runAdd(repo: GitRepo, args: string[], indexFile: string): boolean {
  if (spawnGit(repo, args, { indexFile }).status === 0) return false;
  if (spawnGit(repo, [args[0] ?? "", "--sparse", ...args.slice(1)], { indexFile }).status === 0) return true;
  runGit(repo, args, { indexFile });
  return false;
}

/** The working tree as a git tree, and the untracked files left out of it for their size. */
export interface CapturedTree {
  tree: string;
  leftOut: LeftOutFile[];
  /** Entries that stand for a file or a submodule's changes (captureTree's `standIns`): no checkpoint may keep them. */
  standIns: number;
}

/** The top of the work tree the project root is in. */
const readTop = (repo: GitRepo): string => resolve(repo.root, repo.prefix.replace(/[^/]+\//g, "../") || ".");

/**
 * Index lines for the submodules under `from` that have changes of their own: the tree records only a submodule's
 * commit, so its entry gets an id made from those changes, and comparing two trees sees work inside it.
 */
function readSubmoduleStandIns(repo: GitRepo, from: "." | ":/", indexFile: string): string[] {
  const top = readTop(repo);
  if (!existsSync(join(top, ".gitmodules"))) return [];
  const listed = runGit(repo, ["ls-files", "-s", "-z", "--full-name", "--", from], { indexFile });
  const lines: string[] = [];
  for (const entry of listed.split("\0")) {
    if (!entry.startsWith("160000 ")) continue;
    const path = entry.slice(entry.indexOf("\t") + 1);
    const changes = readSubmoduleChanges(join(top, path));
    if (!changes) continue;
    const input = `submodule ${entry.split(" ")[1]} ${changes}\n`;
    lines.push(`160000 ${runGit(repo, ["hash-object", "--stdin"], { input }).trim()}\t${path}\n`);
  }
  return lines;
}

/**
 * Untracked, not ignored files under `from`; those over MAX_CAPTURED_BYTES are left out: a build's output that changes
 * every iteration would add its whole size to the object store at every Stop. `top`: the path from the top of the work tree.
 */
function readUntracked(repo: GitRepo, from: "." | ":/"): Untracked {
  const listed = runGit(repo, ["ls-files", "-o", "--exclude-standard", "-z", "--full-name", "--", from]);
  const top = readTop(repo);
  const large: Untracked["large"] = [];
  const kept: string[] = [];
  for (const path of listed.split("\0")) {
    if (!path) continue;
    try {
      const stat = lstatSync(join(top, path));
      if (!stat.isFile() || stat.size <= MAX_CAPTURED_BYTES) {
        kept.push(path);
        continue;
      }
      const shown = relative(repo.root, join(top, path)).split("\\").join("/");
      large.push({ path: shown, bytes: stat.size, top: path, stamp: `${stat.size} ${stat.mtimeMs}` });
    } catch {
      // Gone since git listed it: nothing to leave out.
      kept.push(path);
    }
  }
  return { large, kept };
}

/** Untracked, not ignored files under `from`, from the top of the work tree: those too large to keep, and the rest. */
interface Untracked {
  large: (LeftOutFile & { top: string; stamp: string })[];
  kept: string[];
}

/**
 * Adds the untracked files already listed (`kept`) by name, and updates the tracked ones: `git add --all` would walk
 * the folders for untracked files a second time. Not in a sparse checkout, whose cone `git rm` must be told about
 * (runAdd), nor for a folder git lists whole (a repository inside the work tree, which `git add` makes a submodule
 * entry of). Whether it did; git's own failure (a file that turned into a folder) leaves it to `git add --all`.
 */
function addListed(repo: GitRepo, from: "." | ":/", kept: string[], indexFile: string): boolean {
  if (kept.some((path) => path.endsWith("/")) || existsSync(join(dirname(repo.indexPath), "info", "sparse-checkout")))
    return false;
  if (spawnGit(repo, ["add", "-u", "--", from], { indexFile }).status !== 0) return false;
  if (kept.length === 0) return true;
  // --remove: a file gone since git listed it is left out, as `git add --all` would not have seen it.
  const input = `${kept.join("\0")}\0`;
  const top = { root: readTop(repo), env: repo.env };
  return spawnGit(top, ["update-index", "--add", "--remove", "-z", "--stdin"], { indexFile, input }).status === 0;
}

/**
 * The tree of the project's working tree as it is: tracked and untracked files, `.gitignore`
 * honoured, through a temporary index so that the real index, HEAD and the files stay as they are.
 * `from`: the project's folder ("."), or the whole work tree (":/") when the project is a folder of a
 * larger repository whose other files count too; outside `from`, the tree holds the real index's entries.
 * Untracked files over MAX_CAPTURED_BYTES are left out; with `withStandIns`, each is held by a small blob of
 * its size and mtime instead, and a submodule with changes of its own by an id made from them, so that
 * comparing two trees still sees them change (a checkpoint never keeps a stand-in).
 */
function captureOnce(repo: GitRepo, excludes: string[], from: "." | ":/" = ".", withStandIns = false): CapturedTree {
  const { large, kept } = readUntracked(repo, from);
  const add = ["add", "--all", "--", from, ...large.map((file) => `:(top,exclude,literal)${file.top}`)];
  // Left out afterwards, not by exclude pathspecs: `git add` refuses those when they point into an
  // ignored folder (a `.claude/` in .gitignore), and the loop's files must stay out either way. Forced: git
  // refuses to drop an entry the temporary index holds as neither HEAD nor the file has it (a worktree's commit).
  const drop = [
    "rm",
    "--cached",
    "-f",
    "-r",
    "-q",
    "--ignore-unmatch",
    "--",
    ...excludes.map((e) => e.replace(":(exclude,", ":(")),
  ];
  let standIns = 0;
  const stand = (indexFile: string) => {
    const lines = large.map((file) => {
      const blob = runGit(repo, ["hash-object", "-w", "--stdin"], { input: `stand-in ${file.stamp}\n` }).trim();
      return `100644 ${blob}\t${file.top}\n`;
    });
    lines.push(...readSubmoduleStandIns(repo, from, indexFile));
    standIns = lines.length;
    if (lines.length > 0) runGit(repo, ["update-index", "--add", "--index-info"], { indexFile, input: lines.join("") });
  };
  // `listed`: the index holds the real index's entries, against which git listed the untracked files.
  const build = (indexFile: string, listed: boolean) => {
    // Without --sparse, `git rm` leaves entries outside the cone in place and still exits 0.
    const sparse = listed && addListed(repo, from, kept, indexFile) ? false : runAdd(repo, add, indexFile);
    runGit(repo, sparse ? ["rm", "--sparse", ...drop.slice(1)] : drop, { indexFile });
    if (withStandIns) stand(indexFile);
    return runGit(repo, ["write-tree"], { indexFile }).trim();
  };
  const leftOut = large.map(({ path, bytes }) => ({ path, bytes }));
  const tree = withTempIndex(repo, (indexFile) => {
    const seeded = seedIndex(repo.indexPath, indexFile);
    try {
      return build(indexFile, seeded);
    } catch (error) {
      // A filter's program not installed fails from no index too, reading every file: captureTree says so.
      if (!seeded || readMissingFilters(repo).length > 0) throw error;
      // A real index git cannot build on (unmerged paths outside the project, say): start from none.
      rmSync(indexFile, { force: true });
      return build(indexFile, false);
    }
  });
  return { tree, leftOut, standIns };
}

/**
 * captureOnce, and when git fails for a `.gitattributes` filter whose program is not installed (git-lfs in a clone of
 * an LFS repository; git runs the filter in add, and in any command that rechecks a file the index holds as racy):
 * with `withStandIns`, again with those filters off, the files read as they are, which no checkpoint may keep; else
 * refused with CHECKPOINT_FILTER_MISSING, naming the filter and its program.
 */
export function captureTree(
  repo: GitRepo,
  excludes: string[],
  from: "." | ":/" = ".",
  withStandIns = false,
): CapturedTree {
  try {
    return captureOnce(repo, excludes, from, withStandIns);
  } catch (error) {
    const missing = error instanceof LoopError ? readMissingFilters(repo) : [];
    if (missing.length === 0) throw error;
    if (!withStandIns)
      throw new LoopError("CHECKPOINT_FILTER_MISSING", renderMissingFilters(missing), {
        field: "checkpoints",
        expected: `${missing.map((filter) => filter.program).join(" and ")} installed, or checkpoints: false`,
      });
    const captured = captureOnce(renderFiltersOff(repo, missing), excludes, from, withStandIns);
    return { ...captured, standIns: captured.standIns + 1 };
  }
}
