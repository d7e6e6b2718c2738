import type { LoopState } from "./parseState.js";
import type { Runtime } from "./sidecar.js";

const VIEW_VERSION = 1;

/**
 * What the companion module's band shows of one loop (docs/REFERENCE.md "Files the loop keeps"): the hooks'
 * own parse of the state file and sidecar, kept beside them so the module needs no reader of its own.
 * Derived and disposable: it holds the exact texts it was made from, and a view whose texts are not
 * the files' is not used.
 */
export interface LoopView {
  /** The record's format: a view of another version is not used. */
  version: typeof VIEW_VERSION;
  /** The state file's text the view was made from. */
  state_text: string;
  /** The sidecar's text the view was made from, "" when there was none. */
  sidecar_text: string;
  /** `default`, or the NAME of `continuation-loop.NAME.local.md`. */
  name: string;
  state: LoopState;
  runtime: Runtime;
  /** `k/n` boxes of the checklist checked, when the loop has one and it reads. */
  checklist?: string;
}

export type LoopViewFacts = Omit<LoopView, "version">;

/** `k/n`: the checklist's boxes checked, of all. */
export function renderChecklistCount(list: { done: number; total: number }): string {
  return `${list.done}/${list.total}`;
}

/** The view file's text. */
export function renderLoopView(facts: LoopViewFacts): string {
  const view: LoopView = { version: VIEW_VERSION, ...facts };
  return `${JSON.stringify(view)}\n`;
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);

/** A view file's text → the view, or undefined when it is torn, another version's or not a view. Never throws. */
export function parseLoopView(text: string): LoopView | undefined {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (!isObject(raw) || raw.version !== VIEW_VERSION) return undefined;
  const { state, runtime } = raw;
  const fits =
    typeof raw.state_text === "string" &&
    typeof raw.sidecar_text === "string" &&
    typeof raw.name === "string" &&
    (raw.checklist === undefined || typeof raw.checklist === "string") &&
    isObject(state) &&
    typeof state.active === "boolean" &&
    typeof state.iteration_count === "number" &&
    typeof state.max_iterations === "number" &&
    isObject(runtime) &&
    typeof runtime.output_tokens === "number";
  return fits ? (raw as unknown as LoopView) : undefined;
}

/** The key a view is found by: the two texts it was made from. */
export function keyOfTexts(stateText: string, sidecarText: string | undefined): string {
  return `${stateText}\u0000${sidecarText ?? ""}`;
}
