// The bad-input corpus (test/fixtures/bad/) and the projects its cases run in, for the bad-input tests
// (test/process/badInput.test.ts, test/process/badConditions.test.ts).
import { spawnSync } from "node:child_process";
import {
  chmodSync,
  closeSync,
  ftruncateSync,
  mkdirSync,
  mkdtempSync,
  openSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { expect } from "vitest";
import { CRASH_SIGNS, NOBODY, type Run } from "./processes.js";
import { REPO } from "./runHook.js";

export interface Case {
  file?: string;
  generate?: string;
  field?: string;
  line?: number;
  expect: string[];
  setup?: "symlink-dir-out" | "symlink-file-out";
  /** Refused only where the loop would read it (the notes file): the helper has nothing to refuse. */
  hookOnly?: boolean;
  needsNonRoot?: boolean;
}

export const BAD = join(REPO, "test", "fixtures", "bad");
/** A metric command that misbehaves (docs/REFERENCE.md "Improvement loops"): the loop goes on, the reading is no value. */
interface MetricCase {
  name: string;
  metric: string;
  timeout?: string;
  expect: string[];
}
export const corpus = JSON.parse(readFileSync(join(BAD, "cases.json"), "utf8")) as {
  state: Case[];
  stdin: Case[];
  metric: MetricCase[];
};
export const SHOWN = ".claude/continuation-loop.local.md";
const isRoot = process.getuid?.() === 0;
/** Permission cases mean nothing to root: as root, they run as an unprivileged user instead. */
export const userFor = (needsNonRoot: boolean | undefined) => (needsNonRoot && isRoot ? { uid: NOBODY } : {});

const made: string[] = [];
/** Removes the projects made so far (each test file's afterAll). */
export function removeBadProjects(): void {
  for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
}

export const stopInput = (root: string) =>
  JSON.stringify({
    session_id: "s1",
    cwd: root,
    hook_event_name: "Stop",
    stop_hook_active: false,
    last_assistant_message: "Still working.",
  });
export const promptInput = (root: string, prompt: string) =>
  JSON.stringify({ session_id: "s1", cwd: root, hook_event_name: "UserPromptSubmit", prompt });

/** A project whose state file is the case; returns the folders to watch. */
export function makeBadProject(c: Case): { root: string; statePath: string; watched: string[]; line?: number } {
  const base = mkdtempSync(join(tmpdir(), "cl-bad-"));
  made.push(base);
  chmodSync(base, 0o755); // traversable when a case runs as another user
  const root = join(base, "project");
  const outside = join(base, "outside");
  mkdirSync(join(root, ".claude"), { recursive: true });
  mkdirSync(outside);
  writeFileSync(join(outside, "notes.md"), "secret notes outside the project\n");
  const statePath = join(root, SHOWN);
  let line = c.line;
  if (c.file) writeFileSync(statePath, readFileSync(join(BAD, "state", c.file)));
  switch (c.generate) {
    case undefined:
      break;
    case "sparse-2GiB":
    case "sparse-64GiB": {
      const fd = openSync(statePath, "w");
      ftruncateSync(fd, (c.generate === "sparse-2GiB" ? 2 : 64) * 1024 ** 3);
      closeSync(fd);
      break;
    }
    case "just-over-1MiB": {
      const head = "---\nmax_iterations: 3\n---\n";
      writeFileSync(statePath, head + "x".repeat(1024 * 1024 + 1 - head.length));
      break;
    }
    case "deep-nesting":
      writeFileSync(statePath, `---\nx: ${"[".repeat(20_000)}\n---\nGoal\n`);
      break;
    case "many-fields-last-bad": {
      const fields = Array.from({ length: 6_000 }, (_, i) => `field_${i}: "value ${i} ${"y".repeat(40)}"`);
      writeFileSync(statePath, `---\n${fields.join("\n")}\nmax_iterations: 0\n---\nGoal\n`);
      line = fields.length + 2;
      break;
    }
    case "directory":
      mkdirSync(statePath);
      writeFileSync(join(statePath, "inside.md"), "---\n---\nGoal\n");
      break;
    case "fifo":
      expect(spawnSync("mkfifo", [statePath]).status).toBe(0);
      break;
    case "unreadable":
      writeFileSync(statePath, "---\nmax_iterations: 3\n---\nGoal\n");
      chmodSync(statePath, 0o000);
      break;
    default:
      throw new Error(`unknown generator ${c.generate}`);
  }
  // The case is about the file's own permission: its folder stays writable for the other user.
  if (c.needsNonRoot) for (const dir of [root, join(root, ".claude")]) chmodSync(dir, 0o777);
  if (c.setup === "symlink-dir-out") symlinkSync(outside, join(root, "link-out"));
  if (c.setup === "symlink-file-out") symlinkSync(join(outside, "notes.md"), join(root, "notes-link.md"));
  return { root, statePath, watched: [root, outside], ...(line !== undefined && { line }) };
}

/** A process that ended by itself, with no stack trace, with `code`. */
export function expectQuiet(run: Run, code = 0): void {
  expect(run.signal, "the process was killed (hung?)").toBeNull();
  expect(run.code).toBe(code);
  expect(`${run.stdout}\n${run.stderr}`).not.toMatch(CRASH_SIGNS);
}
