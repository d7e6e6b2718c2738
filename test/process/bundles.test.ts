import { execFileSync, spawnSync } from "node:child_process";
import { cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { builtinModules } from "node:module";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import { describe, expect, it } from "vitest";
import { HOOKS, makeProject, NODE, REPO } from "../support/runHook.js";

function listFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? listFiles(path) : [path];
  });
}

/** Built files only: hooks.json is written by hand. */
const built = (dir: string) =>
  listFiles(dir)
    .map((p) => relative(dir, p))
    .filter((p) => p.endsWith(".js") || p === "package.json")
    .sort();

/** A fresh build of src/ and esbuild's record of which source files went into which bundle. */
const fresh = mkdtempSync(join(tmpdir(), "cl-build-"));
const metafile = join(fresh, "..", `${fresh.split("/").pop()}.meta.json`);
execFileSync(process.execPath, [join(REPO, "scripts/build.mjs"), fresh, "--metafile", metafile], { stdio: "pipe" });
const meta = JSON.parse(readFileSync(metafile, "utf8")) as {
  outputs: Record<string, { inputs: object }>;
  /** The companion module's build: its one output, and the files whose code it carries. */
  module: { outputs: Record<string, { inputs: object }> };
};

/**
 * The hooks' own .js files that one run of a bundle loaded: `require.cache` (Node's documented
 * module cache) read at exit by a script preloaded with `--require`.
 */
function loadedBundles(hook: string, input: object): { status: number | null; loaded: string[] } {
  const dir = mkdtempSync(join(tmpdir(), "cl-loaded-"));
  const preload = join(dir, "preload.cjs");
  const out = join(dir, "loaded.json");
  writeFileSync(
    preload,
    `process.on("exit", () => require("node:fs").writeFileSync(${JSON.stringify(out)}, JSON.stringify(Object.keys(require.cache))));\n`,
  );
  const run = spawnSync(NODE, ["--require", preload, join(HOOKS, `${hook}.js`)], {
    input: JSON.stringify(input),
    encoding: "utf8",
    env: { PATH: process.env.PATH ?? "", HOME: dir },
  });
  const loaded = (JSON.parse(readFileSync(out, "utf8")) as string[])
    .filter((file) => file.startsWith(`${HOOKS}/`))
    .map((file) => relative(HOOKS, file))
    .sort();
  return { status: run.status, loaded };
}

