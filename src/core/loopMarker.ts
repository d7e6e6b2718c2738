/** The first words of every continuation prompt (docs/REFERENCE.md "What you see while a loop runs"). No imports: the prompt hook loads it. */
export const LOOP_MARKER = "[SYSTEM REMINDER - CONTINUATION LOOP ACTIVE]";

/**
 * A prompt the companion module submitted for the loop (docs/REFERENCE.md "The companion module"): the Stop hook's own
 * continuation text, so it begins with the marker. It is not a person's prompt: it never resumes a paused
 * loop, never answers Claude's question and gets no todo reminder.
 */
export function isLoopContinuation(prompt: string | undefined): boolean {
  return prompt !== undefined && prompt.startsWith(LOOP_MARKER);
}

/** The line before the module's id line that asks it to clear the context first (docs/REFERENCE.md "Fresh context"). */
export const FRESH_LINE = "[continuation-loop fresh context]\n";

/** The words after the marker that open the prompt the module sends when the loop goes on after an API error. */
export const API_RESUME_OPENING = `${LOOP_MARKER} The wait after an API error is over`;

/** That prompt (docs/REFERENCE.md "Going on after an API error"): recorded as the loop's resume, and refused when the loop no longer runs. */
export function isApiResume(prompt: string | undefined): boolean {
  return prompt !== undefined && prompt.startsWith(API_RESUME_OPENING);
}
