// The README is for users, at most 300 lines (CONTRIBUTING.md "Conventions"); every field and message is in docs/REFERENCE.md.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";

const README = readFileSync(join(import.meta.dirname, "..", "..", "README.md"), "utf8");

describe("README.md", () => {
  it("is at most 300 lines", () => {
    expect(README.trimEnd().split("\n").length).toBeLessThanOrEqual(300);
  });
});
