// How the module gets the view of this session's loop (src/module/view.ts), against a stand-in for Claude
// Code's `$`: the sidecar's own when it was saved with the state file as it is, else one helper run per text
// of the state file, never two at once; a view it cannot use is never drawn.
import { beforeEach, describe, expect, it, vi } from "vitest";
import { renderLoopPaths } from "../../src/core/loopFileNames.js";
import { renderNodeNeeded } from "../../src/core/nodeSupport.js";
import type { Engine } from "../../src/module/engine.js";
import { renderSidecarFor } from "../support/loopSidecar.js";
import { memoryFs } from "../support/memoryFs.js";

const ROOT = "/p";
const PATHS = renderLoopPaths(`${ROOT}/.claude/`, "default");
const STARTED = "2026-11-24T01:00:00.000Z";
const state = (count = 2, max = 10) =>
  `---\nactive: true\niteration_count: ${count}\nmax_iterations: ${max}\nsession_id: s1\nstarted_at: "${STARTED}"\n---\n\nWrite the summary.\n`;
/** The sidecar a writer saves with the state file's text `text`, its bookkeeping at `tokens`. */
const sidecar = (tokens: number, text = state()) =>
  renderSidecarFor(text, JSON.stringify({ loop: { started_at: STARTED, session_id: "s1" }, output_tokens: tokens }));

