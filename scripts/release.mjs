// `npm run release -- X.Y.Z` (CONTRIBUTING.md "Releasing"): moves the one version in package.json,
// package-lock.json, .claude-plugin/plugin.json and the marketplace entry, moves CHANGELOG.md's Unreleased lines
// under the new version with today's date, commits, and tags the commit with Claude Code's own `claude plugin
// tag`, which checks that plugin.json and the marketplace entry agree. Nothing is pushed.
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { parseArgs } from "node:util";

// `npm run` starts scripts in the package's root; the release test runs this file in a throwaway clone.
const ROOT = process.cwd();
const CHANGELOG = "CHANGELOG.md";
const UNRELEASED = "## [Unreleased]";
/** Each file with the version, and where in its JSON the version sits. */
const VERSIONED = [
  { file: "package.json", at: [["version"]] },
  { file: "package-lock.json", at: [["version"], ["packages", "", "version"]] },
  { file: ".claude-plugin/plugin.json", at: [["version"]] },
  { file: ".claude-plugin/marketplace.json", at: [["plugins", "continuation-loop", "version"]] },
];

class Refusal extends Error {}

/** The value at `at` in `json`; a name in an array picks the element of that `name`. */
function pick(json, at) {
  let node = json;
  for (const key of at) {
    node = Array.isArray(node) ? node.find((item) => item?.name === key) : node?.[key];
    if (node === undefined) return undefined;
  }
  return node;
}

function git(args, options = {}) {
  const run = spawnSync("git", args, { cwd: ROOT, encoding: "utf8", ...options });
  if (run.status !== 0) throw new Refusal(`git ${args.join(" ")} failed: ${(run.stderr || run.stdout).trim()}`);
  return run.stdout.trim();
}

/** The one version today, refused unless every file says it. */
function readVersion() {
  if (!fs.existsSync(path.join(ROOT, "package.json")) || !fs.existsSync(path.join(ROOT, CHANGELOG)))
    throw new Refusal("run it in the repository's root: npm run release -- X.Y.Z");
  const seen = VERSIONED.flatMap(({ file, at }) => {
    const json = JSON.parse(fs.readFileSync(path.join(ROOT, file), "utf8"));
    return at.map((where) => ({ where: `${file} ${where.join(".")}`, version: pick(json, where) }));
  });
  const [first] = seen;
  const odd = seen.find((s) => s.version !== first.version);
  if (odd)
    throw new Refusal(
      `${odd.where} says ${odd.version} but ${first.where} says ${first.version}: make them agree first`,
    );
  return first.version;
}

const parseVersion = (v) => (/^\d+\.\d+\.\d+$/.test(v) ? v.split(".").map(Number) : undefined);
const isAbove = (a, b) => {
  const [x, y] = [parseVersion(a), parseVersion(b)];
  const i = x.findIndex((n, k) => n !== y[k]);
  return i >= 0 && x[i] > y[i];
};

/**
 * The file's text with the version at each place moved from `from` to `to`, nothing else touched: each value is
 * replaced where it stands, then the parse is checked against the intended change.
 */
function moveVersion(text, at, from, to) {
  const want = JSON.parse(text);
  for (const where of at) {
    const parent = pick(want, where.slice(0, -1));
    parent[where.at(-1)] = to;
  }
  const pattern = new RegExp(`("version"\\s*:\\s*)"${from.replace(/\./g, "\\.")}"`, "g");
  let left = at.length;
  // The versioned places come first in these files (npm writes the lock's root entries before any package).
  const moved = text.replace(pattern, (match, key) => (left-- > 0 ? `${key}"${to}"` : match));
  if (JSON.stringify(JSON.parse(moved)) !== JSON.stringify(want))
    throw new Refusal(`could not move the version in place; move it by hand: ${at.map((w) => w.join(".")).join(", ")}`);
  return moved;
}

