import { execFileSync, spawnSync } from "node:child_process";
import { cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { builtinModules } from "node:module";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import { describe, expect, it } from "vitest";
import { HOOKS, NODE, REPO } from "../support/runHook.js";

function listFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? listFiles(path) : [path];
  });
}

/** Built files only: hooks.json is written by hand. */
const built = (dir: string) =>
  listFiles(dir)
    .map((p) => relative(dir, p))
    .filter((p) => p.endsWith(".js") || p === "package.json")
    .sort();

describe("committed bundles", () => {
  it("match a fresh build of src/ (run `npm run build` and commit hooks/ when this fails)", () => {
    const fresh = mkdtempSync(join(tmpdir(), "cl-build-"));
    execFileSync(process.execPath, [join(REPO, "scripts/build.mjs"), fresh], { stdio: "pipe" });
    expect(built(HOOKS)).toEqual(built(fresh));
    for (const file of built(fresh)) {
      expect(readFileSync(join(HOOKS, file), "utf8"), `hooks/${file} is stale`).toBe(
        readFileSync(join(fresh, file), "utf8"),
      );
    }
  });

  it("import nothing from node_modules", () => {
    for (const file of built(HOOKS).filter((f) => f.endsWith(".js"))) {
      const text = readFileSync(join(HOOKS, file), "utf8");
      // The bundles are CommonJS: require("…") as well as import; Node's own modules are fine.
      const bare = [...text.matchAll(/(?:from|import\(|require\()\s*"([^".][^"]*)"/g)]
        .map((m) => m[1])
        .filter((s) => !s?.startsWith("node:") && !builtinModules.includes(s ?? ""));
      expect(bare, `hooks/${file}`).toEqual([]);
    }
  });

  it("run from a copy outside the repo, with no node_modules and no package.json above", () => {
    const dir = mkdtempSync(join(tmpdir(), "cl-copy-"));
    cpSync(HOOKS, join(dir, "hooks"), { recursive: true });
    const project = join(dir, "project");
    mkdirSync(join(project, ".claude"), { recursive: true });
    writeFileSync(join(project, ".claude", "continuation-loop.local.md"), "---\nmax_iterations: 2\n---\nGoal\n");
    const run = spawnSync(NODE, [join(dir, "hooks", "stop.js")], {
      input: JSON.stringify({ session_id: "s", cwd: project, last_assistant_message: "x" }),
      encoding: "utf8",
      env: { PATH: process.env.PATH ?? "" },
    });
    expect(run.stderr).toContain("[SYSTEM REMINDER - CONTINUATION LOOP ACTIVE]");
    expect(run.status).toBe(2);
  });
});
