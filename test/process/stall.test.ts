// Which turns changed nothing (docs/REFERENCE.md "How a loop ends"): outside git a turn's tool calls are its evidence,
// inside git the tree. The Stop bundle fed JSON on stdin, with a transcript written as Claude Code writes it.
import { appendFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { describe, expect, it } from "vitest";
import { git } from "../support/gitRepo.js";
import { makeProject, readHistory, runHook } from "../support/runHook.js";
import { jsonl, user } from "../support/transcriptLines.js";

const REPLY = "Done.";

/** A call of `name` with `input`, as one assistant line of the main thread. */
const call = (id: string, name: string, input: object) => ({
  type: "assistant",
  message: { id: `m-${id}`, model: "m", role: "assistant", content: [{ type: "tool_use", id, name, input }] },
});
const result = (id: string) => user([{ type: "tool_result", tool_use_id: id, content: "ok" }]);
const reply = (id: string) => ({
  type: "assistant",
  message: { id: `m-${id}`, model: "m", role: "assistant", content: [{ type: "text", text: REPLY }] },
});

/** Is any folder from `dir` up a git repository? */
function insideGit(dir: string): boolean {
  for (let d = dir; ; d = dirname(d)) {
    if (existsSync(join(d, ".git"))) return true;
    if (dirname(d) === d) return false;
  }
}

/**
 * A loop outside git whose every turn ends with the same reply; `callsOf(turn)` are the turn's tool calls (name,
 * input), `subagentCallsOf(turn)` those of a subagent it ran (sidechain lines). Each turn is appended to the transcript, then the Stop hook runs. The hook's exit code per turn.
 */
function runTurns(
  turns: number,
  callsOf: (turn: number) => [string, object][],
  opts: {
    subagentCallsOf?: (turn: number) => [string, object][];
    git?: boolean;
    /** Run in the project before the first turn, and as each turn's work. */
    setup?: (root: string) => void;
    work?: (root: string, turn: number) => void;
  } = {},
) {
  const project = makeProject(`---\nmax_iterations: 50\nstall_limit: 2\n---\nKeep working.\n`);
  expect(insideGit(project.root)).toBe(false);
  if (opts.git) git(project.root, "init", "-q");
  opts.setup?.(project.root);
  // Where Claude Code keeps it: outside the project, so that its growth is no change of the tree.
  const transcript = join(mkdtempSync(join(tmpdir(), "cl-transcript-")), "session.jsonl");
  writeFileSync(transcript, "");
  const codes: (number | null)[] = [];
  const outputs: string[] = [];
  for (let turn = 0; turn < turns; turn++) {
    const lines: object[] = [user(turn === 0 ? "Keep working." : "Stop hook feedback:\n[continue]")];
    for (const [i, [name, input]] of callsOf(turn).entries()) {
      const id = `t${turn}-${i}`;
      lines.push(call(id, name, input), result(id));
    }
    for (const [i, [name, input]] of (opts.subagentCallsOf?.(turn) ?? []).entries()) {
      const id = `s${turn}-${i}`;
      lines.push({ ...call(id, name, input), isSidechain: true }, { ...result(id), isSidechain: true });
    }
    opts.work?.(project.root, turn);
    lines.push(reply(`r${turn}`));
    appendFileSync(transcript, jsonl(...lines));
    const run = runHook("stop", {
      session_id: "s1",
      cwd: project.root,
      hook_event_name: "Stop",
      transcript_path: transcript,
      last_assistant_message: REPLY,
    });
    codes.push(run.code);
    outputs.push(run.stdout);
    if (run.code !== 2) break;
  }
  return { ...project, codes, outputs };
}

describe("stall_limit outside a git repository", () => {
  it("the same reply with other tool calls each turn is work: the loop runs on", () => {
    const { codes, statePath } = runTurns(7, (turn) => [
      ["Edit", { file_path: "src/a.ts", old_string: `v${turn}`, new_string: `v${turn + 1}` }],
      ["Bash", { command: "npm test" }],
    ]);
    expect(codes).toEqual([2, 2, 2, 2, 2, 2, 2]);
    const sidecar = JSON.parse(readFileSync(statePath.replace(/\.local\.md$/, ".runtime.json"), "utf8"));
    expect(sidecar).toMatchObject({ stall_count: 0 });
  });

  it("the same reply and the same tool calls stall at the limit, a turn after the first repeat", () => {
    const { codes, outputs, historyPath, statePath } = runTurns(8, () => [["Bash", { command: "npm test" }]]);
    // Turn 1 is new; turn 2 repeats the reply with calls not yet known for turn 1; turns 3 and 4 repeat both.
    expect(codes).toEqual([2, 2, 2, 0]);
    expect(JSON.parse(outputs.at(-1) ?? "{}").systemMessage).toMatch(/stalled/);
    expect(readHistory(historyPath).at(-1)).toMatchObject({ decision: "end", reason: "stalled", iteration: 4 });
    expect(existsSync(statePath)).toBe(false);
  });

  it("a turn that calls no tool and repeats the reply stalls as before", () => {
    const { codes, historyPath } = runTurns(8, () => []);
    expect(codes).toEqual([2, 2, 0]);
    expect(readHistory(historyPath).at(-1)).toMatchObject({ decision: "end", reason: "stalled", iteration: 3 });
  });

  it("a subagent's calls are not the turn's: the same main-thread calls with other subagent calls stall", () => {
    const { codes } = runTurns(8, () => [["Task", { description: "look around", prompt: "List the files" }]], {
      subagentCallsOf: (turn) => [["Read", { file_path: `src/file${turn}.ts` }]],
    });
    expect(codes).toEqual([2, 2, 2, 0]);
  });
});

describe("stall_limit in a git repository: the tree decides, as before", () => {
  it("the same reply with other tool calls but the same tree stalls", () => {
    const { codes } = runTurns(8, (turn) => [["Read", { file_path: `src/file${turn}.ts` }]], { git: true });
    // Turn 2 reads the tree first, turns 3 and 4 find it the same.
    expect(codes).toEqual([2, 2, 2, 0]);
  });

  it("work inside a submodule, whose commit the superproject's tree records, is no stall", () => {
    const setup = (root: string) => {
      const inner = mkdtempSync(join(tmpdir(), "cl-submodule-"));
      git(inner, "init", "-q");
      writeFileSync(join(inner, "x.c"), "int x;\n");
      git(inner, "add", "x.c");
      git(inner, "commit", "-qm", "lib");
      git(root, "-c", "protocol.file.allow=always", "submodule", "add", "-q", inner, "vendor/lib");
      git(root, "commit", "-qm", "with the submodule");
    };
    // Edits to a tracked file of the submodule, then to a file it does not track: the superproject sees only "modified".
    const tracked = runTurns(6, () => [], {
      git: true,
      setup,
      work: (root, turn) => appendFileSync(join(root, "vendor/lib/x.c"), `int y${turn};\n`),
    });
    expect(tracked.codes).toEqual([2, 2, 2, 2, 2, 2]);
    const untracked = runTurns(6, () => [], {
      git: true,
      setup,
      work: (root, turn) => appendFileSync(join(root, "vendor/lib/notes.txt"), `turn ${turn}\n`),
    });
    expect(untracked.codes).toEqual([2, 2, 2, 2, 2, 2]);
    // A turn that leaves the submodule as it was still stalls, as in any repository.
    const idle = runTurns(6, () => [], { git: true, setup });
    expect(idle.codes).toEqual([2, 2, 2, 0]);
  });
});

describe("stall_limit in a big repository", () => {
  /** A project at `packages/app` of a repository; `work(root, turn)` before each Stop, every reply the same. */
  function runPackageTurns(
    turns: number,
    work: (root: string, turn: number) => void,
    opts: { setup?: (top: string) => void; limit?: number } = {},
  ) {
    const top = mkdtempSync(join(tmpdir(), "cl-monorepo-"));
    git(top, "init", "-q");
    opts.setup?.(top);
    const root = join(top, "packages", "app");
    mkdirSync(join(root, ".claude"), { recursive: true });
    writeFileSync(
      join(root, ".claude", "continuation-loop.local.md"),
      `---\nmax_iterations: 50\nstall_limit: ${opts.limit ?? 2}\n---\nGo.\n`,
    );
    const codes: (number | null)[] = [];
    for (let turn = 0; turn < turns && codes.at(-1) !== 0; turn++) {
      work(root, turn);
      const run = runHook("stop", {
        session_id: "s1",
        cwd: root,
        hook_event_name: "Stop",
        last_assistant_message: REPLY,
      });
      codes.push(run.code);
    }
    return codes;
  }

  it("in a package of a larger repository, an untracked file rewritten each turn is work, not a stall", () => {
    expect(
      runPackageTurns(6, (root, turn) => writeFileSync(join(root, "notes.md"), "draft\n".repeat(turn + 1))),
    ).toEqual([2, 2, 2, 2, 2, 2]);
    // The same file left as it was still stalls.
    const once = (root: string, turn: number) => turn === 0 && writeFileSync(join(root, "notes.md"), "draft\n");
    expect(runPackageTurns(6, once)).toEqual([2, 2, 2, 0]);
  });

  it("a diff too large to read is no evidence of a stall: a tracked file rewritten each turn goes on", () => {
    const setup = (top: string) => {
      mkdirSync(join(top, "packages", "app"), { recursive: true });
      writeFileSync(join(top, "packages", "app", "data.txt"), "seed\n");
      git(top, "add", "-A");
      git(top, "commit", "-qm", "seed");
    };
    // 70 lines of 1 MiB: `git diff HEAD` prints them past the 64 MiB it may read (few long lines diff in a fraction of
    // the time many short ones take). The first Stop reads no tree.
    const rewrite = (root: string, turn: number) =>
      turn > 0 && writeFileSync(join(root, "data.txt"), `${String(turn).repeat(1024 * 1024)}\n`.repeat(70));
    expect(runPackageTurns(4, rewrite, { setup, limit: 1 })).toEqual([2, 2, 2, 2]);
  }, 120_000);
});
