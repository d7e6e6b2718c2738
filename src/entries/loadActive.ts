import * as nodeModule from "node:module";

/**
 * hooks/active.js, the active path's bundle, with a plain `require`: the build leaves "./active.js"
 * external (scripts/build.mjs), so the entry's bundle finds it beside itself. Node's own compile
 * cache (Node ≥ 22.1; absent on 20) keeps its compiled code between runs (docs/PERFORMANCE.md);
 * turned on here, so the idle path never pays for it.
 */
export function loadActive(): typeof import("./active.js") {
  (nodeModule as { enableCompileCache?: () => unknown }).enableCompileCache?.();
  return require("./active.js") as typeof import("./active.js");
}
