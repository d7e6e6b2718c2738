// overwriteFile writes a whole sidecar in place, or says why not.
import {
  linkSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { loopFileAt } from "../../src/core/loopFiles.js";
import { parseState } from "../../src/core/parseState.js";
import { makeRuntime } from "../../src/core/sidecar.js";
import { writeSidecar } from "../../src/io/sidecarFile.js";
import { overwriteFile } from "../../src/io/writeInPlace.js";

const dir = mkdtempSync(join(tmpdir(), "patch-"));
let n = 0;
const fileWith = (text: string) => {
  const path = join(dir, `state-${++n}.md`);
  writeFileSync(path, text);
  return path;
};
const buf = (text: string) => Buffer.from(text, "utf8");

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
    const file = loopFileAt(dir, "default");
    mkdirSync(join(dir, ".claude"), { recursive: true });
    symlinkSync(target, file.sidecarPath);
    const text = '---\nsession_id: s\nstarted_at: "2026-11-23T00:00:00Z"\n---\n\nGoal.\n';
    writeSidecar(file, text, parseState(text), makeRuntime());
    expect(readFileSync(target, "utf8")).toBe("precious\n");
    expect(lstatSync(file.sidecarPath).isFile()).toBe(true);
    expect(JSON.parse(readFileSync(file.sidecarPath, "utf8")).loop.session_id).toBe("s");
  });
});
