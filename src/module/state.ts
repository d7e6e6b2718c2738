// What the module knows, kept in memory between events (docs/REFERENCE.md "The companion module").
import type { LoopView } from "../core/sidecar.js";

/** This session's loop as the module shows it: the hooks' view of it (src/core/sidecar.ts) and its name. */
export type ShownLoop = LoopView & { name: string };

/** What the module knows when it loads, before any event: each test starts from it too. */
export function makeModState() {
  return {
    ready: false,
    fault: "",
    root: "",
    /** The Claude Code version the module runs in. */
    version: "",
    /** A person at a terminal (not `-p` or the SDK): only there does an answer fit a width. */
    interactive: false,
    sessionId: undefined as string | undefined,
    view: undefined as ShownLoop | undefined,
    /**
     * The name of this session's loop whose state file the helper refused (a hand edit broke it): the loop is
     * paused until the file is fixed, not ended. Undefined while `view` holds the loop, or there is none.
     */
    invalid: undefined as string | undefined,
    lastRead: 0,
    /** When a read first found this session's state file moved away or emptied by an editor's save (ms). */
    savingSince: undefined as number | undefined,
    /** A read is already due at the end of this second. */
    deferred: false,
    /** A `/rewind` ran since the last continuation entered: the next one gives Claude the loop again. */
    rewound: false,
    /** The continuation the Stop hook asked for, until it is sent (exactly once). */
    pending: undefined as string | undefined,
    /**
     * The hold for background work (its `since`) whose next turn was interrupted (Esc): no Stop comes to decide
     * again, so the loop waits for the person, whose next prompt pauses it; the band no longer says it waits for
     * the tasks, and the session is not woken for it.
     */
    interruptedHold: undefined as string | undefined,
    /** The main loop's running turn, which /loop-stop and /loop-pause end. */
    turnId: undefined as string | undefined,
    /**
     * When this module went on after an API error (ISO time): Claude Code's own automatic continue after a usage
     * limit, armed for the same limit, would be a second turn (src/module/resume.ts).
     */
    wentOnAt: undefined as string | undefined,
    /** Every wait this module armed, by its `api_wait_until`: one it went on from or cancelled is never armed again. */
    waitsArmed: new Set<string>(),
    /** The one line once a run showed that no usable `node` is on PATH (nodeProblem.ts): node is not run again. */
    nodeProblem: undefined as string | undefined,
  };
}

/** What the module knows, in memory: drawing reads only this. */
export const mod = makeModState();

/** Throws at one step when a test asks for it (CONTINUATION_LOOP_MODULE_FAULT=load|stop|turn|draw|clear;
 * send-in-stop is not a throw: index.ts sends inside the Stop, where Claude Code refuses it). */
export function injectFault(step: string): void {
  if (mod.fault === step) throw new Error(`continuation-loop: fault injected at ${step}`);
}
