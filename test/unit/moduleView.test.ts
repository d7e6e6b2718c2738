// The band's view (src/core/loopView.ts) and how the module gets it (src/module/view.ts), against a stand-in
// for Claude Code's `$`: the Stop hook's view when it was made from the files as they are, else one helper
// run per distinct pair of texts, never two at once; a view it cannot use is never drawn.
import fc from "fast-check";
import { beforeEach, describe, expect, it, vi } from "vitest";
import { composeLoopView } from "../../src/core/composeLoopView.js";
import { renderLoopPaths } from "../../src/core/loopFileNames.js";
import { keyOfTexts, parseLoopView, renderLoopView } from "../../src/core/loopView.js";
import { renderNodeNeeded } from "../../src/core/nodeSupport.js";
import type { Engine } from "../../src/module/engine.js";
import { memoryFs } from "../support/memoryFs.js";

const ROOT = "/p";
const PATHS = renderLoopPaths(`${ROOT}/.claude/`, "default");
const STARTED = "2026-11-24T01:00:00.000Z";
const state = (count = 2, max = 10) =>
  `---\nactive: true\niteration_count: ${count}\nmax_iterations: ${max}\nsession_id: s1\nstarted_at: "${STARTED}"\n---\n\nWrite the summary.\n`;
const sidecar = (tokens: number) =>
  `${JSON.stringify({ loop: { started_at: STARTED, session_id: "s1" }, output_tokens: tokens }, null, 2)}\n`;
const noChecklist = () => {
  throw new Error("no checklist");
};
/** What the Stop hook (or the helper) makes of these texts. */
const viewOf = (stateText: string, sidecarText: string | undefined) =>
  renderLoopView(composeLoopView("default", "x", stateText, sidecarText, noChecklist));

describe("the view record", () => {
  it("reads back what it wrote, with the texts it was made from", () => {
    const text = viewOf(state(), sidecar(42));
    const view = parseLoopView(text);
    expect(view?.state_text).toBe(state());
    expect(view?.sidecar_text).toBe(sidecar(42));
    expect(view?.state.iteration_count).toBe(2);
    expect(view?.runtime.output_tokens).toBe(42);
    expect(keyOfTexts(view!.state_text, view!.sidecar_text)).toBe(keyOfTexts(state(), sidecar(42)));
    expect(keyOfTexts(state(), undefined)).toBe(keyOfTexts(state(), ""));
  });

  it("counts the checklist's boxes, and leaves them out when the checklist does not read", () => {
    const withList = state().replace("session_id", "checklist: TODO.md\nsession_id");
    expect(
      parseLoopView(renderLoopView(composeLoopView("d", "x", withList, undefined, () => "- [x] a\n- [ ] b\n"))),
    ).toMatchObject({ checklist: "1/2" });
    expect(
      parseLoopView(renderLoopView(composeLoopView("d", "x", withList, undefined, noChecklist)))?.checklist,
    ).toBeUndefined();
  });

  it("ignores a view it cannot use: torn, another version's, or not a view", () => {
    const good = JSON.parse(viewOf(state(), undefined)) as Record<string, unknown>;
    const bad = [
      "",
      viewOf(state(), undefined).slice(0, 40),
      "[]",
      "null",
      JSON.stringify({ ...good, version: 2 }),
      JSON.stringify({ ...good, state_text: 3 }),
      JSON.stringify({ ...good, state: { ...(good.state as object), iteration_count: "2" } }),
      JSON.stringify({ ...good, runtime: null }),
      JSON.stringify({ ...good, checklist: 1 }),
    ];
    for (const text of bad) expect(parseLoopView(text), text).toBeUndefined();
    fc.assert(fc.property(fc.string(), (text) => parseLoopView(text) === undefined || text.includes("version")));
  });
});

