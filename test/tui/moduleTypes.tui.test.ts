// The declarations Claude Code writes for a hooks module (docs/REFERENCE.md "The companion module"): the newest Claude
// Code, started interactively with this plugin, writes them into .claude-plugin/types/ (gitignored; not
// under -p), and the module's own tests and its hand-typed engine (test/mod) type-check against them.
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { startMessagesServer } from "../e2e/support/messagesServer.js";
import { REPO_ROOT, NEWEST } from "../e2e/support/runClaude.js";
import { TuiScratch, until } from "./support/scratch.js";
import { startTui } from "./support/tui.js";

const DECLARATIONS = path.join(REPO_ROOT, ".claude-plugin", "types", "claude-code", "index.d.ts");

let scratch: TuiScratch | undefined;
afterEach(async () => {
  await scratch?.dispose();
  scratch = undefined;
});

describe(`Claude Code ${NEWEST.name}: the module's types`, () => {
  it("writes its declarations beside the plugin, and test/mod type-checks against them", async () => {
    const s = (scratch = new TuiScratch("module-types"));
    s.server = await startMessagesServer([]);
    s.tui = await startTui({ version: NEWEST, baseUrl: s.server.url, cwd: s.proj, home: s.home });
    await until(
      () =>
        fs.existsSync(DECLARATIONS) &&
        fs.readFileSync(DECLARATIONS, "utf8").startsWith(`// Written by Claude Code ${NEWEST.name}.`),
      "the declarations",
      30_000,
    );
    const tsc = path.join(REPO_ROOT, "node_modules", "typescript", "bin", "tsc");
    const r = spawnSync(process.execPath, [tsc, "-p", path.join(REPO_ROOT, "test", "mod")], { encoding: "utf8" });
    expect(`${r.stdout}${r.stderr}`).toBe("");
    expect(r.status).toBe(0);
  });
});
