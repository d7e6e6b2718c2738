// `fresh_context` (docs/REFERENCE.md "Fresh context"): each continuation goes into a cleared context, which only the
// companion module can make. Without it, /loop-start refuses the flag, doctor says why, and a loop whose
// file sets the field is told once and keeps its context.
import { LoopError } from "../core/errors.js";
import type { Env } from "../core/loopFiles.js";
import type { LoopState } from "../core/parseState.js";
import type { Runtime } from "../core/sidecar.js";
import { INSTALL_ROUTE_NO_MODULE, readModuleLive } from "./moduleBridge.js";

/** Why the field cannot be honoured in this session, in the words every refusal uses. */
const MODULE_NOT_LIVE =
  "needs the companion module, which is not live in this session: it runs inside Claude Code 2.1.287 or later, unless CONTINUATION_LOOP_MODULE=0, --safe-mode or a policy turns it off";
const NEEDS_MODULE = `fresh_context ${MODULE_NOT_LIVE}`;
/** On the install route the module never loads, in a session or from a terminal. */
const INSTALL_ROUTE = `needs the companion module, which ${INSTALL_ROUTE_NO_MODULE}`;

/**
 * `/loop-start --fresh-context` where the module is not live in the session, or never loads (`installRoute`, the
 * project runs the installed hooks): refused before any file is written.
 */
export function refuseFreshWithoutModule(state: LoopState, env: Env, shown: string, installRoute: boolean): void {
  if (!state.fresh_context || readModuleLive(env)) return;
  if (installRoute)
    throw new LoopError("USAGE", INSTALL_ROUTE, {
      file: shown,
      field: "fresh_context",
      expected:
        "no --fresh-context (the loop then keeps one context), or the plugin route (continuation-loop uninstall, then claude --plugin-dir or the marketplace)",
    });
  // Outside Claude Code (the helper run from a terminal) nobody can tell yet: the loop's first Stop does.
  if (env.CLAUDECODE !== "1") return;
  throw new LoopError("USAGE", MODULE_NOT_LIVE, {
    file: shown,
    field: "fresh_context",
    expected: "no --fresh-context in this session (the loop then keeps one context), or the module live",
  });
}

export interface FreshDecision {
  /** The continuation goes into a cleared context: the full prompt, marked for the module. */
  fresh: boolean;
  /** One line for the user, the first time the field cannot be honoured. */
  notice?: string;
  runtime: Runtime;
}

/**
 * How this Stop's continuation goes: into a cleared context when the module is live, else (told once) as before.
 * `readInstallRoute`: is this Stop on the install route, where the module never loads? Asked only to tell why.
 */
export function decideFresh(
  state: LoopState,
  runtime: Runtime,
  env: Env,
  readInstallRoute: () => boolean,
): FreshDecision {
  if (!state.fresh_context) return { fresh: false, runtime };
  if (readModuleLive(env)) return { fresh: true, runtime };
  if (runtime.fresh_context_told) return { fresh: false, runtime };
  const why = readInstallRoute() ? `fresh_context ${INSTALL_ROUTE}` : NEEDS_MODULE;
  return {
    fresh: false,
    notice: `continuation-loop: ${why}; this loop goes on in its current context.`,
    runtime: { ...runtime, fresh_context_told: true },
  };
}

/** doctor's line for a loop that sets the field (`installRoute`: the project runs the installed hooks). */
export function checkFreshContext(
  state: LoopState,
  env: Env,
  cli: string,
  installRoute: boolean,
): { level: "ok" | "warn"; text: string }[] {
  if (!state.fresh_context) return [];
  if (readModuleLive(env))
    return [
      { level: "ok", text: "fresh_context: each continuation clears the context first (the companion module is live)" },
    ];
  const inSession = env.CLAUDECODE === "1";
  const where = installRoute
    ? `fresh_context ${INSTALL_ROUTE}`
    : inSession
      ? NEEDS_MODULE
      : `fresh_context needs the companion module, which runs inside Claude Code 2.1.287 or later (run \`!${cli} doctor\` there to see whether it is live)`;
  return [{ level: "warn", text: `${where}; without it the loop keeps one context` }];
}