describe("the module's view of this session's loop", () => {
  let files: Map<string, string>;
  let runs: string[][];
  /** Every path the module read, in order. */
  let reads: string[];
  /** A read of this path answers with the file as it was asked for, once `release` is called. */
  let held: { path: string; release?: () => void } | undefined;
  let answer: (argv: readonly string[]) => Promise<{ exitCode: number; stdout: string; stderr: string }>;
  /** The toasts the module showed. */
  let toasts: string[];
  let view: typeof import("../../src/module/view.js");
  let state_: typeof import("../../src/module/state.js");

  /** The helper's answer for the files in memory: the sidecar the hooks would save for them. */
  const helper = async (argv: readonly string[]) => {
    const text = files.get(PATHS.statePath);
    try {
      if (text === undefined) throw new Error("no such loop file");
      return { exitCode: 0, stdout: renderSidecarFor(text, files.get(PATHS.sidecarPath)), stderr: "" };
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
        const answer = memoryFs(() => files).read(path);
        if (held?.path !== path) return answer;
        const hold = held;
        return new Promise((done) => (hold.release = () => done(answer)));
      },
    },
    session: { id: async () => "s1" },
    clock: { after: () => ({ cancel: () => undefined }), every: () => undefined },
    ui: { toast: (text: string) => toasts.push(text), invalidate: () => undefined },
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
      invalid: undefined,
    });
    files = new Map([
      [PATHS.statePath, state()],
      [PATHS.sidecarPath, sidecar(10)],
    ]);
    runs = [];
    reads = [];
    toasts = [];
    held = undefined;
    answer = helper;
  });

  it("draws the sidecar's view when it was saved with the state file as it is: no process", async () => {
    await refresh();
    expect(state_.mod.view?.runtime.output_tokens).toBe(10);
    expect(state_.mod.view?.name).toBe("default");
    expect(runs).toEqual([]);
  });

  it("follows every writer's save with no process: a Stop, a cost figure, a pause, a new loop", async () => {
    await refresh();
    for (const [text, tokens] of [
      [state(3), 10],
      [state(3), 25],
      [state(3).replace("active: true", "active: false"), 25],
      [state(1, 4), 0],
    ] as const) {
      files.set(PATHS.statePath, text);
      files.set(PATHS.sidecarPath, sidecar(tokens, text));
      await refresh();
      expect(state_.mod.view?.runtime.output_tokens).toBe(tokens);
      expect(state_.mod.view?.state).toMatchObject({ active: text.includes("active: true") });
    }
    expect(state_.mod.view?.state.max_iterations).toBe(4);
    expect(runs).toEqual([]);
  });

  it("runs the helper once for a hand edit, then keeps its view for that text", async () => {
    files.set(PATHS.statePath, state(2, 25));
    await refresh();
    expect(state_.mod.view?.state.max_iterations).toBe(25);
    expect(runs).toEqual([["node", "/plugin/hooks/cli.js", "view", "--name", "default"]]);
    await refresh();
    await refresh();
    expect(runs).toHaveLength(1);
    // The next save of the sidecar carries the edit: the sidecar's view again.
    files.set(PATHS.sidecarPath, sidecar(40, state(2, 25)));
    await refresh();
    expect(state_.mod.view?.runtime.output_tokens).toBe(40);
    expect(runs).toHaveLength(1);
  });

  it("runs the helper once for a loop as found: no sidecar yet, or one an older version saved", async () => {
    files.delete(PATHS.sidecarPath);
    await refresh();
    expect(state_.mod.view?.state.iteration_count).toBe(2);
    const older = JSON.stringify({ loop: { started_at: STARTED, session_id: "s1" }, output_tokens: 7 });
    files.set(PATHS.statePath, state(3));
    files.set(PATHS.sidecarPath, older);
    await refresh();
    expect(state_.mod.view?.runtime.output_tokens).toBe(7);
    expect(runs).toHaveLength(2);
  });

  it("never uses a torn sidecar; files the helper refuses get no view, only their name as invalid, asking once", async () => {
    files.set(PATHS.sidecarPath, sidecar(10).slice(0, 50));
    files.set(PATHS.statePath, state().replace("max_iterations: 10", "max_iterations: ["));
    answer = async () => ({ exitCode: 1, stdout: "", stderr: "continuation-loop: bad YAML" });
    await refresh();
    expect(state_.mod.view).toBeUndefined();
    expect(state_.mod.invalid).toBe("default");
    await refresh();
    expect(runs).toHaveLength(1);
  });

  it("a hand edit that breaks the state file shows it as invalid, not ended; fixed, the loop shows again", async () => {
    await refresh();
    expect(state_.mod.view?.state.max_iterations).toBe(10);
    const broken = state().replace("max_iterations: 10", "max_iterations: ten");
    files.set(PATHS.statePath, broken);
    answer = async () => ({ exitCode: 1, stdout: "", stderr: "continuation-loop: max_iterations: invalid value" });
    await refresh();
    expect(state_.mod.view).toBeUndefined();
    expect(state_.mod.invalid).toBe("default");
    expect(toasts).toEqual([]);
    // Once per text: the next reads ask no more.
    await refresh();
    expect(runs).toHaveLength(1);
    expect(state_.mod.invalid).toBe("default");
    answer = helper;
    files.set(PATHS.statePath, state(2, 12));
    await refresh();
    expect(state_.mod.view?.state.max_iterations).toBe(12);
    expect(state_.mod.invalid).toBeUndefined();
    expect(toasts).toEqual([]);
  });

  it("an editor's save caught with the file moved away, emptied or cut inside its frontmatter is no end: the view stays, and is read again", async () => {
    const timers: (() => void)[] = [];
    const after = $.clock.after;
    $.clock.after = ((_ms: number, fn: () => void) => {
      timers.push(fn);
      return { cancel: () => undefined };
    }) as typeof after;
    let now = Date.parse("2026-11-24T02:00:00.000Z");
    const clock = vi.spyOn(Date, "now").mockImplementation(() => now);
    try {
      await refresh();
      const cut = state().slice(0, state().indexOf("session_id"));
      for (const caught of [undefined, "", cut]) {
        // Emacs' backup or vim's backupcopy=no moves the old file away; a `>` redirect empties it first; a save
        // in two writes is caught after the first, inside the frontmatter.
        const shown = state_.mod.view?.state.max_iterations;
        if (caught === undefined) files.delete(PATHS.statePath);
        else files.set(PATHS.statePath, caught);
        await refresh();
        expect(state_.mod.view?.state.max_iterations).toBe(shown);
        expect(toasts).toEqual([]);
        expect(timers).toHaveLength(1);
        // The new text lands: the scheduled read finds the loop as edited.
        const max = caught === undefined ? 25 : caught === "" ? 30 : 35;
        files.set(PATHS.statePath, state(2, max));
        now += 100;
        timers.shift()?.();
        await vi.waitFor(() => expect(state_.mod.view?.state.max_iterations).toBe(max));
        expect(toasts).toEqual([]);
      }
      // A file that stays away longer than an editor's save takes is gone: the loop ended.
      files.delete(PATHS.statePath);
      await refresh();
      expect(toasts).toEqual([]);
      now += 1_500;
      timers.shift()?.();
      await vi.waitFor(() => expect(toasts).toEqual(["continuation-loop: loop ended"]));
      expect(state_.mod.view).toBeUndefined();
    } finally {
      clock.mockRestore();
      $.clock.after = after;
    }
  });

  it("an invalid state file that goes away ends the loop with its toast", async () => {
    await refresh();
    files.set(PATHS.statePath, state().replace("active: true", "active: maybe"));
    answer = async () => ({ exitCode: 1, stdout: "", stderr: "continuation-loop: active: invalid value" });
    await refresh();
    expect(state_.mod.invalid).toBe("default");
    files.delete(PATHS.statePath);
    files.delete(PATHS.sidecarPath);
    await refresh();
    expect(state_.mod.invalid).toBeUndefined();
    expect(toasts).toEqual(["continuation-loop: loop ended"]);
  });

  it("tells the loop's own end, though another session's loop wrote to the history after it", async () => {
    await refresh();
    const record = (stateFile: string, decision: string, reason: string) =>
      JSON.stringify({
        time: "2026-03-01T12:00:00.000Z",
        state_file: stateFile,
        session: "s",
        iteration: 3,
        decision,
        reason,
      });
    files.set(
      `${ROOT}/.claude/continuation-loop.history.jsonl`,
      [
        record(".claude/continuation-loop.local.md", "end", "completed"),
        record(".claude/continuation-loop.docs.local.md", "end", "max_iterations"),
        record(".claude/continuation-loop.other.local.md", "continue", "continue"),
      ].join("\n"),
    );
    files.delete(PATHS.statePath);
    files.delete(PATHS.sidecarPath);
    await refresh();
    expect(toasts).toEqual(["continuation-loop: loop completed"]);
  });

  it("a loop another session took over is told as taken over, not ended", async () => {
    await refresh();
    const taken = state().replace("session_id: s1", "session_id: s2");
    files.set(PATHS.statePath, taken);
    files.set(
      `${ROOT}/.claude/continuation-loop.history.jsonl`,
      `${JSON.stringify({ time: "2026-03-01T12:00:00.000Z", state_file: ".claude/continuation-loop.local.md", session: "s2-other-session", iteration: 2, decision: "resume", reason: "taken over" })}\n`,
    );
    await refresh();
    expect(state_.mod.view).toBeUndefined();
    expect(toasts).toEqual(["continuation-loop: loop taken over by session s2-other"]);
  });

  it("a refusal of files that moved on while the helper ran is not taken for an invalid file", async () => {
    await refresh();
    files.set(PATHS.statePath, state(3));
    // The loop ends while the helper runs: it finds no state file.
    answer = async () => {
      files.delete(PATHS.statePath);
      files.delete(PATHS.sidecarPath);
      return { exitCode: 1, stdout: "", stderr: "continuation-loop: there is no such loop file" };
    };
    await refresh();
    expect(state_.mod.invalid).toBeUndefined();
    expect(state_.mod.view).toBeUndefined();
    expect(toasts).toEqual(["continuation-loop: loop ended"]);
  });

  it("keeps what it showed when the helper could not run, and asks again at the next read", async () => {
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
    await refresh();
    expect(state_.mod.view?.state.iteration_count).toBe(2);
    files.set(PATHS.statePath, state(3));
    let release: () => void = () => undefined;
    answer = (argv) => new Promise((done) => (release = () => done(helper(argv))));
    const first = refresh();
    await vi.waitFor(() => expect(runs).toHaveLength(1));
    files.set(PATHS.statePath, state(4));
    // A second read while the run is in flight: it finds the sidecar's view stale, and waits for the run.
    const sidecarReads = () => reads.filter((path) => path === PATHS.sidecarPath).length;
    const before = sidecarReads();
    let secondDone = false;
    const second = refresh().then(() => {
      secondDone = true;
    });
    await vi.waitFor(() => expect(sidecarReads()).toBe(before + 1));
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

  it("a read that ends after a later one never brings back the loop the later one found gone", async () => {
    await refresh();
    expect(state_.mod.view?.state.iteration_count).toBe(2);
    // The first read has the state file's text; its sidecar's read is held up (a loaded machine).
    held = { path: PATHS.sidecarPath };
    const first = refresh();
    await vi.waitFor(() => expect(held?.release).toBeDefined());
    held.path = "";
    // Meanwhile the loop ends, and a later read finds it gone.
    files.delete(PATHS.statePath);
    files.delete(PATHS.sidecarPath);
    await refresh();
    expect(state_.mod.view).toBeUndefined();
    held.release?.();
    await first;
    expect(state_.mod.view).toBeUndefined();
    expect(runs).toEqual([]);
  });
});
