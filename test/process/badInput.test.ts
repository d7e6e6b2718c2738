// Bad input (docs/REFERENCE.md "Messages you may see"): the corpus (test/fixtures/bad/) run against every bundled hook. Each case
// exits 0 (never 2), prints no stack trace, names the file, field and line, and changes no byte.
import { statSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { CRASH_SIGNS, requiredBundles, snapshotTree, spawnBundle, treeDiff, type Run } from "../support/processes.js";
import {
  BAD,
  type Case,
  corpus,
  expectQuiet,
  makeBadProject,
  promptInput,
  removeBadProjects,
  SHOWN,
  stopInput,
  userFor,
} from "../support/badProject.js";

const STDIN_SOURCE = "hook input (stdin)";
const bundles = requiredBundles();
afterAll(removeBadProjects);

const name = (c: Case) => c.file ?? `(made at test time) ${c.generate}`;

/** A refusal from a hook: exit 0, nothing on stderr, one systemMessage naming file, line and field. */
function expectRefusal(run: Run, c: Case, file: string, line = c.line): string {
  expect(run.signal, "the hook was killed (hung?)").toBeNull();
  expect(run.code).toBe(0);
  expect(run.stderr).toBe("");
  const json = JSON.parse(run.stdout) as Record<string, unknown>;
  expect(Object.keys(json)).toEqual(["systemMessage"]);
  const message = String(json.systemMessage);
  expect(message).not.toMatch(CRASH_SIGNS);
  expect(message).toContain(
    line === undefined ? `continuation-loop: ${file}` : `continuation-loop: ${file} line ${line}: `,
  );
  if (c.field) expect(message).toContain(`: ${c.field}: `);
  for (const text of c.expect) expect(message).toContain(text);
  return message;
}

/** A refusal that is not the Stop hook's JSON (the helper's stderr, doctor's report, the prompt hook's block). */
function expectNamed(text: string, c: Case, file: string, line = c.line): void {
  expect(text).toContain(line === undefined ? file : `${file} line ${line}: `);
  if (c.field) expect(text).toContain(`${c.field}: `);
}

/** The helper's documented exit codes (src/cli/context.ts): 1 when the state file is invalid. */
const CLI_FAILED = 1;

/** The slash-command side of the prompt hook and the helper on a bad state file. */
async function checkCommands(
  c: Case,
  project: { root: string; statePath: string; watched: string[]; line?: number },
  as: { uid?: number } = {},
): Promise<void> {
  if (c.hookOnly) return;
  const before = snapshotTree(...project.watched);
  const env = { CLAUDE_PROJECT_DIR: project.root };
  if (bundles.present.includes("prompt")) {
    // /loop-status typed in Claude Code: the prompt hook refuses it (a block), naming file and field.
    const status = await spawnBundle("prompt", {
      cwd: project.root,
      stdin: promptInput(project.root, "/loop-status"),
      timeoutMs: 15_000,
      ...as,
    });
    expectQuiet(status);
    const answer = JSON.parse(status.stdout) as { decision?: string; reason?: string };
    expect(answer.decision).toBe("block");
    expectNamed(String(answer.reason), c, SHOWN, project.line);
  }
  if (!bundles.present.includes("cli")) return;
  const cli = (args: string[]) => spawnBundle("cli", { cwd: project.root, env, args, timeoutMs: 15_000, ...as });
  const status = await cli(["status"]);
  expectQuiet(status, CLI_FAILED);
  expectNamed(status.stderr, c, SHOWN, project.line);
  const doctor = await cli(["doctor"]);
  expectQuiet(doctor, CLI_FAILED);
  expectNamed(doctor.stdout + doctor.stderr, c, SHOWN, project.line);
  expect(treeDiff(before, snapshotTree(...project.watched))).toEqual([]);

  // `stop` ends even an invalid loop (the user asked): it either refuses and changes nothing, or
  // moves the file aside byte for byte and keeps the goal in the history. Nothing is deleted.
  const stat = statSync(project.statePath);
  let original: string | undefined;
  try {
    const bytes = stat.isFile() && stat.size <= 8 * 1024 * 1024 ? readFileSync(project.statePath) : undefined;
    // A UTF-16 file's goal is kept as its text, not as its bytes read as UTF-8.
    const utf16 = /^utf16(le|be)/.exec(c.file ?? "")?.[1];
    original =
      bytes && utf16
        ? (utf16 === "be" ? Buffer.from(bytes).swap16() : bytes).toString("utf16le").replace(/^\uFEFF/, "")
        : bytes?.toString("utf8");
  } catch {
    original = undefined; // mode 000
  }
  const stop = await cli(["stop"]);
  expect(stop.signal).toBeNull();
  expect(`${stop.stdout}\n${stop.stderr}`).not.toMatch(CRASH_SIGNS);
  const after = snapshotTree(...project.watched);
  const diff = treeDiff(before, after);
  if (stop.code === CLI_FAILED) {
    expectNamed(stop.stderr, c, SHOWN, project.line);
    expect(diff).toEqual([]);
    return;
  }
  expect(stop.code).toBe(0);
  const history = join(project.root, ".claude", "continuation-loop.history.jsonl");
  const aside = [...after.keys()].find((path) => path.startsWith(`${project.statePath}.stopped-`));
  expect(aside, "the invalid file was moved aside").toBeDefined();
  expect(after.get(aside!), "moved aside byte for byte").toBe(
    before.get(project.statePath)?.replace(/^file \d+/, `file ${statSync(aside!).mode & 0o7777}`),
  );
  expect(diff.map((d) => d.split(":")[0]).sort()).toEqual([project.statePath, history, aside].sort());
  expect(stop.stdout).toContain("moved aside unchanged");
  const record = JSON.parse(readFileSync(history, "utf8").trim().split("\n").at(-1) ?? "{}") as {
    reason?: string;
    goal?: string;
  };
  expect(record.reason).toBe("stopped");
  const text = original ?? "(unreadable)";
  const goal = /^\uFEFF?---[ \t]*\r?\n[\s\S]*?\r?\n---[ \t]*(?:\r?\n|$)([\s\S]*)$/.exec(text)?.[1];
  expect([text, goal]).toContain(record.goal);
}

describe("the bad-input corpus", () => {
  it("has every bundle whose entry exists (missing bundles fail, they are not skipped)", () => {
    expect(bundles.missing).toEqual([]);
    expect(bundles.present).toEqual(expect.arrayContaining(["stop", "prompt", "cli"]));
  });

  it("holds at least 40 state files and 10 stdin payloads, each listed in cases.json", () => {
    const stateFiles = readdirSync(join(BAD, "state")).sort();
    const stdinFiles = readdirSync(join(BAD, "stdin")).sort();
    expect(stateFiles.length).toBeGreaterThanOrEqual(40);
    expect(stdinFiles.length).toBeGreaterThanOrEqual(10);
    expect(corpus.state.flatMap((c) => c.file ?? []).sort()).toEqual(stateFiles);
    expect(corpus.stdin.flatMap((c) => c.file ?? []).sort()).toEqual(stdinFiles);
  });
});

/**
 * Under a further Node line (vitest.config.ts) only the state files whose handling touches what a Node line can
 * change run again: special files, sizes, nesting, symlinks, permissions. A written file is parsed by yaml and zod
 * inside the same bundle; the hooks answered each of them byte for byte alike on Node 20, 22 and 24
 * (CONTRIBUTING.md "The tests"), so those run once, under the Node that runs the tests.
 */
const furtherLine = process.env.CONTINUATION_LOOP_TEST_NODE_MAJOR !== undefined;
const stateCases = furtherLine ? corpus.state.filter((c) => c.generate || c.setup || c.needsNonRoot) : corpus.state;

describe.concurrent("bad state files: refused, named, untouched", () => {
  for (const c of stateCases) {
    it(name(c), { timeout: 60_000 }, async () => {
      const project = makeBadProject(c);
      const before = snapshotTree(...project.watched);
      const as = userFor(c.needsNonRoot);

      const stop = await spawnBundle("stop", {
        cwd: project.root,
        stdin: stopInput(project.root),
        timeoutMs: 15_000,
        ...as,
      });
      expectRefusal(stop, c, SHOWN, project.line);
      expect(treeDiff(before, snapshotTree(...project.watched))).toEqual([]);

      if (c.generate || c.setup) {
        // Again from another folder, through CLAUDE_PROJECT_DIR and with no input cwd.
        const viaEnv = await spawnBundle("stop", {
          cwd: tmpdir(),
          env: { CLAUDE_PROJECT_DIR: project.root },
          stdin: JSON.stringify({ session_id: "s1" }),
          timeoutMs: 15_000,
          ...as,
        });
        expectRefusal(viaEnv, c, SHOWN, project.line);
      }
      expect(treeDiff(before, snapshotTree(...project.watched))).toEqual([]);
      await checkCommands(c, project, as);
    });
  }
});

/** A stdin payload: a fixture file or one made here (too big to commit). */
function payload(c: Case): Buffer {
  if (c.file) return readFileSync(join(BAD, "stdin", c.file));
  switch (c.generate) {
    case "huge-not-json":
      return Buffer.alloc(24 * 1024 * 1024, "x");
    case "huge-wrong-type":
      return Buffer.from(
        JSON.stringify({
          session_id: 1,
          hook_event_name: "Stop",
          last_assistant_message: "z".repeat(16 * 1024 * 1024),
        }),
      );
    case "deep-array":
      return Buffer.from(`${"[".repeat(200_000)}${"]".repeat(200_000)}`);
    case "deep-session-id":
      return Buffer.from(`{"hook_event_name":"Stop","session_id":${"[".repeat(100_000)}${"]".repeat(100_000)}}`);
    default:
      throw new Error(`unknown generator ${c.generate}`);
  }
}

describe.concurrent("bad stdin payloads: never a block, named, untouched", () => {
  for (const c of corpus.stdin) {
    it(name(c), { timeout: 60_000 }, async () => {
      const { root, watched } = makeBadProject({ expect: [] });
      writeFileSync(join(root, SHOWN), "---\nmax_iterations: 5\n---\nGoal\n");
      const before = snapshotTree(...watched);
      const stdin = payload(c);

      const stop = await spawnBundle("stop", {
        cwd: root,
        env: { CLAUDE_PROJECT_DIR: root },
        stdin,
        timeoutMs: 15_000,
      });
      expectRefusal(stop, c, STDIN_SOURCE, undefined);
      expect(String((JSON.parse(stop.stdout) as { systemMessage: string }).systemMessage)).toContain(
        "The loop did not continue",
      );

      if (bundles.present.includes("prompt")) {
        const prompt = await spawnBundle("prompt", {
          cwd: root,
          env: { CLAUDE_PROJECT_DIR: root },
          stdin,
          timeoutMs: 15_000,
        });
        expectQuiet(prompt);
        expect(prompt.stdout).toBe("");
      }
      if (bundles.present.includes("cli")) {
        // The status line reads Claude Code's JSON on stdin too; it never fails.
        expectQuiet(
          await spawnBundle("cli", {
            cwd: root,
            env: { CLAUDE_PROJECT_DIR: root },
            stdin,
            args: ["statusline"],
            timeoutMs: 15_000,
          }),
        );
      }
      expect(treeDiff(before, snapshotTree(...watched))).toEqual([]);

      // Without a loop the Stop hook says nothing at all, whatever the input.
      const empty = makeBadProject({ expect: [] });
      const idle = await spawnBundle("stop", {
        cwd: empty.root,
        env: { CLAUDE_PROJECT_DIR: empty.root },
        stdin,
        timeoutMs: 15_000,
      });
      expect(idle).toMatchObject({ code: 0, signal: null, stdout: "", stderr: "" });
    });
  }
});
