// An entry's active path: its own bundle in hooks/active/, loaded with a plain `require`. The build
// leaves "./active/*" external (scripts/build.mjs), so each entry's bundle finds it beside itself.
// One bundle per hook, not one for all: the Stop's is the smaller (docs/PERFORMANCE.md).
/**
 * Node's own compile cache (Node ≥ 22.1; absent on 20) keeps the active bundle's compiled code between
 * runs (docs/PERFORMANCE.md). node:module is loaded here, not imported, so the idle path never loads it.
 */
function enableCompileCache(): void {
  (process.getBuiltinModule("node:module") as { enableCompileCache?: () => unknown }).enableCompileCache?.();
}

export function loadActiveStop(): typeof import("./active/stop.js") {
  enableCompileCache();
  return require("./active/stop.js") as typeof import("./active/stop.js");
}

export function loadActivePrompt(): typeof import("./active/prompt.js") {
  enableCompileCache();
  return require("./active/prompt.js") as typeof import("./active/prompt.js");
}

export function loadActiveSession(): typeof import("./active/session.js") {
  enableCompileCache();
  return require("./active/session.js") as typeof import("./active/session.js");
}
