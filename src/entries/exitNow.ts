/**
 * Ends a hook's process once its answer is written (every write here is synchronous). With no
 * 'exit' listener waiting (the code cache saves itself on one), through the step process.exit()
 * ends with, `process.reallyExit`: Node then skips tearing down a process that is about to end,
 * 0.3–0.7 ms of every hook run (README "Performance"). Otherwise, and where Node lacks it,
 * process.exit().
 */
// biome-ignore format: the parentheses make V8 compile it with the script, not at first call (docs/ARCHITECTURE.md)
export const exitNow = (function exitNow(code: number): void {
  const reallyExit = (process as unknown as { reallyExit?: (code: number) => void }).reallyExit;
  if (typeof reallyExit === "function" && process.listenerCount("exit") === 0) reallyExit.call(process, code);
  process.exit(code);
});
