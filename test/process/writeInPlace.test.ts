// patchFile writes a few changed bytes in place and overwriteFile a whole sidecar, or they say why not.
import { linkSync, lstatSync, mkdtempSync, readFileSync, statSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { EMPTY_RUNTIME } from "../../src/core/sidecar.js";
import { writeSidecar } from "../../src/io/sidecarFile.js";
import { overwriteFile, patchFile } from "../../src/io/writeInPlace.js";

const BEFORE = "---\niteration_count: 4\nmax_iterations: 10\n---\nGoal\n";
const dir = mkdtempSync(join(tmpdir(), "patch-"));
let n = 0;
const fileWith = (text: string) => {
  const path = join(dir, `state-${++n}.md`);
  writeFileSync(path, text);
  return path;
};
const buf = (text: string) => Buffer.from(text, "utf8");

describe("patchFile", () => {
  it("writes only the changed digits, keeping the file's inode", () => {
    const path = fileWith(BEFORE);
    const ino = statSync(path).ino;
    const after = BEFORE.replace("count: 4", "count: 5");
    expect(patchFile(path, buf(BEFORE), buf(after))).toBe("written");
    expect(readFileSync(path, "utf8")).toBe(after);
    expect(statSync(path).ino).toBe(ino);
  });

  it("writes through a hard link, so both names see the new count", () => {
    const path = fileWith(BEFORE);
    linkSync(path, `${path}.link`);
    expect(patchFile(path, buf(BEFORE), buf(BEFORE.replace("count: 4", "count: 5")))).toBe("written");
    expect(readFileSync(`${path}.link`, "utf8")).toContain("count: 5");
  });

  it.each([
    [
      "the length changes (9 → 10)",
      BEFORE.replace("count: 4", "count: 9"),
      (t: string) => t.replace("count: 9", "count: 10"),
    ],
    ["more than a few bytes change", BEFORE, (t: string) => t.replace("Goal", "Task").replace("count: 4", "count: 5")],
    ["nothing changes", BEFORE, (t: string) => t],
    [
      "the change crosses a sector boundary",
      `${"#".repeat(505)}\nab: 12345\n`,
      (t: string) => t.replace("12345", "54321"),
    ],
  ])("leaves the file alone when %s", (_why, before, edit) => {
    const path = fileWith(before);
    expect(patchFile(path, buf(before), buf(edit(before)))).toBe("unsuitable");
    expect(readFileSync(path, "utf8")).toBe(before);
  });

  it("finds an edit made since the file was read, and does not write", () => {
    const path = fileWith(BEFORE.replace("Goal", "Edited goal"));
    expect(patchFile(path, buf(BEFORE), buf(BEFORE.replace("count: 4", "count: 5")))).toBe("changed");
    expect(readFileSync(path, "utf8")).toContain("count: 4");
  });

  it("says the file is gone when it was removed", () => {
    expect(patchFile(join(dir, "missing.md"), buf(BEFORE), buf(BEFORE.replace("4", "5")))).toBe("gone");
  });

  it("does not write through a symlink: the whole-file save replaces the link", () => {
    const target = fileWith(BEFORE);
    const link = join(dir, "linked.md");
    symlinkSync(target, link);
    expect(patchFile(link, buf(BEFORE), buf(BEFORE.replace("count: 4", "count: 5")))).toBe("unsuitable");
    expect(readFileSync(target, "utf8")).toBe(BEFORE);
  });
});

describe("overwriteFile", () => {
  it.each([
    ["shorter", '{"a":1}'],
    ["longer", `{"a":"${"x".repeat(600)}"}`],
  ])("replaces the contents with %s ones, same inode", (_what, next) => {
    const path = fileWith('{"a":"old and rather long"}\n');
    const ino = statSync(path).ino;
    expect(overwriteFile(path, buf(next))).toBe(true);
    expect(readFileSync(path, "utf8")).toBe(next);
    expect(statSync(path).ino).toBe(ino);
  });

  it("refuses a missing file, a symlink and a hard-linked file, writing nothing", () => {
    const target = fileWith("precious\n");
    const link = join(dir, "sidecar-link.json");
    symlinkSync(target, link);
    const hard = join(dir, "sidecar-hard.json");
    linkSync(target, hard);
    expect(overwriteFile(join(dir, "none.json"), buf("{}"))).toBe(false);
    expect(overwriteFile(link, buf("{}"))).toBe(false);
    expect(overwriteFile(hard, buf("{}"))).toBe(false);
    expect(readFileSync(target, "utf8")).toBe("precious\n");
  });

  it("a sidecar that is a symlink (say, committed to a repository) is replaced, its target untouched", () => {
    const target = fileWith("precious\n");
    const sidecar = join(dir, "continuation-loop.runtime.json");
    symlinkSync(target, sidecar);
    writeSidecar(
      sidecar,
      { ...EMPTY_RUNTIME, tokens_by_model: {} },
      { started_at: "2026-11-23T00:00:00Z", session_id: "s" },
    );
    expect(readFileSync(target, "utf8")).toBe("precious\n");
    expect(lstatSync(sidecar).isFile()).toBe(true);
    expect(JSON.parse(readFileSync(sidecar, "utf8")).loop.session_id).toBe("s");
  });
});
