// gray-matter's one `require("fs")` in the companion module (scripts/build.mjs): its file reader, never
// called there. Claude Code runs the module with no Node.
module.exports = {};
