// `npm run release -- X.Y.Z` refuses, in one line and with nothing changed, what would make a wrong release
// (CONTRIBUTING.md "Releasing"). The release itself, tagged by the real Claude Code: test/e2e/release.e2e.test.ts.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import {
  RELEASE_FILES,
  git,
  gitEnv,
  makeReleaseRepo,
  nextMinor,
  readVersion,
  runRelease,
} from "../support/releaseRepo.js";

const temp = mkdtempSync(join(tmpdir(), "cl-release-"));
afterAll(() => rmSync(temp, { recursive: true, force: true }));
let count = 0;

/** A repository holding the release files at HEAD, one change under Unreleased. */
function repo(): { dir: string; env: Record<string, string>; version: string; files: () => string[] } {
  const dir = join(temp, `repo-${++count}`);
  const env = gitEnv(join(temp, "home"));
  makeReleaseRepo(dir, env, false, "### Fixed\n\n- A fix worth a release.");
  const files = () => RELEASE_FILES.map((file) => readFileSync(join(dir, file), "utf8"));
  return { dir, env, version: readVersion(dir), files };
}

/** The release refused in one line, the repository as it was: same HEAD, same files, no tag. */
function expectRefused(r: ReturnType<typeof repo>, message: RegExp, ...args: string[]) {
  const head = git(r.dir, r.env, "rev-parse", "HEAD");
  const before = r.files();
  const status = git(r.dir, r.env, "status", "--porcelain");
  const run = runRelease(r.dir, r.env, ...args);
  expect(run.status, run.stdout + run.stderr).toBe(1);
  expect(run.stderr).toMatch(message);
  expect(run.stderr.trim().split("\n")).toHaveLength(1);
  expect(git(r.dir, r.env, "rev-parse", "HEAD")).toBe(head);
  expect(r.files()).toEqual(before);
  expect(git(r.dir, r.env, "status", "--porcelain")).toBe(status);
  expect(git(r.dir, r.env, "tag", "--list")).toBe("");
}

describe("npm run release refuses", () => {
  it("no version, or one that is not X.Y.Z", () => {
    const r = repo();
    expectRefused(r, /^release: usage: npm run release -- X\.Y\.Z$/m);
    expectRefused(r, /usage/, "1.2");
    expectRefused(r, /usage/, "v1.2.3");
  });

  it("a version that is not above the current one", () => {
    const r = repo();
    expectRefused(r, new RegExp(`${r.version} is not above the current version, ${r.version}`), r.version);
    expectRefused(r, /is not above the current version/, "0.0.1");
  });

  it("a working tree with changes", () => {
    const r = repo();
    writeFileSync(join(r.dir, "notes.txt"), "not committed\n");
    expectRefused(r, /the working tree has changes: commit or stash them first/, nextMinor(r.version));
  });

  it("nothing under Unreleased", () => {
    const r = repo();
    const changelog = join(r.dir, "CHANGELOG.md");
    const text = readFileSync(changelog, "utf8");
    const start = text.indexOf("## [Unreleased]\n") + "## [Unreleased]\n".length;
    const next = text.indexOf("\n## ", start);
    writeFileSync(changelog, `${text.slice(0, start)}${next < 0 ? "" : text.slice(next)}`);
    git(r.dir, r.env, "commit", "--quiet", "-am", "Unreleased emptied");
    expectRefused(r, /nothing under "## \[Unreleased\]"/, nextMinor(r.version));
  });

  it("files whose versions disagree, naming the file", () => {
    const r = repo();
    const marketplace = join(r.dir, ".claude-plugin", "marketplace.json");
    writeFileSync(marketplace, readFileSync(marketplace, "utf8").replace(`"${r.version}"`, '"9.9.9"'));
    git(r.dir, r.env, "commit", "--quiet", "-am", "A stray version");
    expectRefused(r, /\.claude-plugin\/marketplace\.json plugins\.continuation-loop\.version says 9\.9\.9/, "10.0.0");
  });

  it("a tag Claude Code could not make, and undoes its commit", () => {
    const r = repo();
    const env = { ...r.env, CONTINUATION_LOOP_CLAUDE: "/bin/false" };
    expectRefused({ ...r, env }, /plugin tag` failed, so the release commit was undone/, nextMinor(r.version));
  });
});
