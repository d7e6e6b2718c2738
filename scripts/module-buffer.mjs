// Injected into the companion module's bundle (scripts/build.mjs): Claude Code runs the module with no
// Node and no Buffer. gray-matter only keeps each split text's original as a Buffer (`file.orig`, which
// the product never reads), so the text itself stands in for it.
export const Buffer = { from: (text) => text, isBuffer: () => false };
