import { describe, expect, it } from "vitest";
import { isSameProcess, parseProcessRef, pidOf, renderProcessRef } from "../../src/core/processRef.js";

describe("a recorded process", () => {
  it("keeps its start where one was read, and its pid alone where none was", () => {
    expect(renderProcessRef(4242, "98765")).toBe("4242@98765");
    expect(renderProcessRef("4242", undefined)).toBe("4242");
    expect(parseProcessRef("4242@98765")).toEqual({ pid: 4242, start: "98765" });
    expect(parseProcessRef("4242")).toEqual({ pid: 4242, start: undefined });
    expect(parseProcessRef("")).toEqual({ pid: Number.NaN, start: undefined });
    expect(parseProcessRef("-1@5").pid).toBeNaN();
  });

  it("is told to a person by its pid", () => {
    expect(pidOf("4242@98765")).toBe("4242");
    expect(pidOf("4242")).toBe("4242");
  });

  it("is the same process only with the same start; a bare pid (an older sidecar) matches any start of its pid", () => {
    expect(isSameProcess("4242@98765", "4242@98765")).toBe(true);
    expect(isSameProcess("4242@98765", "4242@98766")).toBe(false);
    expect(isSameProcess("4242@98765", "4243@98765")).toBe(false);
    expect(isSameProcess("4242", "4242@98765")).toBe(true);
    expect(isSameProcess("4242@98765", "4242")).toBe(true);
    expect(isSameProcess("4242", "4243")).toBe(false);
  });
});
