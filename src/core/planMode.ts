// Plan mode (docs/REFERENCE.md "Plan mode"): Claude Code's `plan` permission mode lets Claude read and plan but
// not edit, and only the person leaves it. A loop does not drive Claude on there: it waits, uncounted, for a Stop
// outside plan mode. Pure.

/** Since when (ISO) the loop has waited for plan mode to end, as a clock time. */
const renderSince = (since: string): string => `${since.slice(11, 19)} UTC`;

/** The one line the person sees at the first Stop in plan mode. */
export function renderPlanHold(iteration: { n: number; max: number }): string {
  return `continuation-loop: the session is in plan mode, where Claude cannot edit, so the loop waits; iteration ${iteration.n}/${iteration.max} is not counted. Accept Claude's plan and the loop goes on when that turn ends; or leave plan mode with shift+tab and send a prompt.`;
}

/** Status's row for a loop waiting in plan mode. */
export function renderPlanWait(since: string): string {
  return `waiting for the session to leave plan mode (since ${renderSince(since)}): Claude cannot edit there; accept its plan, or shift+tab`;
}
