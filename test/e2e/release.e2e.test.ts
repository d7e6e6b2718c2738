// `npm run release -- X.Y.Z` on a throwaway clone, tagged by each pinned Claude Code's own `claude plugin tag`
// (CONTRIBUTING.md "Releasing"): the one version moves in every file, the Unreleased lines move under it with
// the date, one commit holds exactly that, and the tag names the commit. Its refusals: test/process/release.test.ts.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import {
  RELEASE_FILES,
  git,
  gitEnv,
  makeReleaseRepo,
  nextMinor,
  readVersion,
  runRelease,
} from "../support/releaseRepo.js";
import { NEWEST } from "./support/runClaude.js";

let temp: string | undefined;
afterEach(() => {
  if (temp) fs.rmSync(temp, { recursive: true, force: true });
  temp = undefined;
});

/** The local date, as the release writes it. */
const localDate = (d: Date) =>
  `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, "0")}-${String(d.getDate()).padStart(2, "0")}`;

// A maintainer's script, whose tag the maintainer's Claude Code makes: on the newest pin only.
describe.each([NEWEST])("Claude Code %s", (version) => {
  it("npm run release moves the version, the Unreleased lines, commits and tags the commit", () => {
    temp = fs.mkdtempSync(path.join(os.tmpdir(), "cl-release-e2e-"));
    const clone = path.join(temp, "clone");
    const env = { ...gitEnv(path.join(temp, "home")), CONTINUATION_LOOP_CLAUDE: version.bin };
    const line = "- A change worth a release.";
    makeReleaseRepo(clone, env, true, `### Fixed\n\n${line}`);
    const tags = (): string[] => git(clone, env, "tag", "--list").split("\n").filter(Boolean);
    const before = { head: git(clone, env, "rev-parse", "HEAD"), version: readVersion(clone), tags: tags() };
    const changelogBefore = fs.readFileSync(path.join(clone, "CHANGELOG.md"), "utf8");
    const next = nextMinor(before.version);

    const day = localDate(new Date());
    const run = runRelease(clone, env, next);
    expect(run.status, run.stdout + run.stderr).toBe(0);
    expect([day, localDate(new Date())]).toContain(
      /## \[[\d.]+\] - (\S+)/.exec(fs.readFileSync(path.join(clone, "CHANGELOG.md"), "utf8"))?.[1],
    );

    // One version, moved everywhere it is written.
    const json = (file: string) => JSON.parse(fs.readFileSync(path.join(clone, file), "utf8"));
    expect([
      json("package.json").version,
      json("package-lock.json").version,
      json("package-lock.json").packages[""].version,
      json(".claude-plugin/plugin.json").version,
      json(".claude-plugin/marketplace.json").plugins[0].version,
    ]).toEqual([next, next, next, next, next]);

    // The Unreleased lines now sit under the version, an empty Unreleased above; the rest is as it was.
    const changelog = fs.readFileSync(path.join(clone, "CHANGELOG.md"), "utf8");
    const heading = `## [${next}] - ${/## \[[\d.]+\] - (\S+)/.exec(changelog)?.[1]}`;
    expect(changelog).toBe(changelogBefore.replace("## [Unreleased]\n\n", `## [Unreleased]\n\n${heading}\n\n`));
    expect(changelog.indexOf(line)).toBeGreaterThan(changelog.indexOf(heading));

    // One commit on top, holding exactly the release files; the tree clean.
    expect(git(clone, env, "rev-parse", "HEAD~1")).toBe(before.head);
    expect(git(clone, env, "diff", "--name-only", "HEAD~1", "HEAD").split("\n").sort()).toEqual(
      [...RELEASE_FILES].sort(),
    );
    expect(git(clone, env, "status", "--porcelain")).toBe("");

    // Claude Code's tag, `{name}--v{version}`, annotated, at the release commit.
    const tag = `continuation-loop--v${next}`;
    expect(tags().sort()).toEqual([...before.tags, tag].sort());
    expect(git(clone, env, "cat-file", "-t", tag)).toBe("tag");
    expect(git(clone, env, "rev-parse", `${tag}^{commit}`)).toBe(git(clone, env, "rev-parse", "HEAD"));
    expect(run.stdout).toContain(tag);
  });
});
