// The companion module's own tests (test/mod/*.test.ts), run offline by the newest Claude Code's
// `claude plugin test` with its testing kit, so that `npm test` fails when one of them does. The kit runs
// every *.test.ts under the plugin's folder, and this repository's folder holds the vitest suites too, so
// the run gets a folder of its own: the manifest, hooks/ as built, and the module's tests.
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { REPO_ROOT, cleanEnv, NEWEST } from "./support/runClaude.js";

const MOD_TESTS = path.join(REPO_ROOT, "test", "mod");
const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

/** A plugin folder with this plugin's manifest and built hooks, and `tests` (name → source). */
function stagePlugin(tests: Record<string, string>): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "cl-modkit-"));
  dirs.push(dir);
  fs.cpSync(path.join(REPO_ROOT, ".claude-plugin", "plugin.json"), path.join(dir, ".claude-plugin", "plugin.json"));
  fs.cpSync(path.join(REPO_ROOT, "hooks"), path.join(dir, "hooks"), { recursive: true });
  for (const [name, source] of Object.entries(tests)) {
    fs.mkdirSync(path.join(dir, "tests"), { recursive: true });
    fs.writeFileSync(path.join(dir, "tests", name), source);
  }
  return dir;
}

function pluginTest(dir: string) {
  const home = path.join(dir, ".home");
  fs.mkdirSync(home);
  const r = spawnSync(NEWEST.bin, ["plugin", "test", dir], {
    encoding: "utf8",
    timeout: 90_000,
    env: cleanEnv({ baseUrl: "http://127.0.0.1:9", home }),
  });
  const out = `${r.stdout ?? ""}${r.stderr ?? ""}`;
  const count = (word: string) => Number(new RegExp(`^\\s*(\\d+) ${word}$`, "m").exec(out)?.[1] ?? Number.NaN);
  return { code: r.status, out, passed: count("pass"), failed: count("fail") };
}

const modTests = () =>
  Object.fromEntries(
    fs
      .readdirSync(MOD_TESTS)
      .filter((name) => name.endsWith(".test.ts"))
      .map((name) => [name, fs.readFileSync(path.join(MOD_TESTS, name), "utf8")]),
  );

describe(`Claude Code ${NEWEST.name}: claude plugin test`, () => {
  it("passes every test of the module's own", () => {
    const tests = modTests();
    const declared = Object.values(tests).reduce((n, source) => n + (source.match(/^\s*test\(/gm)?.length ?? 0), 0);
    expect(declared).toBeGreaterThan(0);
    const r = pluginTest(stagePlugin(tests));
    expect(r.code, r.out).toBe(0);
    expect(r.failed, r.out).toBe(0);
    expect(r.passed, r.out).toBe(declared);
  });

  it("claude plugin validate reads the module as Claude Code will and refuses nothing", () => {
    const home = fs.mkdtempSync(path.join(os.tmpdir(), "cl-modkit-home-"));
    dirs.push(home);
    const r = spawnSync(NEWEST.bin, ["plugin", "validate", REPO_ROOT], {
      encoding: "utf8",
      timeout: 90_000,
      env: cleanEnv({ baseUrl: "http://127.0.0.1:9", home }),
    });
    const out = `${r.stdout ?? ""}${r.stderr ?? ""}`;
    expect(r.status, out).toBe(0);
    expect(out).not.toContain("✘");
    // Every hook that answers in the module's place has a .catch that hands the event on.
    for (const command of ["loop-stop", "loop-pause", "loop-status"])
      for (const name of [command, `continuation-loop:${command}`])
        expect(out).toContain(`gating hook with .catch: command.run{command=${name}}`);
    expect(out).toContain("gating hook with .catch: classic.Stop");
    expect(out).not.toContain("without .catch");
  });

  it("fails, and so fails npm test, when a test of the module's fails", () => {
    const failing = `import { expect, test } from "claude-code/testing";\ntest("fails", () => { expect(1).toBe(2); });\n`;
    const r = pluginTest(stagePlugin({ "fails.test.ts": failing }));
    expect(r.code, r.out).toBe(1);
    expect(r.failed, r.out).toBe(1);
  });
});