describe("the module's view of this session's loop", () => {
  let files: Map<string, string>;
  let runs: string[][];
  /** Every path the module read, in order. */
  let reads: string[];
  let answer: (argv: readonly string[]) => Promise<{ exitCode: number; stdout: string; stderr: string }>;
  let view: typeof import("../../src/module/view.js");
  let state_: typeof import("../../src/module/state.js");

  /** The real helper's answer for the files in memory. */
  const helper = async (argv: readonly string[]) => {
    const text = files.get(PATHS.statePath);
    try {
      if (text === undefined) throw new Error("no such loop file");
      return { exitCode: 0, stdout: viewOf(text, files.get(PATHS.sidecarPath)), stderr: "" };
    } catch (error) {
      return { exitCode: 1, stdout: "", stderr: `continuation-loop: ${String(error)} ${argv.join(" ")}` };
    }
  };

  const $ = {
    plugin: { root: "/plugin" },
    process: {
      run: (argv: readonly string[]) => {
        runs.push([...argv]);
        return answer(argv);
      },
    },
    fs: {
      ...memoryFs(() => files),
      read: (path: string) => {
        reads.push(path);
        return memoryFs(() => files).read(path);
      },
    },
    session: { id: async () => "s1" },
    clock: { after: () => ({ cancel: () => undefined }), every: () => undefined },
    ui: { toast: () => undefined, invalidate: () => undefined },
  } as unknown as Engine;

  const refresh = () => view.refreshView($, true);

  beforeEach(async () => {
    vi.resetModules();
    view = await import("../../src/module/view.js");
    state_ = await import("../../src/module/state.js");
    Object.assign(state_.mod, {
      ready: true,
      root: ROOT,
      view: undefined,
      lastRead: 0,
      deferred: false,
      nodeProblem: undefined,
    });
    files = new Map([
      [PATHS.statePath, state()],
      [PATHS.sidecarPath, sidecar(10)],
    ]);
    runs = [];
    reads = [];
    answer = helper;
  });

  it("draws the Stop hook's view when it was made from the files as they are: no process", async () => {
    files.set(PATHS.viewPath, viewOf(state(), sidecar(10)));
    await refresh();
    expect(state_.mod.view?.runtime.output_tokens).toBe(10);
    expect(runs).toEqual([]);
  });

  it("runs the helper once for a hand edit, then keeps its view for that text", async () => {
    files.set(PATHS.viewPath, viewOf(state(), sidecar(10)));
    files.set(PATHS.statePath, state(2, 25));
    await refresh();
    expect(state_.mod.view?.state.max_iterations).toBe(25);
    expect(runs).toEqual([["node", "/plugin/hooks/cli.js", "view", "--name", "default"]]);
    await refresh();
    await refresh();
    expect(runs).toHaveLength(1);
  });

  it("sees a change of the sidecar alone (a cost figure, an API error) through the helper", async () => {
    files.set(PATHS.viewPath, viewOf(state(), sidecar(10)));
    files.set(PATHS.sidecarPath, sidecar(99));
    await refresh();
    expect(state_.mod.view?.runtime.output_tokens).toBe(99);
    expect(runs).toHaveLength(1);
  });

  it("never uses a torn view, and shows nothing when the helper cannot make one, asking once", async () => {
    files.set(PATHS.viewPath, viewOf(state(), sidecar(10)).slice(0, 50));
    files.set(PATHS.statePath, state().replace("max_iterations: 10", "max_iterations: ["));
    answer = async () => ({ exitCode: 1, stdout: "", stderr: "continuation-loop: bad YAML" });
    await refresh();
    expect(state_.mod.view).toBeUndefined();
    await refresh();
    expect(runs).toHaveLength(1);
  });

  it("keeps what it showed when the helper could not run, and asks again at the next read", async () => {
    files.set(PATHS.viewPath, viewOf(state(), sidecar(10)));
    await refresh();
    expect(state_.mod.view?.state.max_iterations).toBe(10);
    files.set(PATHS.statePath, state(2, 25));
    answer = async () => {
      throw new Error("timed out");
    };
    await refresh();
    expect(state_.mod.view?.state.max_iterations).toBe(10);
    answer = helper;
    await refresh();
    expect(state_.mod.view?.state.max_iterations).toBe(25);
    expect(runs).toHaveLength(2);
  });

  it("with no node on PATH, starts it once: what it knew stands, and no later read runs it again", async () => {
    files.set(PATHS.viewPath, viewOf(state(), sidecar(10)));
    await refresh();
    expect(state_.mod.view?.state.max_iterations).toBe(10);
    // What Claude Code 2.1.332's $.process.run throws when the program is not on PATH (measured).
    answer = async () => {
      throw new Error(
        'continuation-loop: $.process.run(node) failed to start: ENOENT: Executable not found in $PATH: "node"',
      );
    };
    for (const max of [25, 30, 35]) {
      files.set(PATHS.statePath, state(2, max));
      await refresh();
    }
    expect(runs).toHaveLength(1);
    expect(state_.mod.view?.state.max_iterations).toBe(10);
    expect(state_.mod.nodeProblem).toBe(renderNodeNeeded());
  });

  it("with a node too old on PATH (the helper prints the line), runs it no more either", async () => {
    files.set(PATHS.statePath, state(2, 25));
    answer = async () => ({ exitCode: 1, stdout: "", stderr: `${renderNodeNeeded("18.19.0")}\n` });
    await refresh();
    files.set(PATHS.statePath, state(2, 30));
    await refresh();
    expect(runs).toHaveLength(1);
    expect(state_.mod.view).toBeUndefined();
    expect(state_.mod.nodeProblem).toBe(renderNodeNeeded("18.19.0"));
  });

  it("never has two helper runs in flight, and a read meanwhile waits for the run instead of keeping an old view", async () => {
    files.set(PATHS.viewPath, viewOf(state(), sidecar(10)));
    await refresh();
    expect(state_.mod.view?.state.iteration_count).toBe(2);
    files.set(PATHS.statePath, state(3));
    let release: () => void = () => undefined;
    answer = (argv) => new Promise((done) => (release = () => done(helper(argv))));
    const first = refresh();
    await vi.waitFor(() => expect(runs).toHaveLength(1));
    files.set(PATHS.statePath, state(4));
    // A second read while the run is in flight: it finds the Stop's view stale, and waits for the run.
    const viewReads = () => reads.filter((path) => path === PATHS.viewPath).length;
    const before = viewReads();
    let secondDone = false;
    const second = refresh().then(() => {
      secondDone = true;
    });
    await vi.waitFor(() => expect(viewReads()).toBe(before + 1));
    expect(secondDone).toBe(false);
    release();
    await second;
    expect(state_.mod.view?.state.iteration_count).toBe(4);
    await first;
    // The helper read the files as they were when it ran: that view serves the newer text too, so the
    // read that waited for it needed no run of its own.
    expect(runs).toHaveLength(1);
    await refresh();
    expect(runs).toHaveLength(1);
  });

  it("a read after a run in flight whose files moved on runs the helper again, after it", async () => {
    files.set(PATHS.statePath, state(3));
    const releases: (() => void)[] = [];
    answer = (argv) => new Promise((done) => releases.push(() => done(helper(argv))));
    const first = refresh();
    await vi.waitFor(() => expect(runs).toHaveLength(1));
    releases[0]?.();
    files.set(PATHS.statePath, state(5)); // after the helper read the files
    const second = refresh();
    await first;
    await vi.waitFor(() => expect(runs).toHaveLength(2));
    releases[1]?.();
    await second;
    expect(state_.mod.view?.state.iteration_count).toBe(5);
  });
});
