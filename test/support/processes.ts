// Helpers for tests that run the bundled hooks many times: async spawns, tree snapshots, stack-trace checks.
import { spawn } from "node:child_process";
import { createHash } from "node:crypto";
import {
  chmodSync,
  copyFileSync,
  cpSync,
  existsSync,
  linkSync,
  lstatSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  readlinkSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { HOOKS, NODE, REPO } from "./runHook.js";

export interface Run {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
  ms: number;
}

export interface SpawnOptions {
  cwd: string;
  env?: Record<string, string>;
  stdin?: string | Buffer;
  args?: string[];
  /** Killed with SIGKILL after this long (the run then has signal SIGKILL). */
  timeoutMs?: number;
  /** Run as this user (tests running as root use it for permission cases root would bypass). */
  uid?: number;
  /**
   * With `CONTINUATION_LOOP_TEST_CRASH_AT=<point>:pause` in `env`: runs once the hook says it stopped
   * at the point; then (once the promise it returns settles) the hook is continued (SIGCONT, sent until
   * it exits: one sent before its SIGSTOP took hold would be lost).
   */
  whilePaused?: () => void | Promise<void>;
}

/** The unprivileged user root's tests run permission cases as. */
export const NOBODY = 65534;
let nobodyHome: string | undefined;
let nobodyHooks: string | undefined;
/** The checkout may sit in a folder only root can enter: the other user runs a readable copy of hooks/. */
const hooksFor = (uid: number | undefined) => {
  if (uid === undefined) return HOOKS;
  if (!nobodyHooks) {
    const dir = mkdtempSync(join(tmpdir(), "cl-hooks-nobody-"));
    chmodSync(dir, 0o755);
    cpSync(HOOKS, join(dir, "hooks"), { recursive: true });
    nobodyHooks = join(dir, "hooks");
  }
  return nobodyHooks;
};
let nobodyNode: string | undefined;
/** Nor may it reach a Node binary of another line installed in the checkout: it runs a link or copy beside hooks/. */
const nodeFor = (uid: number | undefined) => {
  if (uid === undefined || NODE === process.execPath) return NODE;
  if (!nobodyNode) {
    const node = join(dirname(hooksFor(uid)), "node");
    try {
      linkSync(NODE, node);
    } catch {
      copyFileSync(NODE, node);
    }
    chmodSync(node, 0o755);
    nobodyNode = node;
  }
  return nobodyNode;
};
const homeFor = (uid: number | undefined) => {
  if (uid === undefined) return cleanHome();
  nobodyHome ??= mkdtempSync(join(tmpdir(), "cl-home-nobody-"));
  chmodSync(nobodyHome, 0o755);
  return nobodyHome;
};

/** An empty HOME (and so an empty ~/.claude): no todos, no settings leak in from the machine. */
let emptyHome: string | undefined;
const cleanHome = () => (emptyHome ??= mkdtempSync(join(tmpdir(), "cl-home-")));

/** Runs `node hooks/<name>.js …` without blocking the test worker, so many can run at once. */
export function spawnBundle(name: "stop" | "prompt" | "cli", opts: SpawnOptions): Promise<Run> {
  const started = performance.now();
  const env = { PATH: process.env.PATH ?? "", HOME: homeFor(opts.uid), ...opts.env };
  const user = opts.uid === undefined ? {} : { uid: opts.uid, gid: opts.uid };
  const child = spawn(nodeFor(opts.uid), [join(hooksFor(opts.uid), `${name}.js`), ...(opts.args ?? [])], {
    cwd: opts.cwd,
    env,
    stdio: ["pipe", "pipe", "pipe"],
    ...user,
  });
  const out: Buffer[] = [];
  const err: Buffer[] = [];
  child.stdout.on("data", (b: Buffer) => out.push(b));
  let resume: NodeJS.Timeout | undefined;
  let paused = false;
  let exited = false;
  child.stderr.on("data", (b: Buffer) => {
    err.push(b);
    if (!opts.whilePaused || paused || !Buffer.concat(err).includes("continuation-loop: paused at ")) return;
    paused = true;
    void Promise.resolve(opts.whilePaused()).then(() => {
      if (exited) return;
      resume = setInterval(() => child.kill("SIGCONT"), 10);
      child.kill("SIGCONT");
    });
  });
  // A hook may exit before reading all of a huge stdin: EPIPE is its right, not a test failure.
  child.stdin.on("error", () => {});
  child.stdin.end(opts.stdin ?? "");
  const timer = setTimeout(() => child.kill("SIGKILL"), opts.timeoutMs ?? 20_000);
  return new Promise((resolve, reject) => {
    child.on("error", reject);
    child.on("close", (code, signal) => {
      exited = true;
      clearTimeout(timer);
      clearInterval(resume);
      resolve({
        code,
        signal,
        stdout: Buffer.concat(out).toString("utf8"),
        stderr: Buffer.concat(err).toString("utf8"),
        ms: performance.now() - started,
      });
    });
  });
}

/**
 * The bundles this checkout must have: one per src/entries/<name>.ts that exists. A missing bundle
 * for an existing entry is an error (the test fails), never a skip.
 */
export function requiredBundles(): { present: ("stop" | "prompt" | "cli")[]; missing: string[] } {
  const names = (["stop", "prompt", "cli"] as const).filter(
    (n) => existsSync(join(REPO, "src", "entries", `${n}.ts`)) || existsSync(join(HOOKS, `${n}.js`)),
  );
  return {
    present: names.filter((n) => existsSync(join(HOOKS, `${n}.js`))),
    missing: names.filter((n) => !existsSync(join(HOOKS, `${n}.js`))).map((n) => `hooks/${n}.js`),
  };
}

/** Large files are compared by size, inode and mtime instead of content (a sparse 2 GiB file is not read). */
const HASH_LIMIT = 8 * 1024 * 1024;

/** path → what it is and what it holds, for every entry under the given folders (symlinks not followed). */
export function snapshotTree(...roots: string[]): Map<string, string> {
  const out = new Map<string, string>();
  const walk = (path: string) => {
    const st = lstatSync(path);
    if (st.isSymbolicLink()) out.set(path, `link ${readlinkSync(path)}`);
    else if (st.isDirectory()) {
      out.set(path, `dir ${st.mode & 0o7777}`);
      for (const name of readdirSync(path).sort()) walk(join(path, name));
    } else if (st.isFile()) {
      let content = `ino=${st.ino} mtime=${st.mtimeMs}`; // too big to hash, or unreadable (mode 000)
      try {
        if (st.size <= HASH_LIMIT) content = createHash("sha256").update(readFileSync(path)).digest("hex");
      } catch {
        // keep the inode and mtime
      }
      out.set(path, `file ${st.mode & 0o7777} ${st.size} ${content}`);
    } else out.set(path, `other ${st.mode}`);
  };
  for (const root of roots) walk(root);
  return out;
}

/** Entries that differ between two snapshots, for a readable failure. */
export function treeDiff(before: Map<string, string>, after: Map<string, string>): string[] {
  const keys = new Set([...before.keys(), ...after.keys()]);
  return [...keys]
    .filter((k) => before.get(k) !== after.get(k))
    .map((k) => `${k}: ${before.get(k) ?? "(absent)"} -> ${after.get(k) ?? "(absent)"}`);
}

/** A V8 stack frame ("    at f (file.js:1:2)"), an "XxxError:" dump, or the hooks' last-resort "internal error" message. */
/** A Stop's input on stdin for `session`'s turn that ended with `reply`. */
export const stopInput = (root: string, session: string, reply: string) =>
  JSON.stringify({
    session_id: session,
    cwd: root,
    hook_event_name: "Stop",
    stop_hook_active: true,
    last_assistant_message: reply,
  });

export const CRASH_SIGNS = /^\s+at\s|\b[A-Za-z]*Error:|\binternal error\b/m;
