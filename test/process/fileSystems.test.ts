// File systems that are not ext4 (docs/REFERENCE.md "Machines that hold back"): what FAT, exFAT and network shares refuse,
// modelled through node:fs, since a test cannot mount one. A process test: its mock of node:fs needs a module
// graph of its own, which the unit tests (one shared graph) do not give.
import * as fs from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it, vi } from "vitest";
import { parseStateFileName } from "../../src/core/loopFileNames.js";
import { scanLoops } from "../../src/io/listLoops.js";
import { acquireLock } from "../../src/io/lock.js";
import { writeFileAtomic } from "../../src/io/writeFileAtomic.js";

/** What the modelled file system refuses, and what another hook does at the moment of a rename. */
const model = vi.hoisted(() => ({
  chmod: undefined as string | undefined,
  link: undefined as string | undefined,
  beforeRename: undefined as ((from: string) => void) | undefined,
  /** The names a folder's listing shows, as a case-preserving file system keeps them; paths still reach the files. */
  listAs: undefined as ((names: string[]) => string[]) | undefined,
  /** Inode numbers as the file system gives them: ext4 hands a new file the number of one just removed. */
  inoAs: new Map<number, number>(),
}));

vi.mock("node:fs", async (importOriginal) => {
  const real = await importOriginal<typeof import("node:fs")>();
  const refuse = (code: string) => Object.assign(new Error(code), { code });
  const reuseIno = <T>(stat: T): T => {
    const ino = (stat as { ino?: unknown } | undefined)?.ino;
    const given = typeof ino === "number" ? model.inoAs.get(ino) : undefined;
    return given === undefined ? stat : (Object.assign(stat as object, { ino: given }) as T);
  };
  return {
    ...real,
    fchmodSync: (fd: number, mode: number) => {
      if (model.chmod) throw refuse(model.chmod);
      real.fchmodSync(fd, mode);
    },
    linkSync: (from: string, to: string) => {
      if (model.link) throw refuse(model.link);
      real.linkSync(from, to);
    },
    statSync: (...args: Parameters<typeof real.statSync>) => reuseIno(real.statSync(...args)),
    fstatSync: (...args: Parameters<typeof real.fstatSync>) => reuseIno(real.fstatSync(...args)),
    readdirSync: (...args: Parameters<typeof real.readdirSync>) => {
      const names = real.readdirSync(...args);
      return model.listAs && !args[1] ? model.listAs(names as unknown as string[]) : names;
    },
    renameSync: (from: string, to: string) => {
      model.beforeRename?.(from);
      real.renameSync(from, to);
    },
  };
});

afterEach(() => {
  model.chmod = undefined;
  model.link = undefined;
  model.beforeRename = undefined;
  model.listAs = undefined;
  model.inoAs.clear();
});

const scratch = () => fs.mkdtempSync(join(tmpdir(), "cl-filesystems-"));

describe("saving a state file where a chmod is refused (FAT, exFAT, some network shares)", () => {
  for (const code of ["EPERM", "ENOSYS"]) {
    it(`${code}: the file is saved all the same, whole`, () => {
      const path = join(scratch(), "continuation-loop.local.md");
      fs.writeFileSync(path, "---\nmax_iterations: 5\n---\nold goal\n");
      model.chmod = code;
      expect(writeFileAtomic(path, "---\nmax_iterations: 5\n---\nnew goal\n")).toBe(true);
      expect(fs.readFileSync(path, "utf8")).toContain("new goal");
      expect(fs.readdirSync(join(path, "..")).filter((name) => name.endsWith(".tmp"))).toEqual([]);
    });
  }

  it("a chmod failing for another reason still fails the save, and leaves no temp file", () => {
    const path = join(scratch(), "continuation-loop.local.md");
    fs.writeFileSync(path, "old\n");
    model.chmod = "EIO";
    expect(() => writeFileAtomic(path, "new\n")).toThrow(expect.objectContaining({ code: "EIO", path }));
    expect(fs.readFileSync(path, "utf8")).toBe("old\n");
    expect(fs.readdirSync(join(path, ".."))).toEqual(["continuation-loop.local.md"]);
  });
});

