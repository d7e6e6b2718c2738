/** The commands one Stop has run (`until`, `verify`, `metric`), by command: each is run once per Stop. */
export type CommandRuns = Map<string, unknown>;

/**
 * `run`'s result for `key`, run only the first time: a Stop that decides again after a user edit (the
 * state-file transaction) gathers its facts from the file as edited, and a command the edit left as it
 * was gives the same result without running twice.
 */
export function runOnce<T>(runs: CommandRuns, key: string, run: () => T): T {
  if (!runs.has(key)) runs.set(key, run());
  return runs.get(key) as T;
}
