#!/usr/bin/env node
// `npm run bench`: whole-process latency and peak RSS of the BUNDLED hooks (hooks/*.js), each case
// as a ratio to `node -e 0` measured in the same run. Plain Node, no dependencies.
//
//   node bench/run.mjs [--runs N] [--warmup N] [--big-mb N] [--only id,id] [--hooks DIR] [--keep] [--out FILE]
//
// Method
// - Every process is started the way Claude Code starts a hook: `node <hook>` with the hook's JSON
//   on stdin (spawnSync), timed from spawn to exit in this process. The baseline `node -e 0` gets
//   the same kind of stdin through the same pipe.
// - Runs alternate: each round is baseline, case A, baseline, case B, …; the case order rotates
//   every round, so machine noise (2 shared cores) hits the baseline and the cases alike.
// - Ratios are median(case) / median(every baseline run of the same rounds). The 200 MB transcript
//   is also compared with the 10 KB one directly (median / median).
// - Before every run of an active case its state file is rewritten and its history removed: the
//   hook increments the iteration and would otherwise end the loop (and the history would grow).
// - Peak RSS is measured in separate runs after the timed ones (under GNU `/usr/bin/time -f %M`
//   when it is there, otherwise through a `--import` preload that reports
//   process.resourceUsage().maxRSS at exit), so the measurement never touches the timed runs.
// - Each case is checked once before timing (exit code, output, state file saved, transcript
//   offset advanced), so a broken fixture cannot make an error path look fast. Then `sync`: the
//   fixtures' own writes are on disk before the first timed run.
//
// Cases (targets from docs/ARCHITECTURE.md "Speed"; rows without a target are measured for the record)
// - Stop, idle: no state file. Stop, active: a loop at iteration 4 of 50 with max_tokens, a notes
//   file and a remembered transcript offset as the previous Stop left it; the reply comes in
//   last_assistant_message; transcripts of 10 KB and 200 MB (realistic Claude Code JSONL whose
//   current turn is the same in both). These run outside git. The same 10 KB case runs once more
//   in a git repository with uncommitted changes, where stall detection runs `git status` and
//   `git diff`, once more without the code cache (CONTINUATION_LOOP_CODE_CACHE=0), and with
//   `checkpoints: true` in a git repository of 5,000 files (80% committed, 20% untracked).
// - SessionStart (compact, clear), SessionEnd and StopFailure (hooks/session.js) in a project with no
//   loop: the idle path of each further hook event.
// - Prompt hook, in a project with no loop: no todos, 50 task files (15 done, 2 in progress), and no
//   todos with the 200 MB transcript (the hook then looks for a TodoWrite call in its last 8 MiB). And
//   in a project where this session's loop runs (not paused, last turn not interrupted).
import { execFileSync, spawnSync } from "node:child_process";
import {
  closeSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  openSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
  writeSync,
} from "node:fs";
import { cpus, loadavg, platform, release, tmpdir, totalmem } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "..");

// ---------------------------------------------------------------- options
const args = process.argv.slice(2);
const opt = (name, fallback) => {
  const i = args.indexOf(`--${name}`);
  return i === -1 ? fallback : args[i + 1];
};
const RUNS = Number(opt("runs", 100));
const WARMUP = Number(opt("warmup", 3));
const BIG_MB = Number(opt("big-mb", 200));
const KEEP = args.includes("--keep");
const OUT = resolve(opt("out", join(ROOT, "bench", "results.json")));
const HOOKS = resolve(opt("hooks", join(ROOT, "hooks")));
const ONLY = opt("only", "").split(",").filter(Boolean);
if (!(RUNS >= 10)) fail("--runs must be at least 10 (medians over fewer runs mean little on a noisy machine)");

function fail(message) {
  console.error(`bench: ${message}`);
  process.exit(1);
}

// ---------------------------------------------------------------- the bundles
for (const hook of ["stop", "prompt", "session"]) {
  if (!existsSync(join(HOOKS, `${hook}.js`)))
    fail(`hooks/${hook}.js is missing: run \`npm run build\` first (the bench measures the bundles Claude Code runs)`);
}

// ---------------------------------------------------------------- fixtures
const TMP = mkdtempSync(join(tmpdir(), "cl-bench-"));
const SESSION = "3f1c9b2e-7a4d-4e8b-9c21-5d6e7f8a9b0c";
const HOME = join(TMP, "home");
const CONFIG = join(HOME, ".claude");
mkdirSync(CONFIG, { recursive: true });
process.on("exit", () => {
  if (!KEEP) rmSync(TMP, { recursive: true, force: true });
});
process.on("SIGINT", () => process.exit(130));