describe("breaking a stale lock where there are no hard links (FAT, exFAT)", () => {
  it("a fresh lock another hook made just before the break keeps its name: this hook waits instead of taking it", () => {
    const path = join(scratch(), "continuation-loop.local.md");
    const lock = `${path}.lock`;
    // A killed hook's lock, an hour old.
    fs.writeFileSync(lock, "999999999 2026-01-01T00:00:00.000Z\n");
    const old = new Date(Date.now() - 3_600_000);
    fs.utimesSync(lock, old, old);
    model.link = "EPERM";
    // Between this hook's look at the stale lock and its rename, another hook broke it and took a fresh one.
    const fresh = `${process.ppid} ${new Date().toISOString()}\n`;
    model.beforeRename = (from) => {
      if (from !== lock) return;
      model.beforeRename = undefined;
      // Made before the old one goes, so that the two never share an inode number.
      fs.writeFileSync(`${lock}.new`, fresh);
      fs.renameSync(`${lock}.new`, lock);
    };
    const held = acquireLock(path, { waitMs: 200 });
    held?.release();
    expect(held).toBeUndefined();
    expect(fs.readFileSync(lock, "utf8")).toBe(fresh);
    expect(fs.readdirSync(join(path, "..")).filter((name) => name.endsWith(".stale"))).toEqual([]);
  });

  it("a stale lock alone is broken and taken as on any other file system", () => {
    const path = join(scratch(), "continuation-loop.local.md");
    fs.writeFileSync(`${path}.lock`, "999999999 2026-01-01T00:00:00.000Z\n");
    model.link = "EPERM";
    const held = acquireLock(path, { waitMs: 200 });
    expect(held?.tookOverStale).toBe(true);
    expect(fs.readFileSync(`${path}.lock`, "utf8")).toContain(String(process.pid));
    held?.release();
    expect(fs.existsSync(`${path}.lock`)).toBe(false);
  });
});

describe("two hooks breaking one stale lock where a new file takes a removed one's inode number (ext4)", () => {
  it("the fresh lock the other hook took meanwhile is not taken for the stale one: it keeps its name", () => {
    const path = join(scratch(), "continuation-loop.local.md");
    const lock = `${path}.lock`;
    fs.writeFileSync(lock, "999999999 2026-01-01T00:00:00.000Z\n");
    const old = new Date(Date.now() - 3_600_000);
    fs.utimesSync(lock, old, old);
    const staleIno = fs.statSync(lock).ino;
    const fresh = `${process.ppid} ${new Date().toISOString()}\n`;
    // Between this hook's look and its rename, the other hook removed the stale lock and made its own,
    // which the file system numbered as the removed one.
    model.beforeRename = (from) => {
      if (from !== lock) return;
      model.beforeRename = undefined;
      fs.unlinkSync(lock);
      fs.writeFileSync(lock, fresh);
      model.inoAs.set(fs.statSync(lock).ino, staleIno);
    };
    const held = acquireLock(path, { waitMs: 200 });
    held?.release();
    expect(held).toBeUndefined();
    expect(fs.readFileSync(lock, "utf8")).toBe(fresh);
  });
});

describe("a loop file named with capitals by hand", () => {
  const project = (...files: string[]) => {
    const root = scratch();
    fs.mkdirSync(join(root, ".claude"));
    for (const file of files) fs.writeFileSync(join(root, ".claude", file), "---\nmax_iterations: 5\n---\nGoal\n");
    return root;
  };
  const names = (root: string) => scanLoops(root, {}).loops.map((loop) => loop.file.name);

  it("on a case-insensitive file system (macOS, Windows, FAT, exFAT) it is the loop its lower-case name opens", () => {
    // On disk as the loop's commands reach it; listed as the person typed it.
    const root = project("continuation-loop.foo.local.md", "continuation-loop.local.md");
    model.listAs = (listed) =>
      listed.map((name) =>
        name
          .replace("continuation-loop.foo.", "continuation-loop.Foo.")
          .replace(/^continuation-loop\.local/, "Continuation-Loop.local"),
      );
    expect(fs.readdirSync(join(root, ".claude")).sort()).toEqual([
      "Continuation-Loop.local.md",
      "continuation-loop.Foo.local.md",
    ]);
    expect(names(root)).toEqual(["default", "foo"]);
  });

  it("on a case-sensitive one it is no loop, and beside the lower-case file the two are not taken for one", () => {
    expect(names(project("continuation-loop.Foo.local.md"))).toEqual([]);
    expect(names(project("continuation-loop.Foo.local.md", "continuation-loop.foo.local.md"))).toEqual(["foo"]);
  });

  it("a name that is no loop name in any case stays none", () => {
    const listed = new Set(["continuation-loop.Foo_Bar.local.md"]);
    expect(parseStateFileName("continuation-loop.Foo_Bar.local.md", listed)).toBeUndefined();
    expect(parseStateFileName("continuation-loop.Foo.local.md")).toBeUndefined();
  });
});
