import { describe, expect, it } from "vitest";
import {
  type CheckpointRecord,
  parseCheckpointList,
  renderCheckpointMessage,
  renderCheckpointRef,
  renderIterations,
  selectLoopCheckpoints,
  selectWorktreeCheckpoints,
} from "../../src/core/checkpointRefs.js";
import { LoopError } from "../../src/core/errors.js";

const C = "a".repeat(40);
const T = "b".repeat(40);
const record = (ref: string, body = "Files-Changed: 2\n", time = "1767323045") =>
  `${ref}\0${C}\0${T}\0${time}\0${body}\0\n`;

describe("renderCheckpointRef", () => {
  it.each([
    ["default", 1, "refs/continuation-loop/default/1"],
    ["my-task", 12, "refs/continuation-loop/my-task/12"],
  ])("%s %d", (loop, iteration, expected) => {
    expect(renderCheckpointRef(loop, iteration)).toBe(expected);
  });

  it.each([
    ["wt-1", "refs/continuation-loop-worktree/wt-1/default/1"],
    ["auth.fix_2", "refs/continuation-loop-worktree/auth.fix_2/default/1"],
  ])("in the linked worktree %s", (worktree, expected) => {
    expect(renderCheckpointRef("default", 1, worktree)).toBe(expected);
  });

  it.each(["my tree", "a..b", "x.lock", ".hidden", "wt:1", "ä"])(
    "spells the worktree id %j, no valid ref name part, by its hash",
    (worktree) => {
      expect(renderCheckpointRef("default", 1, worktree)).toMatch(
        /^refs\/continuation-loop-worktree\/id-[0-9a-f]{8}\/default\/1$/,
      );
    },
  );

  it.each([
    ["a/b", 1],
    ["-x", 1],
    ["UPPER", 1],
    ["", 1],
    ["x".repeat(41), 1],
    ["default", 0],
    ["default", -1],
    ["default", 2.5],
    ["default", Number.NaN],
  ])("refuses loop %j iteration %d", (loop, iteration) => {
    expect(() => renderCheckpointRef(loop, iteration)).toThrow(LoopError);
  });
});

describe("parseCheckpointList", () => {
  it.each([
    ["nothing", "", []],
    [
      "by iteration, numerically",
      record("refs/continuation-loop/default/10") + record("refs/continuation-loop/default/2"),
      [2, 10],
    ],
    ["another loop's refs", record("refs/continuation-loop/default-2/1"), []],
    [
      "a ref that is not an iteration",
      record("refs/continuation-loop/default/x") + record("refs/continuation-loop/default/01"),
      [],
    ],
    ["a body with blank lines", record("refs/continuation-loop/default/1", "\n\nFiles-Changed: 2\n\n"), [1]],
  ])("%s", (_name, output, iterations) => {
    expect(parseCheckpointList(output, "default").map((r) => r.iteration)).toEqual(iterations);
  });

  it("reads the time, the changed count and the loop's start from what writeCheckpoint wrote", () => {
    const message = renderCheckpointMessage("default", 3, 7, "2026-01-02T03:00:00.123Z");
    const body = message.split("\n\n").slice(1).join("\n\n");
    expect(parseCheckpointList(record("refs/continuation-loop/default/3", body), "default")).toEqual([
      {
        iteration: 3,
        commit: C,
        tree: T,
        time: "2026-01-02T03:04:05.000Z",
        filesChanged: 7,
        startedAt: "2026-01-02T03:00:00.123Z",
      },
    ]);
  });

  it("counts 0 changed when the message has no count", () => {
    expect(parseCheckpointList(record("refs/continuation-loop/default/1", ""), "default")[0]?.filesChanged).toBe(0);
  });
});

