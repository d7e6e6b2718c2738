import { describe, expect, it } from "vitest";
import {
  parseCheckpointList,
  renderCheckpointMessage,
  renderCheckpointRef,
  renderIterations,
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

  it("reads the time and the changed count from what writeCheckpoint wrote", () => {
    const body = renderCheckpointMessage("default", 3, 7).split("\n\n").slice(1).join("\n\n");
    expect(parseCheckpointList(record("refs/continuation-loop/default/3", body), "default")).toEqual([
      { iteration: 3, commit: C, tree: T, time: "2026-01-02T03:04:05.000Z", filesChanged: 7 },
    ]);
  });

  it("counts 0 changed when the message has no count", () => {
    expect(parseCheckpointList(record("refs/continuation-loop/default/1", ""), "default")[0]?.filesChanged).toBe(0);
  });
});

describe("renderIterations", () => {
  it.each([
    [[], "none"],
    [[1, 2, 3], "1, 2, 3"],
  ])("%j", (iterations, expected) => {
    const records = iterations.map((iteration) => ({ iteration, commit: C, tree: T, time: "", filesChanged: 0 }));
    expect(renderIterations(records)).toBe(expected);
  });
});
