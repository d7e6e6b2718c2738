import { describe, expect, it } from "vitest";
import { parseHistoryLine } from "../../src/core/history.js";

describe("parseHistoryLine", () => {
  it("reads a record: an object with its time and decision", () => {
    const record = { time: "2026-11-30T04:00:00.000Z", decision: "end", goal: "Ship it\n" };
    expect(parseHistoryLine(JSON.stringify(record))).toEqual(record);
  });

  it.each([
    ["a torn line", '{"time":"2026-11-30T04:00:00.000Z","state_fi'],
    ["not JSON", "hello"],
    ["an array", '[{"time":"t","decision":"end"}]'],
    ["null", "null"],
    ["no decision", '{"time":"2026-11-30T04:00:00.000Z"}'],
    ["a time that is no string", '{"time":5,"decision":"end"}'],
  ])("skips %s", (_name, line) => {
    expect(parseHistoryLine(line)).toBeUndefined();
  });
});