describe("selectLoopCheckpoints", () => {
  const at = (iteration: number, time: string, startedAt?: string): CheckpointRecord => ({
    iteration,
    commit: C,
    tree: T,
    time,
    filesChanged: 0,
    ...(startedAt !== undefined && { startedAt }),
  });
  const FIRST = "2026-01-02T03:00:00.500Z";
  const SECOND = "2026-01-02T04:00:00.500Z";
  // The second loop's iteration 1 replaced the first's; the first's 2 and 3 are left.
  const refs = [
    at(1, "2026-01-02T04:01:00.000Z", SECOND),
    at(2, "2026-01-02T03:02:00.000Z", FIRST),
    at(3, "2026-01-02T03:03:00.000Z", FIRST),
  ];
  const iterations = (records: CheckpointRecord[]) => records.map((r) => r.iteration);

  it("keeps the running loop's, by its started_at", () => {
    expect(iterations(selectLoopCheckpoints(refs, { startedAt: SECOND }))).toEqual([1]);
    expect(iterations(selectLoopCheckpoints(refs, { startedAt: FIRST }))).toEqual([2, 3]);
  });

  it("keeps none for a loop that has no started_at yet (no Stop)", () => {
    expect(selectLoopCheckpoints(refs, { startedAt: undefined })).toEqual([]);
  });

  it("with no loop running, keeps the loop's that wrote the newest checkpoint", () => {
    expect(iterations(selectLoopCheckpoints(refs, "last"))).toEqual([1]);
    expect(iterations(selectLoopCheckpoints(refs.slice(1), "last"))).toEqual([2, 3]);
    expect(selectLoopCheckpoints([], "last")).toEqual([]);
  });

  it("with no loop running, takes the loop that started last when two loops' checkpoints share a second", () => {
    const second = "2026-01-02T03:00:01.900Z";
    const sameSecond = [
      at(1, "2026-01-02T03:00:01.000Z", second),
      at(2, "2026-01-02T03:00:01.000Z", FIRST),
      at(3, "2026-01-02T03:00:01.000Z", FIRST),
    ];
    expect(iterations(selectLoopCheckpoints(sameSecond, "last"))).toEqual([1]);
  });

  it("counts a checkpoint an earlier version wrote (no start in it) as the running loop's when taken since it started", () => {
    const old = [
      at(1, "2026-01-02T02:59:00.000Z"),
      at(2, "2026-01-02T03:00:00.000Z"),
      at(3, "2026-01-02T03:05:00.000Z"),
    ];
    // git keeps whole seconds: a checkpoint in the second the loop started is its own.
    expect(
      iterations(selectLoopCheckpoints([...old, at(4, "2026-01-02T03:06:00.000Z", FIRST)], { startedAt: FIRST })),
    ).toEqual([2, 3, 4]);
    expect(iterations(selectLoopCheckpoints(old, "last"))).toEqual([1, 2, 3]);
  });
});

describe("selectWorktreeCheckpoints", () => {
  const at = (iteration: number, startedAt: string): CheckpointRecord => ({
    iteration,
    commit: C,
    tree: T,
    time: "2026-01-02T05:00:00.000Z",
    filesChanged: 0,
    startedAt,
  });
  const OURS = "2026-01-02T03:00:00.500Z";
  const MAIN = "2026-01-02T04:00:00.500Z";
  const iterations = (records: CheckpointRecord[]) => records.map((r) => r.iteration);
  // Under the shared refs: our loop's iterations 1-2 from before the upgrade, the main worktree's 3.
  const shared = [at(1, OURS), at(2, OURS), at(3, MAIN)];

  it("adds the running loop's own checkpoints from the shared refs, its own refs winning", () => {
    const own = [at(2, OURS), at(4, OURS)];
    const picked = selectWorktreeCheckpoints(own, shared, { startedAt: OURS });
    expect(iterations(picked)).toEqual([1, 2, 4]);
    expect(picked[1]).toBe(own[0]);
  });

  it("takes nothing from the shared refs with no loop running, or before the loop's first Stop", () => {
    expect(iterations(selectWorktreeCheckpoints([at(4, OURS)], shared, "last"))).toEqual([4]);
    expect(selectWorktreeCheckpoints([], shared, "last")).toEqual([]);
    expect(selectWorktreeCheckpoints([], shared, { startedAt: undefined })).toEqual([]);
  });
});

describe("renderIterations", () => {
  it.each([
    [[], "none"],
    [[4], "4"],
    [[1, 2, 3], "1–3"],
    [[1, 3, 5, 6], "1, 3, 5–6"],
    [Array.from({ length: 5000 }, (_, i) => i + 1), "1–5000"],
    [[1, 2, 4, 6, 8, 10, 12, 14, 15, 16], "1–2, 4, 6, … (1 more run), 10, 12, 14–16"],
    [[1, 3, 5, 7, 9, 11, 13, 15], "1, 3, 5, … (2 more runs), 11, 13, 15"],
  ])("%j", (iterations, expected) => {
    const records = iterations.map((iteration) => ({ iteration, commit: C, tree: T, time: "", filesChanged: 0 }));
    expect(renderIterations(records)).toBe(expected);
  });
});
