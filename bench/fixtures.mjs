// The bench's fixtures (docs/PERFORMANCE.md "Method"): Claude Code transcripts of any size, the state file
// and sidecar a loop in progress leaves, projects (plain, in git, 5,000 files, 20 other loops) and a todo list,
// all in the run's own folder.
import { execFileSync } from "node:child_process";
import { closeSync, mkdirSync, openSync, writeFileSync, writeSync } from "node:fs";
import { dirname, join } from "node:path";

/**
 * Writes the fixtures every run needs (the hooks' TMPDIR, the todo list) and returns what writes the rest
 * on first use. `root`: the repository, which the transcripts name as their project; `session` owns the
 * loops, `todoSession` the todo list.
 */
export function makeFixtures({ tmp, root: ROOT, bigMb, session: SESSION, todoSession: TODO_SESSION }) {
  const HOME = join(tmp, "home");
  const CONFIG = join(HOME, ".claude");
  mkdirSync(join(tmp, "tmp"), { recursive: true }); // the hooks' TMPDIR, this run's own
  const WORDS = "the a test file function return value error module import export const if else for async await \
string number object array null true false build run check fix update add remove change line code type class \
method state loop hook stop prompt transcript token session".split(/\s+/);
  const words = (seed, n) => Array.from({ length: n }, (_, i) => WORDS[(seed * 7919 + i * 104729) % WORDS.length]);
  const sentence = (seed, n) => words(seed, n).join(" ");
  const STARTED = new Date(Date.now() - 55 * 60 * 1000).toISOString();
  const MODEL = "claude-opus-4-5-20251101";
  const GOAL = "Make every test in test/auth pass without skipping any.";
  const CONTINUATION = `[SYSTEM REMINDER - CONTINUATION LOOP ACTIVE]\niteration 4/50 · 46 turns left\n\nGoal:\n${GOAL}`;
  const REPLY =
    "I fixed the token refresh race in src/auth/session.ts and updated the two tests that depended on \
the old timing. The full suite passes except test/auth/expiry.test.ts, which still fails on the clock-skew case.";

  /**
   * Claude Code transcript JSONL of about `bytes` bytes: turns of a prompt, tool calls with their
   * output, and a reply. The last turn (the one the Stop judges) is the same whatever the size.
   * Returns what the previous Stop remembered: the offset of that turn and the loop's tokens before it.
   */
  function writeTranscript(path, bytes) {
    const fd = openSync(path, "w");
    const at = { n: 0, size: 0, tokens: 0, lastId: "", lastTokens: 0, pending: [] };
    const head = { parentUuid: null, isSidechain: false, userType: "external", cwd: ROOT, sessionId: SESSION };
    const line = (type, message, extra = {}) => {
      const uuid = `${(at.n++).toString(16).padStart(8, "0")}-7a4d-4e8b-9c21-5d6e7f8a9b0c`;
      const timestamp = new Date(Date.UTC(2026, 0, 15, 9) + at.n * 1500).toISOString();
      const entry = { ...head, version: "2.1.197", gitBranch: "main", type, uuid, timestamp, message, ...extra };
      const text = `${JSON.stringify(entry)}\n`;
      head.parentUuid = uuid;
      at.size += Buffer.byteLength(text);
      if (at.pending.push(text) >= 1000) writeSync(fd, at.pending.splice(0).join(""));
    };
    const assistant = (content) => {
      const id = (at.lastId = `msg_01${String(at.n).padStart(22, "0")}`);
      const tokens = (at.lastTokens = 20 + ((at.n * 37) % 600));
      at.tokens += tokens;
      const usage = { input_tokens: 4, cache_read_input_tokens: 20000 + (at.n % 80000), output_tokens: tokens };
      const message = { id, type: "message", role: "assistant", model: MODEL, content, stop_reason: null, usage };
      line("assistant", message, { requestId: `req_011${String(at.n).padStart(21, "0")}` });
    };
    const starts = []; // the tokens before each turn
    const turn = (prompt, tools, reply) => {
      starts.push(at.tokens);
      line("user", { role: "user", content: prompt });
      assistant([{ type: "text", text: sentence(at.n, 25) }]);
      for (let i = 0; i < tools; i++) {
        const id = `toolu_01${String(at.n).padStart(22, "0")}`;
        const [name, input] = TOOLS[at.n % TOOLS.length];
        assistant([{ type: "tool_use", id, name, input }]);
        const lines = Array.from(
          { length: 4 + (at.n % 40) },
          (_, k) => `${k + 1}\t${sentence(at.n + k, 4 + (k % 10))}`,
        );
        const output = lines.join("\n");
        const result = { tool_use_id: id, type: "tool_result", content: output, is_error: false };
        const toolUseResult = { stdout: output.slice(0, 600), stderr: "", interrupted: false, isImage: false };
        line("user", { role: "user", content: [result] }, { toolUseResult });
      }
      assistant([{ type: "text", text: reply }]);
    };
    const LAST = 5000; // bytes of the current turn, roughly
    while (at.size < bytes - LAST) {
      const tools = Math.min(1 + (at.n % 8), Math.floor((bytes - LAST - at.size) / 2500));
      turn(at.size < bytes / 2 ? sentence(at.n, 12) : CONTINUATION, tools, sentence(at.n, 40));
    }
    // The loop started 3 turns before this one: its tally is what those turns spent.
    const tokens = at.tokens - (starts.at(-3) ?? 0);
    const remembered = { offset: at.size, tokens, lastId: at.lastId, lastTokens: at.lastTokens };
    at.n = 1e9; // the same current turn in every transcript
    turn(CONTINUATION, 1, REPLY);
    writeSync(fd, at.pending.join(""));
    closeSync(fd);
    return remembered;
  }
  const TOOLS = [
    ["Bash", { command: "npm test -- test/auth", description: "Run the auth tests" }],
    ["Read", { file_path: `${ROOT}/src/auth/session.ts` }],
    ["Edit", { file_path: `${ROOT}/src/auth/session.ts`, old_string: sentence(1, 30), new_string: sentence(2, 34) }],
    ["Grep", { pattern: "refresh", path: `${ROOT}/src` }],
  ];

  const transcripts = {};
  const transcript = (name) =>
    (transcripts[name] ??= (() => {
      const path = join(tmp, `transcript-${name}.jsonl`);
      return { path, remembered: writeTranscript(path, name === "big" ? bigMb * 1024 * 1024 : 10 * 1024) };
    })());

  const stateText = (field = "") => `---
# Started with /loop-start --template tdd
active: true
iteration_count: 4
max_iterations: 50       # raise if the suite is big
completion_promise: "ALL AUTH TESTS PASSING"
max_duration: 8h
max_tokens: 5000000
${field ? `${field}\n` : ""}notes_file: SHARED_TASK_NOTES.md
session_id: "${SESSION}"
started_at: "${STARTED}"
---

${GOAL}

- Run \`npm test -- test/auth\` after each change.
- Keep SHARED_TASK_NOTES.md current: what was tried, what is left.
`;

  /** The sidecar as the previous Stop left it (docs/REFERENCE.md "Files the loop keeps"), after transcript `t` if any. */
  function sidecarText(t) {
    const seen = t?.remembered ?? { offset: 0, tokens: 0, lastId: "", lastTokens: 0 };
    const runtime = {
      promise_streak: 0,
      output_tokens: seen.tokens,
      tokens_by_model: t ? { [MODEL]: seen.tokens } : {},
    };
    Object.assign(runtime, { transcript: t?.path ?? "", transcript_offset: seen.offset, stall_count: 0 });
    Object.assign(runtime, { last_turn: "5a1e0c3b9d2f4e6a", last_tree: "", last_message_id: seen.lastId });
    const loop = { started_at: STARTED, session_id: SESSION };
    return `${JSON.stringify({ loop, ...runtime, last_message_tokens: seen.lastTokens }, null, 2)}\n`;
  }

  const GIT = ["-c", "user.name=bench", "-c", "user.email=bench@example.com", "-c", "init.defaultBranch=main"];
  const commitAll = (cwd) => {
    for (const a of ["init -q", "add -A", "commit -q -m initial"])
      execFileSync("git", [...GIT, ...a.split(" ")], { cwd, stdio: "pipe" });
  };
  const write = (root, path, text, flag = "w") => {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), text, { flag });
  };

  /** Fixture projects, made when a case first names them; each adds its own to a common start. */
  const PROJECTS = {
    idle: () => {},
    plain: () => {},
    prompt: () => {},
    promptLoop: () => {},
    // 20 loops of other sessions: this session owns none, so its Stop is idle too.
    crowded: (root) => {
      for (let i = 1; i <= 20; i++) {
        const other = stateText().replace(SESSION, `aaaaaaaa-bbbb-4ccc-8ddd-${String(i).padStart(12, "0")}`);
        write(root, `.claude/continuation-loop.task-${i}.local.md`, other);
      }
    },
    // A loop in progress in a git repository: two files changed, one new.
    git: (root) => {
      commitAll(root);
      write(root, "src/auth/file1.ts", "export const fixed = true;\n", "a");
      write(root, "test/auth/file2.ts", "// covered\n", "a");
      write(root, "src/auth/new.ts", "export const added = 1;\n");
    },
    // 5,000 more files in 40 folders, 80% of them committed, 20% untracked.
    repo5000: (root) => {
      for (let i = 0; i < 5000; i++) {
        write(root, `dir${i % 40}/file${i}.ts`, `${sentence(i, 30 + (i % 200))}\n`);
        if (i === 3999) commitAll(root);
      }
    },
  };
  const projects = {};
  function project(name) {
    if (projects[name]) return projects[name];
    const root = join(tmp, `project-${name}`);
    mkdirSync(join(root, ".claude"), { recursive: true });
    const files = name === "repo5000" ? 0 : 40; // a small project's sources
    for (let i = 0; i < files; i++) write(root, `${i % 2 ? "src" : "test"}/auth/file${i}.ts`, `${sentence(i, 800)}\n`);
    write(root, "package.json", '{"name":"bench-project","type":"module"}\n');
    write(root, "SHARED_TASK_NOTES.md", "# Notes\n\n- token refresh race fixed\n- clock-skew case left\n");
    write(root, ".gitignore", ".claude/continuation-loop.*\n");
    PROJECTS[name](root);
    return (projects[name] = root);
  }

  // The prompt hook's 50 todos: a Claude Code 2.1 task list, 15 done, 2 in progress, 33 pending.
  const tasks = join(CONFIG, "tasks", TODO_SESSION);
  write(tasks, ".lock", "");
  write(tasks, ".highwatermark", "50");
  for (let i = 1; i <= 50; i++) {
    const status = i <= 15 ? "completed" : i <= 17 ? "in_progress" : "pending";
    const task = { id: String(i), subject: `Step ${i}: ${sentence(i, 8)}`, description: sentence(i + 100, 30) };
    Object.assign(task, {
      activeForm: `Working on step ${i}`,
      status,
      blocks: [],
      blockedBy: i > 1 ? [`${i - 1}`] : [],
    });
    write(tasks, `${i}.json`, `${JSON.stringify(task, null, 2)}\n`);
  }

  return { HOME, CONFIG, REPLY, CONTINUATION, transcript, stateText, sidecarText, project };
}
