/**
 * hooks/active.js, the active path's bundle, with a plain `require`: the build leaves "./active.js"
 * external (scripts/build.mjs), so the entry's bundle finds it beside itself.
 */
export function loadActive(): typeof import("./active.js") {
  return require("./active.js") as typeof import("./active.js");
}