describe("committed bundles", () => {
  it("match a fresh build of src/ (run `npm run build` and commit hooks/ when this fails)", () => {
    expect(built(HOOKS)).toEqual(built(fresh));
    for (const file of built(fresh)) {
      expect(readFileSync(join(HOOKS, file), "utf8"), `hooks/${file} is stale`).toBe(
        readFileSync(join(fresh, file), "utf8"),
      );
    }
  });

  it("import nothing from node_modules", () => {
    for (const file of built(HOOKS).filter((f) => f.endsWith(".js"))) {
      const text = readFileSync(join(HOOKS, file), "utf8");
      // The bundles are CommonJS: require("…") as well as import; Node's own modules are fine.
      const bare = [...text.matchAll(/(?:from|import\(|require\()\s*"([^".][^"]*)"/g)]
        .map((m) => m[1])
        .filter((s) => !s?.startsWith("node:") && !builtinModules.includes(s ?? ""));
      expect(bare, `hooks/${file}`).toEqual([]);
    }
  });

  it("load no builtin at an idle entry's start beyond node:fs and node:path, which Node has loaded by then", () => {
    // node:os and node:module cost every hook run that loads them: the idle path never needs either.
    for (const hook of ["stop", "prompt", "session"]) {
      const text = readFileSync(join(HOOKS, `${hook}.js`), "utf8");
      const builtins = [...text.matchAll(/require\("([^".][^"]*)"\)/g)].map((m) => m[1]?.replace(/^node:/, ""));
      expect([...new Set(builtins)].sort(), `hooks/${hook}.js`).toEqual(["fs", "path"]);
    }
  });

  it("load no builtin at an active Stop's or session hook's start beyond node:fs and node:path", () => {
    // A builtin required at the top of the bundle is loaded by every active run (docs/PERFORMANCE.md); one that
    // only a rare path needs is loaded there, through process.getBuiltinModule.
    for (const hook of ["active/stop", "active/session"]) {
      const text = readFileSync(join(HOOKS, `${hook}.js`), "utf8");
      const builtins = [...text.matchAll(/require\("([^".][^"]*)"\)/g)].map((m) => m[1]?.replace(/^node:/, ""));
      expect([...new Set(builtins)].sort(), `hooks/${hook}.js`).toEqual(["fs", "path"]);
    }
  });

  it("keep the loop's code out of the idle entries: no YAML, zod, gray-matter or sidecar schema in them", () => {
    const heavy =
      /node_modules\/(zod|yaml|gray-matter)\/|src\/core\/(sidecar|fields|parseState)\.ts|src\/app\/stopHook\.ts/;
    for (const hook of ["stop", "prompt", "session"]) {
      const output = Object.entries(meta.outputs).find(([path]) => path.endsWith(`/${hook}.js`));
      expect(output, `${hook}.js in the build's metafile`).toBeDefined();
      const inputs = Object.keys(output![1].inputs);
      expect(
        inputs.filter((input) => heavy.test(input)),
        `hooks/${hook}.js`,
      ).toEqual([]);
    }
    const active = Object.entries(meta.outputs).find(([path]) => path.endsWith("/active/stop.js"));
    expect(Object.keys(active![1].inputs).some((input) => heavy.test(input))).toBe(true);
  });

  it("keep the companion module a presenter: no YAML, zod, gray-matter, pathe or reader of the state file", () => {
    // What module.mjs carries: the sidecar's schemas are built only by functions the module never calls.
    const inputs = Object.values(meta.module.outputs).flatMap((output) => Object.keys(output.inputs));
    expect(inputs).toContain("src/module/index.ts");
    expect(inputs).toContain("src/core/sidecar.ts");
    expect(
      inputs.filter((input) => /node_modules\/|src\/core\/(fields|parseState|frontmatter|loopFiles)\.ts/.test(input)),
    ).toEqual([]);
    // Nothing of its own either: esbuild's output as it comes, no injected module.
    expect(inputs.every((input) => input.startsWith("src/"))).toBe(true);
  });

  it("load their active bundle (hooks/active/) only when a loop concerns the event", () => {
    const idle = makeProject();
    const stop = { hook_event_name: "Stop", session_id: "s", cwd: idle.root, last_assistant_message: "x" };
    expect(loadedBundles("stop", stop)).toEqual({ status: 0, loaded: ["stop.js"] });
    const prompt = { hook_event_name: "UserPromptSubmit", session_id: "s", cwd: idle.root, prompt: "Fix it" };
    expect(loadedBundles("prompt", prompt)).toEqual({ status: 0, loaded: ["prompt.js"] });
    const compact = { hook_event_name: "SessionStart", source: "compact", session_id: "s", cwd: idle.root };
    expect(loadedBundles("session", compact)).toEqual({ status: 0, loaded: ["session.js"] });

    const active = makeProject("---\nmax_iterations: 5\n---\nGoal\n");
    const cwd = active.root;
    expect(loadedBundles("stop", { ...stop, cwd })).toEqual({ status: 2, loaded: ["active/stop.js", "stop.js"] });
    // An ordinary prompt while this session's loop runs, with nothing to pause or resume: idle too.
    expect(loadedBundles("prompt", { ...prompt, cwd })).toEqual({ status: 0, loaded: ["prompt.js"] });
    const status = { ...prompt, cwd, prompt: "/loop-status" };
    expect(loadedBundles("prompt", status)).toEqual({ status: 0, loaded: ["active/prompt.js", "prompt.js"] });
  });

  it("run from a copy outside the repo, with no node_modules and no package.json above", () => {
    const dir = mkdtempSync(join(tmpdir(), "cl-copy-"));
    cpSync(HOOKS, join(dir, "hooks"), { recursive: true });
    const project = join(dir, "project");
    mkdirSync(join(project, ".claude"), { recursive: true });
    writeFileSync(join(project, ".claude", "continuation-loop.local.md"), "---\nmax_iterations: 2\n---\nGoal\n");
    const run = spawnSync(NODE, [join(dir, "hooks", "stop.js")], {
      input: JSON.stringify({ session_id: "s", cwd: project, last_assistant_message: "x" }),
      encoding: "utf8",
      env: { PATH: process.env.PATH ?? "" },
    });
    expect(run.stderr).toContain("[SYSTEM REMINDER - CONTINUATION LOOP ACTIVE]");
    expect(run.status).toBe(2);
  });
});