/** A tiny deterministic PRNG, so every run of the bench writes the same transcripts. */
function prng(seed) {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
const WORDS =
  "the a test file function return value error module import export const let if else for while async await promise string number object array null undefined true false build run check fix update add remove change line code type interface class method property state loop hook stop prompt transcript token session iteration".split(
    " ",
  );
const hex = (rand, n) => Array.from({ length: n }, () => Math.floor(rand() * 16).toString(16)).join("");
const uuid = (rand) => `${hex(rand, 8)}-${hex(rand, 4)}-4${hex(rand, 3)}-a${hex(rand, 3)}-${hex(rand, 12)}`;
const b62 = (rand, n) =>
  Array.from(
    { length: n },
    () => "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789"[Math.floor(rand() * 62)],
  ).join("");
const sentence = (rand, words) =>
  Array.from({ length: words }, () => WORDS[Math.floor(rand() * WORDS.length)]).join(" ");

/**
 * Writes Claude Code transcript JSONL: turns of a user prompt, assistant text and tool calls,
 * tool results, and a final assistant reply, shaped like Claude Code 2.x writes them.
 */
class TranscriptWriter {
  constructor(path, seed, cwd) {
    this.fd = openSync(path, "w");
    this.rand = prng(seed);
    this.cwd = cwd;
    this.size = 0;
    this.parent = null;
    this.time = Date.parse("2026-01-15T09:00:00Z");
    this.tokens = 0;
    this.lastMessageId = "";
    this.lastMessageTokens = 0;
    this.pending = [];
    this.pendingBytes = 0;
  }
  common(type) {
    const uuidNow = uuid(this.rand);
    this.time += Math.floor(this.rand() * 4000);
    const entry = {
      parentUuid: this.parent,
      isSidechain: false,
      userType: "external",
      cwd: this.cwd,
      sessionId: SESSION,
      version: "2.1.197",
      gitBranch: "main",
      type,
      uuid: uuidNow,
      timestamp: new Date(this.time).toISOString(),
    };
    this.parent = uuidNow;
    return entry;
  }
  line(obj) {
    const text = `${JSON.stringify(obj)}\n`;
    const start = this.size;
    this.pending.push(text);
    this.pendingBytes += text.length;
    this.size += Buffer.byteLength(text);
    if (this.pendingBytes > 1 << 20) this.flush();
    return start;
  }
  flush() {
    if (this.pending.length) writeSync(this.fd, this.pending.join(""));
    this.pending = [];
    this.pendingBytes = 0;
  }
  user(content) {
    return this.line({ ...this.common("user"), message: { role: "user", content } });
  }
  assistant(content) {
    const id = `msg_01${b62(this.rand, 22)}`;
    const outputTokens = 20 + Math.floor(this.rand() * 600);
    this.tokens += outputTokens;
    this.lastMessageId = id;
    this.lastMessageTokens = outputTokens;
    const usage = {
      input_tokens: 4,
      cache_creation_input_tokens: Math.floor(this.rand() * 3000),
      cache_read_input_tokens: 20000 + Math.floor(this.rand() * 80000),
      output_tokens: outputTokens,
      service_tier: "standard",
    };
    const base = this.common("assistant");
    return this.line({
      ...base,
      message: {
        id,
        type: "message",
        role: "assistant",
        model: "claude-opus-4-5-20251101",
        content,
        stop_reason: null,
        stop_sequence: null,
        usage,
      },
      requestId: `req_011${b62(this.rand, 21)}`,
    });
  }
  toolCall() {
    const id = `toolu_01${b62(this.rand, 22)}`;
    const tools = [
      [
        "Bash",
        {
          command: `npm test -- ${WORDS[Math.floor(this.rand() * WORDS.length)]}`,
          description: sentence(this.rand, 5),
        },
      ],
      ["Read", { file_path: `${this.cwd}/src/${WORDS[Math.floor(this.rand() * WORDS.length)]}.ts` }],
      [
        "Edit",
        {
          file_path: `${this.cwd}/src/${WORDS[Math.floor(this.rand() * WORDS.length)]}.ts`,
          old_string: sentence(this.rand, 30),
          new_string: sentence(this.rand, 34),
        },
      ],
      ["Grep", { pattern: WORDS[Math.floor(this.rand() * WORDS.length)], path: `${this.cwd}/src` }],
    ];
    const [name, input] = tools[Math.floor(this.rand() * tools.length)];
    this.assistant([{ type: "tool_use", id, name, input }]);
    // Tool output: the bulk of a real transcript (file contents, test logs).
    const output = Array.from(
      { length: 4 + Math.floor(this.rand() * 40) },
      (_, i) => `${String(i + 1).padStart(5)}\t${sentence(this.rand, 4 + Math.floor(this.rand() * 10))}`,
    ).join("\n");
    this.line({
      ...this.common("user"),
      message: { role: "user", content: [{ tool_use_id: id, type: "tool_result", content: output, is_error: false }] },
      toolUseResult: { stdout: output.slice(0, 600), stderr: "", interrupted: false, isImage: false },
    });
  }
  /** One turn; returns the byte offset of its first line. */
  turn(prompt, tools, reply) {
    const start = this.user(prompt);
    this.assistant([{ type: "text", text: sentence(this.rand, 25) }]);
    for (let i = 0; i < tools; i++) this.toolCall();
    this.assistant([{ type: "text", text: reply }]);
    return start;
  }
  close() {
    this.flush();
    closeSync(this.fd);
  }
}

const CONTINUATION =
  "[SYSTEM REMINDER - CONTINUATION LOOP ACTIVE]\niteration 4/50 · 46 turns left · 7h 05m left · 4951787 output tokens left\n\nGoal:\nMake every test in test/auth pass without skipping any.";
const FINAL_REPLY =
  "I fixed the token refresh race in src/auth/session.ts and updated the two tests that depended on the old timing. The full suite passes locally except test/auth/expiry.test.ts, which still fails on the clock-skew case; I will look at that next.";

/**
 * A transcript of about `bytes` bytes whose last turn (the one the hook is judging) is the same
 * whatever the size. Returns what the loop's runtime would remember after the previous Stop.
 */
function writeTranscript(path, bytes, project) {
  const w = new TranscriptWriter(path, 42, project);
  const lastTurn = 5000; // bytes of the current turn, roughly; it is the same in every transcript
  const turnStarts = [];
  const turn = (prompt) => {
    turnStarts.push(w.tokens);
    // Tool calls are ~2 KB each: a few per turn, fewer when the file is nearly full.
    const tools = Math.min(1 + Math.floor(w.rand() * 8), Math.max(0, Math.floor((bytes - lastTurn - w.size) / 2500)));
    w.turn(prompt, tools, sentence(w.rand, 40));
  };
  // Earlier work in the session, then the loop: started with /loop-start 3 turns before this one.
  turn("Look at the auth module and tell me why the session tests are flaky.");
  while (w.size < bytes - lastTurn) turn(w.size < bytes / 2 ? sentence(w.rand, 12) : CONTINUATION);
  // The previous Stop saw everything up to here: it remembered this offset and the loop's tally.
  const loopTokens = w.tokens - (turnStarts.at(-3) ?? 0);
  const remembered = { offset: w.size, tokens: loopTokens, lastId: w.lastMessageId, lastTokens: w.lastMessageTokens };
  // The current turn: the hook's continuation prompt, tool calls, and the final reply.
  const turnRand = prng(7); // the same current turn in every transcript
  const rand = w.rand;
  w.rand = turnRand;
  w.turn(CONTINUATION, 1, FINAL_REPLY);
  w.rand = rand;
  w.close();
  return remembered;
}

const STARTED = new Date(Date.now() - 55 * 60 * 1000).toISOString();

/** The sidecar as the previous Stop left it (README "Files the loop keeps"). */
function sidecarText(transcript, remembered) {
  const runtime = remembered
    ? {
        promise_streak: 0,
        output_tokens: remembered.tokens,
        tokens_by_model: { "claude-opus-4-5-20251101": remembered.tokens },
        transcript,
        transcript_offset: remembered.offset,
        stall_count: 0,
        last_turn: "5a1e0c3b9d2f4e6a",
        last_tree: "",
        last_message_id: remembered.lastId,
        last_message_tokens: remembered.lastTokens,
      }
    : {
        promise_streak: 0,
        output_tokens: 0,
        tokens_by_model: {},
        transcript: "",
        transcript_offset: 0,
        stall_count: 0,
        last_turn: "5a1e0c3b9d2f4e6a",
        last_tree: "",
        last_message_id: "",
        last_message_tokens: 0,
      };
  return `${JSON.stringify({ loop: { started_at: STARTED, session_id: SESSION }, ...runtime }, null, 2)}\n`;
}

function stateText() {
  const started = STARTED;
  // The shape the hook writes: the user's fields with comments, then what the loop added.
  return `---
# Started with /loop-start --template tdd
active: true
iteration_count: 4
max_iterations: 50       # raise if the suite is big
completion_promise: "ALL AUTH TESTS PASSING"
max_duration: 8h
max_tokens: 5000000
notes_file: SHARED_TASK_NOTES.md
session_id: "${SESSION}"
started_at: "${started}"
---

Make every test in test/auth pass without skipping any.

- Run \`npm test -- test/auth\` after each change.
- Do not weaken assertions; fix the code.
- Keep SHARED_TASK_NOTES.md current: what was tried, what is left.
`;
}

/** A git repository of `count` files in 40 folders: 80% committed, 20% untracked (a loop's checkpoint case). */
function makeBigGitProject(name, count) {
  const root = join(TMP, name);
  mkdirSync(join(root, ".claude"), { recursive: true });
  const rand = prng(count);
  const files = Array.from({ length: count }, (_, i) => `dir${i % 40}/file${i}.ts`);
  for (let d = 0; d < 40; d++) mkdirSync(join(root, `dir${d}`), { recursive: true });
  for (const file of files) writeFileSync(join(root, file), `${sentence(rand, 30 + Math.floor(rand() * 200))}\n`);
  writeFileSync(join(root, "SHARED_TASK_NOTES.md"), "# Notes\n");
  writeFileSync(join(root, ".gitignore"), ".claude/continuation-loop.*\n");
  const g = (...a) =>
    execFileSync(
      "git",
      ["-c", "user.name=bench", "-c", "user.email=bench@example.com", "-c", "init.defaultBranch=main", ...a],
      {
        cwd: root,
        stdio: "pipe",
        maxBuffer: 64 * 1024 * 1024,
      },
    );
  g("init", "-q");
  const committed = files.slice(0, Math.round(count * 0.8));
  for (let i = 0; i < committed.length; i += 1000) g("add", "--", ...committed.slice(i, i + 1000));
  g("add", "--", ".gitignore", "SHARED_TASK_NOTES.md");
  g("commit", "-q", "-m", "initial");
  return root;
}

function makeProject(name, { git = false } = {}) {
  const root = join(TMP, name);
  mkdirSync(join(root, ".claude"), { recursive: true });
  mkdirSync(join(root, "src", "auth"), { recursive: true });
  mkdirSync(join(root, "test", "auth"), { recursive: true });
  const rand = prng(name.length);
  for (let i = 0; i < 40; i++)
    writeFileSync(
      join(root, i % 2 ? "src/auth" : "test/auth", `file${i}.ts`),
      `${Array.from({ length: 80 }, () => sentence(rand, 10)).join("\n")}\n`,
    );
  writeFileSync(join(root, "package.json"), '{"name":"bench-project","type":"module"}\n');
  writeFileSync(join(root, "SHARED_TASK_NOTES.md"), "# Notes\n\n- token refresh race fixed\n- clock-skew case left\n");
  writeFileSync(join(root, ".gitignore"), ".claude/continuation-loop.*\n");
  if (git) {
    const g = (...a) =>
      execFileSync(
        "git",
        ["-c", "user.name=bench", "-c", "user.email=bench@example.com", "-c", "init.defaultBranch=main", ...a],
        { cwd: root, stdio: "pipe" },
      );
    g("init", "-q");
    g("add", "-A");
    g("commit", "-q", "-m", "initial");
    // A loop in progress: a few files changed, one new.
    writeFileSync(
      join(root, "src/auth/file1.ts"),
      `${readFileSync(join(root, "src/auth/file1.ts"), "utf8")}export const fixed = true;\n`,
    );
    writeFileSync(
      join(root, "test/auth/file2.ts"),
      `${readFileSync(join(root, "test/auth/file2.ts"), "utf8")}// covered\n`,
    );
    writeFileSync(join(root, "src/auth/new.ts"), "export const added = 1;\n");
  }
  return root;
}

function insideGitRepo(dir) {
  for (let d = dir; ; d = dirname(d)) {
    if (existsSync(join(d, ".git"))) return true;
    if (dirname(d) === d) return false;
  }
}

console.log(`bench: writing fixtures in ${TMP} …`);
const t0 = Date.now();
const idle = makeProject("project-idle");
// 20 loops of other sessions in one project: this session owns none, so its Stop is idle too.
const crowded = makeProject("project-20-loops");
for (let i = 1; i <= 20; i++) {
  const other = `0000${i}`.slice(-4);
  writeFileSync(
    join(crowded, ".claude", `continuation-loop.task-${i}.local.md`),
    stateText().replace(SESSION, `aaaaaaaa-bbbb-4ccc-8ddd-eeeeeeee${other}`),
  );
}
const plain = makeProject("project");
// The prompt cases' own projects: the active Stop cases leave a loop in `plain`.
const promptProject = makeProject("project-prompt");
const promptLoopProject = makeProject("project-prompt-loop");
const gitProject = makeProject("project-git", { git: true });
const bigGitProject = makeBigGitProject("project-git-5000", 5000);
if (insideGitRepo(plain)) console.log(`bench: note: ${tmpdir()} is inside a git repository, so every case spawns git`);
const smallPath = join(TMP, "transcript-10k.jsonl");
const bigPath = join(TMP, `transcript-${BIG_MB}m.jsonl`);
const small = writeTranscript(smallPath, 10 * 1024, plain);
const needBig = !ONLY.length || ONLY.some((id) => id.endsWith("-big"));
const big = needBig ? writeTranscript(bigPath, BIG_MB * 1024 * 1024, plain) : undefined;
const sizes = { small: statSync(smallPath).size, big: big ? statSync(bigPath).size : 0 };
console.log(
  `bench: transcripts ${(sizes.small / 1024).toFixed(1)} KB and ${(sizes.big / 1048576).toFixed(0)} MB written in ${((Date.now() - t0) / 1000).toFixed(1)} s`,
);

// Todos for the prompt hook: 50 task files of a session (Claude Code 2.1 task list).
const TODO_SESSION = "7c0d5e1f-2b3a-4c4d-8e5f-6a7b8c9d0e1f";
const taskDir = join(CONFIG, "tasks", TODO_SESSION);
mkdirSync(taskDir, { recursive: true });
writeFileSync(join(taskDir, ".lock"), "");
writeFileSync(join(taskDir, ".highwatermark"), "50");
for (let i = 1; i <= 50; i++) {
  const status = i <= 15 ? "completed" : i <= 17 ? "in_progress" : "pending";
  const subject = `Step ${i}: ${sentence(prng(i), 8)}`;
  writeFileSync(
    join(taskDir, `${i}.json`),
    `${JSON.stringify({ id: String(i), subject, description: sentence(prng(i + 100), 30), activeForm: `Working on step ${i}`, status, blocks: [], blockedBy: i > 1 ? [String(i - 1)] : [] }, null, 2)}\n`,
  );
}

// ---------------------------------------------------------------- cases
const env = (project, extra = {}) => ({
  PATH: process.env.PATH ?? "/usr/bin:/bin",
  HOME,
  CLAUDE_CONFIG_DIR: CONFIG,
  CLAUDE_PROJECT_DIR: project,
  ...extra,
});
const stopInput = (project, transcript) =>
  JSON.stringify({
    session_id: SESSION,
    ...(transcript && { transcript_path: transcript }),
    cwd: project,
    permission_mode: "default",
    hook_event_name: "Stop",
    stop_hook_active: true,
    last_assistant_message: FINAL_REPLY,
  });
const promptInput = (session, transcript, project) =>
  JSON.stringify({
    session_id: session,
    transcript_path: transcript,
    cwd: project,
    permission_mode: "default",
    hook_event_name: "UserPromptSubmit",
    prompt: "Please also add a test for the clock-skew case.",
  });
const quiet = (run) =>
  run.status === 0 && run.stdout === "" && run.stderr === ""
    ? undefined
    : `exit ${run.status}, output ${JSON.stringify(run.stdout + run.stderr).slice(0, 300)}`;

/** An active loop: state reset before every run; the hook must answer exit 2, save, and read the transcript. */
function activeCase(id, label, target, project, transcript, remembered, extraEnv = {}, extraField = "") {
  const statePath = join(project, ".claude", "continuation-loop.local.md");
  const sidecarPath = join(project, ".claude", "continuation-loop.runtime.json");
  const historyPath = join(project, ".claude", "continuation-loop.history.jsonl");
  const text = extraField ? stateText().replace("\nnotes_file:", `\n${extraField}\nnotes_file:`) : stateText();
  const sidecar = sidecarText(transcript ?? "", remembered);
  return {
    id,
    label,
    target,
    exit: 2,
    hook: "stop",
    cwd: project,
    env: env(project, extraEnv),
    input: stopInput(project, transcript),
    stateText: text,
    sidecarText: sidecar,
    reset() {
      writeFileSync(statePath, text);
      writeFileSync(sidecarPath, sidecar);
      rmSync(historyPath, { force: true });
    },
    after() {
      rmSync(statePath, { force: true });
      rmSync(sidecarPath, { force: true });
    },
    check(run) {
      if (run.status !== 2) return `exit ${run.status}, expected 2 (stdout ${run.stdout.slice(0, 300)})`;
      if (!run.stderr.startsWith("[SYSTEM REMINDER - CONTINUATION LOOP ACTIVE]"))
        return `no continuation prompt: ${run.stderr.slice(0, 300)}`;
      const saved = readFileSync(statePath, "utf8");
      if (!/\niteration_count: 5\b/.test(saved)) return "iteration_count was not saved as 5";
      if (transcript) {
        const runtime = JSON.parse(readFileSync(sidecarPath, "utf8"));
        const offset = runtime.transcript_offset;
        if (offset !== statSync(transcript).size)
          return `transcript_offset ${offset}, expected ${statSync(transcript).size}: the transcript was not read`;
        const tokens = runtime.output_tokens;
        if (!(tokens > remembered.tokens)) return `output_tokens ${tokens} did not grow from ${remembered.tokens}`;
      }
      return undefined;
    },
  };
}

/**
 * The prompt hook in a project of its own: with no loop (the todo reminder alone), or with this
 * session's loop running (the hook then checks for an interrupted turn and a question to answer).
 */
function promptCase(id, label, target, session, transcript, check, project = promptProject) {
  const statePath = join(project, ".claude", "continuation-loop.local.md");
  const sidecarPath = join(project, ".claude", "continuation-loop.runtime.json");
  const loop = project === promptLoopProject;
  return {
    id,
    label,
    target,
    exit: 0,
    hook: "prompt",
    cwd: project,
    env: env(project),
    input: promptInput(session, transcript, project),
    reset() {
      if (!loop) return;
      writeFileSync(statePath, stateText());
      writeFileSync(sidecarPath, sidecarText(transcript, small));
    },
    after() {
      rmSync(statePath, { force: true });
      rmSync(sidecarPath, { force: true });
    },
    check,
  };
}

// Targets are ratios to `node -e 0`; cases without one are measured for the record.
const allCases = [
  {
    id: "stop-idle",
    label: "Stop, no loop (idle path)",
    target: 1.1,
    exit: 0,
    hook: "stop",
    cwd: idle,
    env: env(idle),
    input: stopInput(idle, smallPath),
    reset() {},
    check: quiet,
  },
  {
    id: "stop-idle-20",
    label: "Stop, 20 loops of other sessions (idle)",
    target: 1.1,
    exit: 0,
    hook: "stop",
    cwd: crowded,
    env: env(crowded),
    input: stopInput(crowded, smallPath),
    reset() {},
    check: quiet,
  },
  ...[
    ["session-compact", "SessionStart(compact), no loop", { hook_event_name: "SessionStart", source: "compact" }],
    ["session-clear", "SessionStart(clear), no loop carried", { hook_event_name: "SessionStart", source: "clear" }],
    ["session-end", "SessionEnd(clear), no loop", { hook_event_name: "SessionEnd", reason: "clear" }],
    ["stop-failure", "StopFailure, no loop", { hook_event_name: "StopFailure", error: "rate_limit" }],
  ].map(([id, label, fields]) => ({
    id,
    label,
    target: 1.1,
    exit: 0,
    hook: "session",
    cwd: idle,
    env: env(idle),
    input: JSON.stringify({ session_id: SESSION, transcript_path: smallPath, cwd: idle, ...fields }),
    reset() {},
    check: quiet,
  })),
  activeCase("stop-active", "Stop, active loop, no transcript", 1.35, plain, undefined, undefined),
  activeCase("stop-active-10k", "Stop, active loop, 10 KB transcript", 1.35, plain, smallPath, small),
  activeCase("stop-active-big", `Stop, active loop, ${BIG_MB} MB transcript`, 1.35, plain, bigPath, big),
  activeCase("stop-active-10k-git", "Stop, active, 10 KB, in a git repo", 1.35, gitProject, smallPath, small),
  activeCase(
    "stop-active-checkpoints",
    "Stop, active, checkpoints, 5,000-file git repo",
    undefined,
    bigGitProject,
    smallPath,
    small,
    {},
    "checkpoints: true",
  ),
  activeCase("stop-active-10k-nocache", "Stop, active, 10 KB, no code cache", undefined, plain, smallPath, small, {
    CONTINUATION_LOOP_CODE_CACHE: "0",
  }),
  promptCase("prompt-none", "Prompt hook, no todos", 1.25, SESSION, smallPath, quiet),
  promptCase("prompt-50", "Prompt hook, 50 todos", 1.25, TODO_SESSION, smallPath, (run) => {
    if (run.status !== 0) return `exit ${run.status}`;
    let context;
    try {
      context = JSON.parse(run.stdout).hookSpecificOutput.additionalContext;
    } catch {
      return `stdout is not the reminder JSON: ${run.stdout.slice(0, 300)}`;
    }
    if (!context.startsWith("[SYSTEM REMINDER - TODO CONTINUATION]"))
      return `reminder does not start with the marker: ${context.slice(0, 100)}`;
    if (!context.includes("and 28 more"))
      return `expected 2 in progress, 5 of 33 pending shown ("and 28 more"): ${context}`;
    return undefined;
  }),
  promptCase("prompt-none-big", `Prompt hook, no todos, ${BIG_MB} MB transcript`, undefined, SESSION, bigPath, quiet),
  promptCase(
    "prompt-loop",
    "Prompt hook, this session's loop running",
    1.25,
    SESSION,
    smallPath,
    quiet,
    promptLoopProject,
  ),
];
const cases = ONLY.length ? allCases.filter((c) => ONLY.includes(c.id)) : allCases;
if (cases.length === 0) fail(`--only matches no case; cases: ${allCases.map((c) => c.id).join(", ")}`);
const BIG_VS_SMALL = 1.05;
const MAX_RSS_MB = 60;

const baseline = {
  id: "baseline",
  label: "node -e 0",
  exit: 0,
  cmd: ["-e", "0"],
  cwd: plain,
  env: env(plain),
  input: stopInput(plain, smallPath),
  reset() {},
};

function spawnCase(c, prefix = []) {
  const argv = c.cmd ?? [join(HOOKS, `${c.hook}.js`)];
  const [file, ...rest] = prefix.length ? [...prefix, process.execPath, ...argv] : [process.execPath, ...argv];
  return spawnSync(file, rest, {
    input: c.input,
    cwd: c.cwd,
    env: c.env,
    encoding: "utf8",
    timeout: 60_000,
    maxBuffer: 16 * 1024 * 1024,
  });
}

function timed(c) {
  c.reset();
  const start = process.hrtime.bigint();
  const run = spawnCase(c);
  const ms = Number(process.hrtime.bigint() - start) / 1e6;
  if (run.error) fail(`${c.label}: ${run.error.message}`);
  // Exit status only here: reading files back would cost time between runs, not in them.
  if (run.status !== c.exit)
    fail(`${c.label}: exit ${run.status} during timing (expected ${c.exit}); stderr: ${run.stderr.slice(0, 500)}`);
  return ms;
}

// ---------------------------------------------------------------- check every case once
if (KEEP) {
  // For profiling by hand: each case's stdin (and state file and sidecar) beside the fixtures.
  for (const c of cases) {
    writeFileSync(join(TMP, `${c.id}.stdin.json`), c.input);
    if (c.stateText) writeFileSync(join(TMP, `${c.id}.state.md`), c.stateText);
    if (c.sidecarText) writeFileSync(join(TMP, `${c.id}.runtime.json`), c.sidecarText);
  }
}
for (const c of cases) {
  c.reset();
  const run = spawnCase(c);
  const problem = run.error ? run.error.message : c.check(run);
  if (problem) fail(`${c.label}: the fixture does not behave as expected, so timing it would mean nothing: ${problem}`);
}
console.log(
  `bench: ${cases.length} cases checked; ${WARMUP} warm-up and ${RUNS} timed rounds (baseline before every case) …`,
);
// The fixtures (a 200 MB transcript, a 5,000-file repository) leave the kernel hundreds of MB to write
// back: settled first, so the hooks' fsync does not queue behind the bench's own writes.
if (platform() !== "win32") execFileSync("sync");

// ---------------------------------------------------------------- timing
const loadBefore = loadavg()[0];
const samples = Object.fromEntries([baseline, ...cases].map((c) => [c.id, []]));
/** Each case run over the baseline run just before it: both saw the same moment's load. */
const paired = Object.fromEntries(cases.map((c) => [c.id, []]));
const started = Date.now();
for (let round = -WARMUP; round < RUNS; round++) {
  for (let k = 0; k < cases.length; k++) {
    const c = cases[(k + round + WARMUP) % cases.length];
    const b = timed(baseline);
    const t = timed(c);
    if (round >= 0) {
      samples.baseline.push(b);
      samples[c.id].push(t);
      paired[c.id].push(t / b);
    }
  }
  if (round >= 0 && (round + 1) % 10 === 0)
    process.stdout.write(`bench: ${round + 1}/${RUNS} rounds (${((Date.now() - started) / 1000).toFixed(0)} s)\n`);
}

// ---------------------------------------------------------------- peak RSS (separate runs)
const GNU_TIME = ["/usr/bin/time", "/bin/time"].find((p) => {
  if (!existsSync(p)) return false;
  const probe = spawnSync(p, ["-f", "%M", process.execPath, "-e", "0"], { encoding: "utf8" });
  return probe.status === 0 && /^\d+\s*$/m.test(probe.stderr.trim().split("\n").at(-1) ?? "");
});
const RSS_METHOD = GNU_TIME ? `${GNU_TIME} -f %M` : "process.resourceUsage().maxRSS at exit (--import preload)";
const PRELOAD = join(TMP, "maxrss.mjs");
writeFileSync(
  PRELOAD,
  'import{writeFileSync}from"node:fs";process.on("exit",()=>writeFileSync(process.env.BENCH_RSS_FILE,String(process.resourceUsage().maxRSS)));\n',
);

function peakRssMb(c) {
  const file = join(TMP, "rss.txt");
  rmSync(file, { force: true });
  c.reset();
  let run;
  if (GNU_TIME) {
    run = spawnCase(c, [GNU_TIME, "-o", file, "-f", "%M"]);
  } else {
    const argv = c.cmd ?? [join(HOOKS, `${c.hook}.js`)];
    run = spawnSync(process.execPath, ["--import", PRELOAD, ...argv], {
      input: c.input,
      cwd: c.cwd,
      env: { ...c.env, BENCH_RSS_FILE: file },
      encoding: "utf8",
      maxBuffer: 16 * 1024 * 1024,
    });
  }
  if (run.error) fail(`${c.label}: ${run.error.message}`);
  return Number(readFileSync(file, "utf8").trim().split("\n").at(-1)) / 1024;
}
const rss = {};
for (const c of [baseline, ...cases]) rss[c.id] = Math.max(...[0, 1, 2].map(() => peakRssMb(c)));
for (const c of cases) c.after?.();

// ---------------------------------------------------------------- results
const quantile = (xs, q) => {
  const s = [...xs].sort((a, b) => a - b);
  const i = (s.length - 1) * q;
  const lo = Math.floor(i);
  return s[lo] + (s[Math.ceil(i)] - s[lo]) * (i - lo);
};
const median = (xs) => quantile(xs, 0.5);
const base = median(samples.baseline);
const round2 = (x) => Math.round(x * 100) / 100;
const round3 = (x) => Math.round(x * 1000) / 1000;

const rows = [
  {
    id: "baseline",
    label: "node -e 0 (baseline)",
    median_ms: round2(base),
    ratio: 1,
    p90_ms: round2(quantile(samples.baseline, 0.9)),
    min_ms: round2(quantile(samples.baseline, 0)),
    peak_rss_mb: round2(rss.baseline),
  },
];
for (const c of cases) {
  const m = median(samples[c.id]);
  const ratio = m / base;
  const row = {
    id: c.id,
    label: c.label,
    median_ms: round2(m),
    ratio: round3(ratio),
    paired_ratio: round3(median(paired[c.id])),
    p90_ms: round2(quantile(samples[c.id], 0.9)),
    min_ms: round2(quantile(samples[c.id], 0)),
    peak_rss_mb: round2(rss[c.id]),
  };
  rows.push(
    c.target === undefined
      ? { ...row, target: `≤ ${MAX_RSS_MB} MB (latency: for the record)`, pass: rss[c.id] <= MAX_RSS_MB }
      : {
          ...row,
          target: `≤ ${c.target.toFixed(2)}×, ≤ ${MAX_RSS_MB} MB`,
          pass: ratio <= c.target && rss[c.id] <= MAX_RSS_MB,
        },
  );
}
const bigVsSmall =
  samples["stop-active-big"]?.length && samples["stop-active-10k"]?.length
    ? median(samples["stop-active-big"]) / median(samples["stop-active-10k"])
    : undefined;
const scaling =
  bigVsSmall === undefined
    ? undefined
    : {
        id: "big-vs-10k",
        label: `${BIG_MB} MB transcript vs 10 KB (active Stop)`,
        ratio: round3(bigVsSmall),
        target: `≤ ${BIG_VS_SMALL.toFixed(2)}×`,
        pass: bigVsSmall <= BIG_VS_SMALL,
      };

const fmt = (s, n, right = false) => (right ? String(s).padStart(n) : String(s).padEnd(n));
const header = `${fmt("case", 44)} ${fmt("median", 8, true)} ${fmt("ratio", 6, true)} ${fmt("paired", 6, true)} ${fmt("p90", 8, true)} ${fmt("peak RSS", 9, true)}  target`;
console.log(`\n${header}\n${"-".repeat(header.length + 40)}`);
for (const r of rows) {
  const target = r.target === undefined ? "" : `${r.pass ? "pass" : "FAIL"}  ${r.target}`;
  const pairedText = r.paired_ratio === undefined ? "" : `${r.paired_ratio.toFixed(2)}×`;
  console.log(
    `${fmt(r.label, 44)} ${fmt(`${r.median_ms.toFixed(1)} ms`, 8, true)} ${fmt(`${r.ratio.toFixed(2)}×`, 6, true)} ${fmt(pairedText, 6, true)} ${fmt(`${r.p90_ms.toFixed(1)} ms`, 8, true)} ${fmt(`${r.peak_rss_mb.toFixed(1)} MB`, 9, true)}  ${target}`,
  );
}
if (scaling)
  console.log(
    `${fmt(scaling.label, 44)} ${fmt("", 8)} ${fmt(`${scaling.ratio.toFixed(2)}×`, 6, true)} ${fmt("", 6)} ${fmt("", 8)} ${fmt("", 9)}  ${scaling.pass ? "pass" : "FAIL"}  ${scaling.target}`,
  );

const load = { before: round2(loadBefore), after: round2(loadavg()[0]) };
const machine = {
  cpu: cpus()[0]?.model ?? "unknown",
  cores: cpus().length,
  memory_gb: Math.round(totalmem() / 1024 ** 3),
  os: `${platform()} ${release()}`,
  node: process.version,
  date: new Date().toISOString(),
  load_average_1min: load,
};
console.log(
  `\n${machine.cpu}, ${machine.cores} cores, ${machine.os}, Node ${machine.node}, load average ${load.before} → ${load.after}; ${RUNS} rounds; ratio = median / median of ${samples.baseline.length} interleaved \`node -e 0\` runs; paired = median of each run over the baseline run just before it; peak RSS: ${RSS_METHOD}, max of 3 runs.`,
);

const bundles = {};
for (const name of ["stop.js", "prompt.js", "cli.js"])
  if (existsSync(join(HOOKS, name))) bundles[name] = statSync(join(HOOKS, name)).size;
for (const name of existsSync(join(HOOKS, "chunks")) ? readdirSync(join(HOOKS, "chunks")) : [])
  bundles[`chunks/${name}`] = statSync(join(HOOKS, "chunks", name)).size;

const results = {
  machine,
  method: {
    rounds: RUNS,
    warmup_rounds: WARMUP,
    baseline:
      "node -e 0 with the same stdin, run right before every case run (interleaved; case order rotates each round)",
    ratio: "median(case) / median(all baseline runs); targets are judged on it",
    paired_ratio:
      "median over the case's runs of (case run / the baseline run just before it): less sensitive to load that changes during the run",
    peak_rss: `${RSS_METHOD}, separate runs after the timed ones, max of 3`,
    transcripts_bytes: sizes,
    git: "only stop-active-10k-git runs in a git repository (with uncommitted changes), where stall detection runs `git status` and `git diff`; the other cases run outside git",
    code_cache:
      "the hooks keep V8's code cache of their chunks under TMPDIR; the check run before timing writes it, and one run in 16 saves it again (as for users). stop-active-10k-nocache runs with CONTINUATION_LOOP_CODE_CACHE=0",
  },
  cases: rows,
  ...(scaling && { scaling }),
  bundles_bytes: bundles,
  samples_ms: Object.fromEntries(Object.entries(samples).map(([k, v]) => [k, v.map(round2)])),
};
writeFileSync(OUT, `${JSON.stringify(results, null, 2)}\n`);
console.log(`bench: wrote ${OUT}`);
const failed = [
  ...rows.filter((r) => r.pass === false).map((r) => r.id),
  ...(scaling && !scaling.pass ? [scaling.id] : []),
];
console.log(failed.length ? `bench: targets not met: ${failed.join(", ")}` : "bench: every target met");
