// Injected by scripts/build.mjs: `import.meta.url` for CommonJS bundles, the file's own URL.
// Pure, so only files that use import.meta.url carry it.
export const import_meta_url = /* @__PURE__ */ (() => require("node:url").pathToFileURL(__filename).href)();
