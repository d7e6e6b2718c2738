// A device in stdin's place (src/io/readStdin.ts) must end at once, as empty input: /dev/null ends at
// once, /dev/zero never does.
import { spawnSync } from "node:child_process";
import { closeSync, openSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { HOOKS, makeProject, NODE } from "../support/runHook.js";

describe("a device as stdin", () => {
  it.each([
    ["stop", "/dev/zero"],
    ["stop", "/dev/null"],
    ["prompt", "/dev/zero"],
    ["session", "/dev/zero"],
    ["cli", "/dev/zero"],
  ] as const)("%s with %s: exits 0 at once, as empty input, with no stack trace", (hook, device) => {
    const { root } = makeProject("---\nmax_iterations: 5\n---\nGoal\n");
    const fd = openSync(device, "r");
    try {
      const run = spawnSync(NODE, [join(HOOKS, `${hook}.js`), ...(hook === "cli" ? ["statusline"] : [])], {
        stdio: [fd, "pipe", "pipe"],
        cwd: root,
        env: { PATH: process.env.PATH ?? "", HOME: root, CLAUDE_PROJECT_DIR: root },
        encoding: "utf8",
        timeout: 10_000,
      });
      expect(run.signal).toBeNull(); // not killed by the timeout
      expect(run.status).toBe(0);
      expect(run.stderr).not.toMatch(/\n\s+at /);
      // The Stop hook, with a loop in the project, says the input was empty; the loop is untouched.
      if (hook === "stop") expect(JSON.parse(run.stdout).systemMessage).toContain("empty input");
    } finally {
      closeSync(fd);
    }
  });
});
