import { join } from "node:path";
import { renderShellWord } from "../core/renderShellWord.js";

/**
 * How to run this package's helper from a shell (Claude Code's `!` too): its bundle by path. Not
 * `npx continuation-loop`, which works only once the package is published (README "Install").
 */
export const renderCliCommand = (packageRoot: string): string =>
  `node ${renderShellWord(join(packageRoot, "hooks", "cli.js"))}`;
