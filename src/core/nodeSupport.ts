// Which Node the hooks need, and the one line a person is told when the `node` on PATH is missing, does not
// run (a version manager's shim with no version set) or is too old (docs/REFERENCE.md "No Node, or an old
// one"). The shell guard in hooks/hooks.json carries the same line for a node that is missing or did not run
// (test/process/nodeGuard.test.ts holds them together).
// The idle entries run this on any Node, so it stays plain: no imports.

/** The oldest Node the hooks run on (package.json `engines`). */
export const NODE_MIN = "20.16";

/** Does this Node version (e.g. "18.19.0") run the hooks? */
export function acceptsNodeVersion(version: string): boolean {
  const [major, minor] = version.split(".").map(Number);
  const [needMajor, needMinor] = NODE_MIN.split(".").map(Number);
  if (major === undefined || minor === undefined || needMajor === undefined || needMinor === undefined) return false;
  return major > needMajor || (major === needMajor && minor >= needMinor);
}

const NEEDED = `continuation-loop: needs Node.js ${NODE_MIN} or later on PATH and`;

/**
 * The one line: what is missing, how to check it, and that nothing else is affected. `found` is the
 * version of the node on PATH (undefined: there is none, or none that runs).
 */
export function renderNodeNeeded(found?: string): string {
  const what = found === undefined ? "none that runs" : `v${found.replace(/^v/, "")}`;
  return `${NEEDED} found ${what} (check: node --version); its loops are off, and nothing else in Claude Code is affected.`;
}

/** The line, when a hook's or the helper's output is that line (how the companion module learns of it). */
export function readNodeNeeded(output: string): string | undefined {
  const line = output.trim();
  return line.startsWith(NEEDED) ? line : undefined;
}
