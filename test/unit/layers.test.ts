// The layers of docs/ARCHITECTURE.md, checked: what each folder of src/ may import, core is pure, the
// module has no Node, no import cycles, no file over 400 formatted lines.
import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { REPO } from "../support/runHook.js";

const SRC = join(REPO, "src");
const files = (dir: string): string[] =>
  readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? files(join(dir, e.name)) : e.name.endsWith(".ts") ? [join(dir, e.name)] : [],
  );
const ALL = files(SRC);
const LAYERS = ["core", "io", "app", "entries", "module"];
const rel = (path: string) => relative(SRC, path);
/** The layer a file of src/ is in: its first folder. */
const layerOf = (path: string) => rel(path).split("/")[0] ?? "";
const source = (path: string) => readFileSync(path, "utf8");
/** Relative imports of a file (static, side-effect only and dynamic), resolved to .ts paths. */
const importsOf = (path: string) =>
  [...source(path).matchAll(/(?:from|import\(?)\s*"(\.[^"]+)\.js"/g)].map((m) => resolve(dirname(path), `${m[1]}.ts`));

describe("layers", () => {
  it("core is pure: no file system, process, clock or other layer", () => {
    for (const file of ALL.filter((f) => rel(f).startsWith("core/"))) {
      const text = source(file);
      expect(text, rel(file)).not.toMatch(/from "node:(fs|child_process|os)"|\bprocess\.[a-z]|Date\.now\(/);
      for (const target of importsOf(file)) expect(rel(target), rel(file)).toMatch(/^core\//);
    }
  });

  // The table of docs/ARCHITECTURE.md, "Layers": the folders each layer's files may import from.
  it.each([
    ["core", ["core"]],
    ["io", ["core", "io"]],
    ["app", ["core", "io", "app"]],
    ["entries", ["core", "io", "app", "entries"]],
    ["module", ["core", "module"]],
  ])("%s imports only from %j", (layer, allowed) => {
    const own = ALL.filter((f) => layerOf(f) === layer);
    expect(own.length, layer).toBeGreaterThan(0);
    for (const file of own) {
      for (const target of importsOf(file)) expect(allowed, `${rel(file)} → ${rel(target)}`).toContain(layerOf(target));
    }
  });

  it("every file of src/ is in one of the five layers", () => {
    expect(ALL.map(layerOf).filter((l) => !LAYERS.includes(l))).toEqual([]);
  });

  it("the module has no Node: no built-in, no process, no Buffer (Claude Code's $ reaches the world)", () => {
    for (const file of ALL.filter((f) => rel(f).startsWith("module/"))) {
      expect(source(file), rel(file)).not.toMatch(
        /from "node:|import\("node:|require\(|(?<![.\w])process\.|\bBuffer\b/,
      );
    }
  });

  it("has no import cycles", () => {
    const state = new Map<string, "visiting" | "done">();
    const visit = (file: string, stack: string[]): void => {
      if (state.get(file) === "done") return;
      if (state.get(file) === "visiting") throw new Error(`cycle: ${[...stack, file].map(rel).join(" → ")}`);
      state.set(file, "visiting");
      for (const target of importsOf(file)) visit(target, [...stack, file]);
      state.set(file, "done");
    };
    for (const file of ALL) visit(file, []);
  });

  it("keeps every file under 400 formatted lines", () => {
    const long = ALL.filter((f) => source(f).trimEnd().split("\n").length > 400).map(rel);
    expect(long).toEqual([]);
  });
});
