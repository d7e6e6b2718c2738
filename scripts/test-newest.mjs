// npm run test:newest (CONTRIBUTING.md): installs the newest @anthropic-ai/claude-code from the
// registry into .cache/claude-newest/ (not node_modules), then runs the e2e and terminal suites with
// it in place of the pinned newest. Arguments go to vitest (e.g. a test file).
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const dir = join(root, ".cache", "claude-newest");
const pkg = join(dir, "node_modules", "@anthropic-ai", "claude-code");
const npm = process.platform === "win32" ? "npm.cmd" : "npm";

const run = (command, args, env = process.env) => {
  const result = spawnSync(command, args, { cwd: root, stdio: "inherit", env });
  if (result.status !== 0) process.exit(result.status ?? 1);
};

mkdirSync(dir, { recursive: true });
// Its own package, so the install touches neither package.json nor the lockfile; the package's
// postinstall puts the native binary in place.
writeFileSync(
  join(dir, "package.json"),
  `${JSON.stringify({ private: true, allowScripts: { "@anthropic-ai/claude-code": true } }, null, 2)}\n`,
);
const latest = spawnSync(npm, ["view", "@anthropic-ai/claude-code@latest", "version"], { encoding: "utf8" });
const newest = latest.stdout?.trim();
if (latest.status !== 0 || !newest) {
  console.error(`test:newest: the registry did not say which release is the newest: ${latest.stderr ?? ""}`);
  process.exit(1);
}
const installed = existsSync(join(pkg, "package.json"))
  ? JSON.parse(readFileSync(join(pkg, "package.json"), "utf8")).version
  : undefined;
if (installed !== newest)
  run(npm, [
    "install",
    "--prefix",
    dir,
    `@anthropic-ai/claude-code@${newest}`,
    "--no-audit",
    "--no-fund",
    "--loglevel=error",
  ]);
console.log(`test:newest: the e2e and terminal suites on Claude Code 2.1.197 and ${newest} (${pkg})`);
run(
  process.execPath,
  [
    join(root, "node_modules", "vitest", "vitest.mjs"),
    "run",
    "--project",
    "e2e",
    "--project",
    "tui",
    ...process.argv.slice(2),
  ],
  {
    ...process.env,
    CONTINUATION_LOOP_CLAUDE_NEWEST: pkg,
  },
);
