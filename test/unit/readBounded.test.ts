import * as fs from "node:fs";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { readBounded } from "../../src/io/readBounded.js";

const dir = mkdtempSync(join(tmpdir(), "cl-bounded-"));
const sized = (name: string, size: number) => {
  const path = join(dir, name);
  const fd = fs.openSync(path, "w");
  fs.ftruncateSync(fd, size);
  fs.closeSync(fd);
  return path;
};

describe("readBounded", () => {
  it.each([
    ["one byte over", 1025],
    ["a sparse 64 GiB file", 64 * 1024 ** 3],
  ])("%s: refused from its size, no bytes returned", (name, size) => {
    expect(readBounded(sized(name, size), 1024)).toEqual({ kind: "too large", size });
  });

  it("reads a file of exactly the bound whole", () => {
    const read = readBounded(sized("at the bound", 1024), 1024);
    expect(read.kind === "found" && read.bytes.length).toBe(1024);
  });

  it("keeps the asked end of a larger window, reading at most the bound", () => {
    const path = join(dir, "tail");
    fs.writeFileSync(path, `${"a".repeat(2000)}the end`);
    const read = readBounded(path, 7, { keep: "tail" });
    expect(read.kind === "found" && read.bytes.toString()).toBe("the end");
  });

  it("a folder or a missing file is told apart", () => {
    expect(readBounded(dir, 1024)).toEqual({ kind: "not a file" });
    expect(readBounded(join(dir, "none"), 1024)).toEqual({ kind: "missing" });
  });
});
