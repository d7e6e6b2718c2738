import { join } from "node:path";

/**
 * How to run this package's helper from a shell (Claude Code's `!` too): its bundle by path, in double quotes
 * when needed, with the four characters a POSIX shell still reads there escaped. Not `npx continuation-loop`,
 * which works only once the package is published (README "Install").
 */
export const renderCliCommand = (packageRoot: string): string => {
  const cli = join(packageRoot, "hooks", "cli.js");
  return `node ${/^[\w@%+=:,./-]+$/.test(cli) ? cli : `"${cli.replace(/[$`"\\]/g, "\\$&")}"`}`;
};
