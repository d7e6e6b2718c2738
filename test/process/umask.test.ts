// The files the hooks make under umask 077 and 000 (docs/REFERENCE.md "Machines that hold back"): never writable
// by others, and a state file's own mode kept when the Stop rewrites it.
import { spawnSync } from "node:child_process";
import { chmodSync, mkdtempSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { HOOKS, NODE } from "../support/runHook.js";

const made: string[] = [];
afterAll(() => {
  for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** A bundle run by a shell that set the umask first, as a login shell or a container's entrypoint may. */
const runWithUmask = (umask: string, root: string, hook: string, args: string[], stdin = "") =>
  spawnSync("sh", ["-c", `umask ${umask}; exec "$0" "$@"`, NODE, join(HOOKS, `${hook}.js`), ...args], {
    cwd: root,
    env: { PATH: process.env.PATH ?? "", HOME: root },
    input: stdin,
    encoding: "utf8",
    timeout: 20_000,
  });
const stopIn = (root: string) =>
  JSON.stringify({ session_id: "s1", cwd: root, hook_event_name: "Stop", last_assistant_message: "working" });
const modeOf = (path: string) => (statSync(path).mode & 0o777).toString(8);

describe("umask", () => {
  it.each([
    ["000", "755", "644"],
    ["077", "700", "600"],
  ])("umask %s: .claude %s, the loop's files %s", (umask, folder, file) => {
    const root = mkdtempSync(join(tmpdir(), "cl-umask-"));
    made.push(root);
    expect(runWithUmask(umask, root, "cli", ["start", "--max-iterations", "5", "Goal"]).status).toBe(0);
    expect(runWithUmask(umask, root, "stop", [], stopIn(root)).status).toBe(2);
    expect(modeOf(join(root, ".claude"))).toBe(folder);
    for (const name of ["local.md", "runtime.json", "history.jsonl"])
      expect(modeOf(join(root, ".claude", `continuation-loop.${name}`)), name).toBe(file);
  });

  it("a state file made group-readable keeps its mode under umask 077", () => {
    const root = mkdtempSync(join(tmpdir(), "cl-umask-"));
    made.push(root);
    expect(runWithUmask("022", root, "cli", ["start", "--max-iterations", "5", "Goal"]).status).toBe(0);
    const state = join(root, ".claude", "continuation-loop.local.md");
    chmodSync(state, 0o640);
    expect(runWithUmask("077", root, "stop", [], stopIn(root)).status).toBe(2);
    expect(readFileSync(state, "utf8")).toMatch(/\niteration_count: 2\n/);
    expect(modeOf(state)).toBe("640");
  });
});
