// readInto and readFileBytes: the one read primitive of the hooks (README "Performance").
import { closeSync, mkdtempSync, openSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { readFileBytes, readInto } from "../../src/io/readInto.js";

const dir = mkdtempSync(join(tmpdir(), "read-into-"));
const fileOf = (name: string, bytes: Uint8Array) => {
  const path = join(dir, name);
  writeFileSync(path, bytes);
  return path;
};
const bytesOf = (size: number) => Uint8Array.from({ length: size }, (_, i) => (i * 7 + 3) % 256);

describe("readFileBytes", () => {
  it.each([
    ["empty", 0],
    ["smaller than the first read", 1000],
    ["exactly the first read", 256 * 1024],
    ["larger: the array grows", 600 * 1024 + 5],
  ])("%s file: every byte, in order", (name, size) => {
    const bytes = bytesOf(size);
    expect(Buffer.from(readFileBytes(fileOf(`${name}.bin`, bytes), 256 * 1024)).equals(Buffer.from(bytes))).toBe(true);
  });

  it("a small size hint only means more reads", () => {
    const bytes = bytesOf(10_000);
    expect(Buffer.from(readFileBytes(fileOf("hint.bin", bytes), 16)).equals(Buffer.from(bytes))).toBe(true);
  });

  it("a missing file throws ENOENT, as openSync does", () => {
    expect(() => readFileBytes(join(dir, "missing.bin"))).toThrow(expect.objectContaining({ code: "ENOENT" }));
  });
});

describe("readInto", () => {
  it("reads at a position, or from the current one when it is null", () => {
    const path = fileOf("positions.bin", Buffer.from("abcdefgh"));
    const fd = openSync(path, "r");
    try {
      const two = new Uint8Array(2);
      expect(readInto(fd, two, 4)).toBe(2);
      expect(Buffer.from(two).toString()).toBe("ef");
      expect(readInto(fd, two, null)).toBe(2);
      expect(Buffer.from(two).toString()).toBe("ab");
      expect(readInto(fd, new Uint8Array(8), 8)).toBe(0);
    } finally {
      closeSync(fd);
    }
  });
});
