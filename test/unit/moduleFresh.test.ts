// The companion module's fresh_context path with a stand-in for Claude Code's `$` (docs/REFERENCE.md "Fresh context"):
// a marked continuation is a real /clear and then the prompt, in that order and once each; a clear that
// fails still sends the prompt; a refused submit after the clear is sent again without a second clear; a
// clear and a submit both refused (the Stop still settling) are tried again together, the clear first.
import { beforeEach, describe, expect, it } from "vitest";
import { FRESH_LINE, LOOP_MARKER } from "../../src/core/protocol.js";
import { stopLine } from "../../src/module/continuation.js";
import type { ClassicStopResult } from "../../src/module/engine.js";
import { register } from "../../src/module/index.js";
import { makeModState, mod } from "../../src/module/state.js";

const PROMPT = `${LOOP_MARKER}\nContinuation loop: iteration 2/5, in a fresh context.\n\nGoal:\nShip it.\n`;
type Handler = (...args: unknown[]) => Promise<unknown>;

/** A stand-in for `$`: records calls in order; timers run when the test says so. */
function makeEngine(opts: { clear?: () => Promise<unknown>; submit?: (n: number) => Promise<unknown> } = {}) {
  const env = new Map<string, string | undefined>();
  const calls: string[] = [];
  const timers: (() => unknown)[] = [];
  let submits = 0;
  const $ = {
    env: { get: async (n: string) => env.get(n), set: async (n: string, v: string | undefined) => env.set(n, v) },
    fs: { read: async () => "", list: async () => [], stat: async () => ({ kind: "file", size: 0, mtimeMs: 0 }) },
    prompt: {
      submit: async ({ text }: { text: string }) => {
        calls.push(`submit ${text === PROMPT ? "PROMPT" : JSON.stringify(text)}`);
        submits += 1;
        return opts.submit ? opts.submit(submits) : undefined;
      },
    },
    command: {
      run: async ({ command }: { command: string }) => {
        calls.push(`run ${command}`);
        return opts.clear ? opts.clear() : {};
      },
      register: async () => undefined,
    },
    plugin: { root: "/p" },
    session: {
      id: async () => "s1",
      usage: async () => ({ cost: { usd: 0 } }),
      version: async () => ({ version: "2.1.331" }),
    },
    clock: { after: (_ms: number, fn: () => unknown) => timers.push(fn), every: () => undefined },
    ui: {
      toast: () => undefined,
      log: (t: string) => calls.push(`log ${t}`),
      invalidate: () => undefined,
      resolve: () => ({}),
    },
  };
  const runTimers = async () => {
    for (let round = 0; round < 10 && timers.length; round++) {
      for (const fn of timers.splice(0)) fn();
      await new Promise((r) => setTimeout(r, 0));
    }
  };
  return { $, env, calls, runTimers };
}

function loadModule() {
  const hooks = new Map<string, Handler>();
  register((event: string, ...rest: unknown[]) => {
    hooks.set(event, rest.at(-1) as Handler);
    return { catch: () => undefined };
  });
  return hooks;
}

async function stopWithContinuation(fresh: boolean, engine: ReturnType<typeof makeEngine>) {
  const hooks = loadModule();
  await hooks.get("session.start")!(engine.$, { cwd: "/p" }, async () => ({}));
  const next = async (): Promise<ClassicStopResult> => {
    const id = engine.env.get("CONTINUATION_LOOP_STOP_ID")!;
    return { additionalContext: [`${PROMPT}${fresh ? FRESH_LINE : ""}${stopLine(id)}\n`] };
  };
  const result = (await hooks.get("classic.Stop")!(engine.$, { session_id: "s1" }, next)) as ClassicStopResult;
  await engine.runTimers();
  return result;
}

beforeEach(() => {
  Object.assign(mod, makeModState());
});

describe("the module and a fresh_context continuation", () => {
  it("runs /clear, then sends the prompt without the marking line, once each; the continuation is taken", async () => {
    const engine = makeEngine();
    const result = await stopWithContinuation(true, engine);
    expect(result.additionalContext).toBeUndefined();
    expect(engine.calls).toEqual(["run clear", "submit PROMPT"]);
  });

  it("an ordinary continuation is sent with no clear", async () => {
    const engine = makeEngine();
    await stopWithContinuation(false, engine);
    expect(engine.calls).toEqual(["submit PROMPT"]);
  });

  it("a clear that fails still sends the prompt, with one line for the user", async () => {
    const engine = makeEngine({ clear: () => Promise.reject(new Error("refused")) });
    await stopWithContinuation(true, engine);
    // The prompt is queued right behind the clear (a `-p` session ends at a turn's end with nothing queued).
    expect(engine.calls).toEqual([
      "run clear",
      "submit PROMPT",
      expect.stringMatching(/^log the context could not be cleared \(refused\)/),
    ]);
  });

  it("a submit refused after the clear is sent again, without a second clear", async () => {
    const engine = makeEngine({ submit: (n) => (n === 1 ? Promise.reject(new Error("busy")) : Promise.resolve()) });
    await stopWithContinuation(true, engine);
    expect(engine.calls).toEqual(["run clear", "submit PROMPT", "submit PROMPT"]);
  });

  it("a clear and a submit both refused are tried again together, the clear first, with no line", async () => {
    let clears = 0;
    const engine = makeEngine({
      clear: () => (++clears === 1 ? Promise.reject(new Error("past a Stop")) : Promise.resolve({})),
      submit: (n) => (n === 1 ? Promise.reject(new Error("busy")) : Promise.resolve()),
    });
    await stopWithContinuation(true, engine);
    expect(engine.calls).toEqual(["run clear", "submit PROMPT", "run clear", "submit PROMPT"]);
  });
});
