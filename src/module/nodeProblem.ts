// Without a usable `node` on PATH the module's helper runs cannot work (docs/REFERENCE.md "No Node, or an
// old one"): the first run that shows it keeps the one line, and the module starts node no more this
// session. The band then has nothing to draw, and the loop controls answer with the line.
import { readNodeNeeded, renderNodeNeeded } from "../core/nodeSupport.js";
import { mod } from "./state.js";

/** A `$.process.run(["node", …])` that threw: when node did not start at all, there is none to run. */
export function noteNodeThrow(error: unknown): void {
  const message = error instanceof Error ? error.message : String(error);
  if (/failed to start|ENOENT/.test(message)) mod.nodeProblem = renderNodeNeeded();
}

/** A run whose output is the hooks' own line (a Node too old): the same. */
export function noteNodeOutput(output: string): void {
  const line = readNodeNeeded(output);
  if (line) mod.nodeProblem = line;
}