/** CHANGELOG.md with the Unreleased lines under `## [version] - date`, and an empty Unreleased above them. */
function moveChangelog(text, version, date) {
  const start = text.indexOf(`${UNRELEASED}\n`);
  if (start < 0) throw new Refusal(`${CHANGELOG} has no "${UNRELEASED}" heading`);
  const bodyStart = start + UNRELEASED.length + 1;
  const next = text.indexOf("\n## ", bodyStart);
  const end = next < 0 ? text.length : next + 1;
  const body = text.slice(bodyStart, end).trim();
  if (!/^[-*] /m.test(body))
    throw new Refusal(`nothing under "${UNRELEASED}" in ${CHANGELOG}: what does this release change?`);
  return `${text.slice(0, start)}${UNRELEASED}\n\n## [${version}] - ${date}\n\n${body}\n${next < 0 ? "" : `\n${text.slice(end)}`}`;
}

/** Claude Code for `plugin tag`: $CONTINUATION_LOOP_CLAUDE, else the newest pinned devDependency, else `claude`. */
function findClaude() {
  if (process.env.CONTINUATION_LOOP_CLAUDE) return process.env.CONTINUATION_LOOP_CLAUDE;
  const pinned = path.join(ROOT, "node_modules", "claude-code-latest", "bin", "claude.exe");
  return fs.existsSync(pinned) ? pinned : "claude";
}

const today = () => {
  const d = new Date();
  return `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, "0")}-${String(d.getDate()).padStart(2, "0")}`;
};

function release(argv) {
  const { positionals } = parseArgs({ args: argv, allowPositionals: true, options: {} });
  const [version] = positionals;
  if (positionals.length !== 1 || !parseVersion(version)) throw new Refusal("usage: npm run release -- X.Y.Z");
  const current = readVersion();
  if (!isAbove(version, current)) throw new Refusal(`${version} is not above the current version, ${current}`);
  if (git(["status", "--porcelain"])) throw new Refusal("the working tree has changes: commit or stash them first");
  const tag = `continuation-loop--v${version}`;
  if (git(["tag", "--list", tag])) throw new Refusal(`the tag ${tag} exists already`);

  const changelog = moveChangelog(fs.readFileSync(path.join(ROOT, CHANGELOG), "utf8"), version, today());
  const texts = VERSIONED.map(({ file, at }) => ({
    file,
    text: moveVersion(fs.readFileSync(path.join(ROOT, file), "utf8"), at, current, version),
  }));
  for (const { file, text } of [...texts, { file: CHANGELOG, text: changelog }])
    fs.writeFileSync(path.join(ROOT, file), text);
  const notes = changelog.slice(changelog.indexOf(`## [${version}]`)).split("\n## ")[0];
  git(["add", CHANGELOG, ...VERSIONED.map((v) => v.file)]);
  git(["commit", "--quiet", "-F", "-"], {
    input: `continuation-loop ${version}\n\n${notes.split("\n").slice(2).join("\n")}`,
  });

  const claude = findClaude();
  const tagged = spawnSync(claude, ["plugin", "tag", ".", "--message", "continuation-loop %s"], {
    cwd: ROOT,
    encoding: "utf8",
  });
  if (tagged.status !== 0) {
    git(["reset", "--quiet", "--hard", "HEAD~1"]);
    throw new Refusal(
      `\`${claude} plugin tag\` failed, so the release commit was undone: ${(tagged.error?.message ?? `${tagged.stdout}${tagged.stderr}`).trim()}`,
    );
  }
  if (git(["rev-parse", `${tag}^{commit}`]) !== git(["rev-parse", "HEAD"]))
    throw new Refusal(`claude plugin tag did not make ${tag} at the release commit`);
  return `continuation-loop ${version}: committed and tagged ${tag}. Publish with: git push --follow-tags\n`;
}

try {
  process.stdout.write(release(process.argv.slice(2)));
} catch (error) {
  if (!(error instanceof Refusal)) throw error;
  process.stderr.write(`release: ${error.message}\n`);
  process.exitCode = 1;
}
