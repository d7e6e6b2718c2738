// A name typed that is none of the names a place knows (a state file's key, a command, an option) often is one
// of them mistyped; naming the one meant saves a trip to the docs. Pure.

/** Edits (insert, delete, replace, two neighbours swapped) from `a` to `b`, or `limit` once there are that many. */
function countEdits(a: string, b: string, limit: number): number {
  if (Math.abs(a.length - b.length) >= limit) return limit;
  let before: number[] = [];
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    for (let j = 1; j <= b.length; j++) {
      row[j] = Math.min(
        (previous[j] ?? 0) + 1,
        (row[j - 1] ?? 0) + 1,
        (previous[j - 1] ?? 0) + (a[i - 1] === b[j - 1] ? 0 : 1),
      );
      // `stauts` is `status` with two letters swapped: one slip of the fingers, not two.
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1])
        row[j] = Math.min(row[j] ?? 0, (before[j - 2] ?? 0) + 1);
    }
    [before, previous] = [previous, row];
  }
  return Math.min(previous[b.length] ?? limit, limit);
}

/** `maxCost`, `max-cost` and `MAX_COST` all read as `max_cost`. */
const normalize = (name: string) =>
  name
    .replace(/([a-z0-9])([A-Z])/g, "$1_$2")
    .toLowerCase()
    .replace(/-/g, "_");

/**
 * The one of `names` that `typed` reads like, or undefined: the same name in another spelling (`maxCost`,
 * `max-cost`), a letter or two off (`max_iteration`, `stauts`), or a name with more after it (`max_cost_usd`)
 * or the start of one (`notes` for `notes_file`).
 */
export function readMeantName<Name extends string>(typed: string, names: readonly Name[]): Name | undefined {
  const plain = normalize(typed);
  let meant: Name | undefined;
  // One edit for a short name, two for a longer one: `nope` is not `scope`.
  let fewest = plain.length <= 5 ? 2 : 3;
  for (const name of names) {
    const edits = countEdits(plain, normalize(name), fewest);
    if (edits < fewest) [meant, fewest] = [name, edits];
  }
  if (meant !== undefined || plain.length < 5) return meant;
  return names.find((name) => plain.startsWith(`${normalize(name)}_`) || normalize(name).startsWith(plain));
}
