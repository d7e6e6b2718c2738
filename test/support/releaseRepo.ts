// A throwaway repository for `npm run release` (scripts/release.mjs, CONTRIBUTING.md "Releasing"), and the script
// run in it as `npm run` runs it: in the repository's root. Not a test file.
import { type SpawnSyncReturns, execFileSync, spawnSync } from "node:child_process";
import { cpSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";

const REPO = resolve(import.meta.dirname, "..", "..");
const RELEASE = join(REPO, "scripts", "release.mjs");
/** What the release script reads and writes. */
export const RELEASE_FILES = [
  "CHANGELOG.md",
  "package.json",
  "package-lock.json",
  ".claude-plugin/plugin.json",
  ".claude-plugin/marketplace.json",
];

/** A git identity and a HOME of the test's own: no user's config is read. */
export function gitEnv(home: string): Record<string, string> {
  return {
    PATH: process.env.PATH ?? "",
    HOME: home,
    GIT_CONFIG_NOSYSTEM: "1",
    GIT_AUTHOR_NAME: "Release Test",
    GIT_AUTHOR_EMAIL: "release@example.com",
    GIT_COMMITTER_NAME: "Release Test",
    GIT_COMMITTER_EMAIL: "release@example.com",
  };
}

export function git(cwd: string, env: Record<string, string>, ...args: string[]): string {
  return execFileSync("git", args, { cwd, env, encoding: "utf8" }).trim();
}

/**
 * `dir` as the repository at HEAD, with one line a contributor added under Unreleased and committed: a clone
 * (`whole`), or only the files the release script touches.
 */
export function makeReleaseRepo(dir: string, env: Record<string, string>, whole: boolean, line: string): void {
  if (whole) git(REPO, env, "clone", "--quiet", "--no-hardlinks", REPO, dir);
  else {
    mkdirSync(dir, { recursive: true });
    for (const file of RELEASE_FILES) cpSync(join(REPO, file), join(dir, file));
    git(dir, env, "init", "--quiet");
  }
  const changelog = join(dir, "CHANGELOG.md");
  writeFileSync(
    changelog,
    readFileSync(changelog, "utf8").replace("## [Unreleased]\n", `## [Unreleased]\n\n${line}\n`),
  );
  git(dir, env, "add", "-A");
  git(dir, env, "commit", "--quiet", "-m", "A change under Unreleased");
}

export function runRelease(dir: string, env: Record<string, string>, ...args: string[]): SpawnSyncReturns<string> {
  return spawnSync(process.execPath, [RELEASE, ...args], { cwd: dir, env, encoding: "utf8", timeout: 60_000 });
}

export const readVersion = (dir: string, file = "package.json"): string =>
  JSON.parse(readFileSync(join(dir, file), "utf8")).version;

/** The next minor version: 0.2.0 → 0.3.0. */
export function nextMinor(version: string): string {
  const [major, minor] = version.split(".").map(Number);
  return `${major}.${(minor ?? 0) + 1}.0`;
}
