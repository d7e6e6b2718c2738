import * as z from "zod/mini";
import {
  durationUpTo,
  type FieldSpec,
  int,
  isDurationUpTo,
  isInt,
  isText,
  MAX_VERIFY_TIMEOUT_S,
  text,
} from "./fieldChecks.js";
import { parseMetricTarget } from "./metric.js";
import { isScopeValue } from "./scope.js";

/** The rows of improvement loops (README "Improvement loops"), spread into the field table (src/core/fields.ts). */
export const IMPROVEMENT_FIELDS = {
  metric: {
    type: "shell command, none",
    meaning:
      "run in the project root at every stop; its value is the last number it prints on stdout (`-3`, `0.91`, `1.5e-3`; thousands separators are refused). A failure, a timeout or no number is shown to Claude and is no improvement",
    example: 'metric: "npm run -s bench"',
    expected: "a shell command that prints a number",
    quick: isText,
    zod: text,
  },
  metric_target: {
    type: "`>= N` \\| `<= N` \\| `> N` \\| `< N`, none",
    meaning:
      "reached → the loop is complete, with or without the promise; not reached → the promise is refused. `>=`/`>`: higher is better, `<=`/`<`: lower (no target: higher)",
    example: 'metric_target: ">= 90"',
    expected:
      'a comparison of the metric with a number, quoted (YAML reads a leading > as a block): ">= 90", "<= 0.5", "> 0" or "< 200"',
    quick: (v) => parseMetricTarget(v) !== undefined,
    zod: () => z.string().check(z.refine((v) => parseMetricTarget(v) !== undefined)),
  },
  max_no_improvement: {
    type: "int 1–10000, none",
    meaning: "end (`no_improvement`) after this many consecutive stops whose metric did not beat the best so far",
    example: "max_no_improvement: 5",
    expected: "a whole number from 1 to 10000",
    quick: isInt(1, 10000),
    zod: int(1, 10000),
  },
  metric_timeout: {
    type: "duration up to `14m`, `5m`",
    meaning:
      "time limit for `metric` (a timeout gives no value); with `verify`, both fit inside the Stop hook's 15 minutes",
    example: "metric_timeout: 2m",
    expected: `a duration like 90s, 5m or a number of seconds, at most ${MAX_VERIFY_TIMEOUT_S / 60}m (the Stop hook's own timeout is 15m)`,
    quick: isDurationUpTo(MAX_VERIFY_TIMEOUT_S),
    zod: durationUpTo(MAX_VERIFY_TIMEOUT_S),
  },
  scope: {
    type: "path or list of paths in the project, none",
    meaning:
      "what the loop may change (a folder covers what is under it), in a git repository: a stop that finds a file changed outside it pauses the loop for you; `/loop-resume` accepts the tree as it stands",
    example: "scope: [src/parser, test/parser]",
    expected: "a path inside the project, or a list of them (no absolute paths, no .. out of it)",
    quick: isScopeValue,
    zod: () => z.union([z.string(), z.array(z.string())]).check(z.refine(isScopeValue)),
  },
  max_files_changed: {
    type: "int 1–100000, none",
    meaning: "most files one iteration may change, in a git repository; more pause the loop for you",
    example: "max_files_changed: 10",
    expected: "a whole number from 1 to 100000",
    quick: isInt(1, 100000),
    zod: int(1, 100000),
  },
} satisfies Record<string, FieldSpec>;
