// One version for the package and the plugin (README "Updating"): package.json, package-lock.json, the plugin's
// manifest and the marketplace entry agree, CHANGELOG.md keeps its form, and doctor prints the version.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { REPO, removeTemps, runCli, tempProject } from "./support/cli.js";

afterAll(removeTemps);

const readJson = (file: string) => JSON.parse(readFileSync(join(REPO, file), "utf8"));
const pkg = readJson("package.json");
const lock = readJson("package-lock.json");
const plugin = readJson(".claude-plugin/plugin.json");
const marketplace = readJson(".claude-plugin/marketplace.json");
const changelog = readFileSync(join(REPO, "CHANGELOG.md"), "utf8");

describe("the version", () => {
  it("is one X.Y.Z in package.json, package-lock.json, plugin.json and the marketplace entry", () => {
    const entries = (marketplace.plugins as Array<{ name: string; version?: string }>).filter(
      (p) => p.name === plugin.name,
    );
    expect(entries).toHaveLength(1);
    expect(plugin.name).toBe(pkg.name);
    expect(pkg.version).toMatch(/^\d+\.\d+\.\d+$/);
    expect({
      "package-lock.json": lock.version,
      'package-lock.json packages[""]': lock.packages[""].version,
      ".claude-plugin/plugin.json": plugin.version,
      ".claude-plugin/marketplace.json": entries[0]?.version,
    }).toEqual({
      "package-lock.json": pkg.version,
      'package-lock.json packages[""]': pkg.version,
      ".claude-plugin/plugin.json": pkg.version,
      ".claude-plugin/marketplace.json": pkg.version,
    });
  });

  it("is the first line of doctor, from the package it runs in", () => {
    const root = tempProject();
    const run = runCli(["doctor", "--project", root], { cwd: root });
    expect(run.stdout.split("\n")[0]).toBe(`continuation-loop ${plugin.version} doctor: ${root}`);
  });

  it("is the installed copy's in a project where install put the hooks", () => {
    const root = tempProject();
    expect(runCli(["install", "--project", root], { cwd: root }).code).toBe(0);
    const installed = join(root, ".claude", "continuation-loop", "hooks", "cli.js");
    const run = runCli(["doctor", "--project", root], { cwd: root, script: installed });
    expect(run.stdout.split("\n")[0]).toBe(`continuation-loop ${plugin.version} doctor: ${root}`);
  });
});

describe("CHANGELOG.md", () => {
  const headings = changelog.split("\n").filter((line) => line.startsWith("## "));
  const releases = headings.slice(1).map((line) => /^## \[(\d+)\.(\d+)\.(\d+)\] - \d{4}-\d{2}-\d{2}$/.exec(line));

  it("opens with Unreleased, then one heading per release, `## [X.Y.Z] - YYYY-MM-DD`, newest first", () => {
    expect(headings[0]).toBe("## [Unreleased]");
    expect(releases.map((m, i) => m?.[0] ?? `not a release heading: ${headings[i + 1]}`)).toEqual(headings.slice(1));
    const numbers = releases.map((m) => Number(m?.[1]) * 1e6 + Number(m?.[2]) * 1e3 + Number(m?.[3]));
    expect(numbers).toEqual([...numbers].sort((a, b) => b - a));
    expect(new Set(numbers).size).toBe(numbers.length);
  });

  it("has an entry for the version, the newest release", () => {
    expect(headings[1]).toMatch(new RegExp(`^## \\[${pkg.version.replace(/\./g, "\\.")}\\] - `));
  });

  it("groups changes under Keep a Changelog's sections only", () => {
    const sections = changelog.split("\n").filter((line) => line.startsWith("### "));
    for (const section of sections)
      expect(["### Added", "### Changed", "### Deprecated", "### Removed", "### Fixed", "### Security"]).toContain(
        section,
      );
  });
});
