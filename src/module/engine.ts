// The few parts of Claude Code's hooks-module API (early access; docs/REFERENCE.md "The companion module") this module
// uses, typed by hand from the declarations Claude Code 2.1.331 writes: the full file is generated per
// version and is not committed.
export interface Engine {
  env: {
    get(name: string): Promise<string | undefined>;
    set(name: string, value: string | undefined): Promise<unknown>;
  };
  fs: {
    read(path: string, options?: { offset?: number; length?: number }): Promise<string>;
    list(path?: string): Promise<{ name: string; kind: string; mtimeMs: number; size: number }[]>;
    stat(path: string): Promise<{ kind: string; size: number; mtimeMs: number }>;
  };
  process: {
    run(
      argv: readonly string[],
      init?: { cwd?: string; env?: Record<string, string>; stdin?: string; timeoutMs?: number },
    ): Promise<{ exitCode: number; stdout: string; stderr: string }>;
  };
  prompt: { submit(args: { text: string }): Promise<unknown> };
  turn: { abort(input: { turnId: string }): Promise<void> };
  command: {
    run(args: { command: string; args?: string }): Promise<{ text?: string }>;
    register(spec: { name: string; description: string; argumentHint?: string; immediate?: true }): Promise<unknown>;
  };
  plugin: { root: string };
  session: {
    id(): Promise<string>;
    info(): Promise<{ transcriptPath: string }>;
    usage(): Promise<{ cost?: { usd: number }; rateLimits?: { percentUsed?: number; resetsAt?: string }[] }>;
    version(): Promise<{ version: string }>;
  };
  clock: { after(ms: number, fn: () => unknown): { cancel(): void }; every(ms: number, fn: () => unknown): unknown };
  ui: {
    toast(text: string): void;
    notify(text: string): Promise<unknown>;
    log(text: string): void;
    invalidate(event: "ui.render"): void;
    resolve(e: unknown): { Box: unknown; Text: unknown };
  };
}

export interface ClassicStopInput {
  session_id: string;
  cwd?: string;
  agent_id?: string;
  [key: string]: unknown;
}
export interface ClassicStopResult {
  block?: string;
  additionalContext?: string[];
  [key: string]: unknown;
}
/** `session.start`: where the session runs, and whether a person is at its prompt (false for `-p` and the SDK). */
export interface SessionStartInput {
  cwd?: string;
  isInteractive?: boolean;
}
export interface CommandRunInput {
  command: string;
  args: string;
  /** Where the answer shows: the terminal's width as the command runs (80 where none measured). */
  presentation?: { columns?: number };
  [key: string]: unknown;
}
export interface CommandRunResult {
  text?: string;
  isTextDisplayOnly?: true;
  [key: string]: unknown;
}
/** A prompt entering the session (`prompt.submit`): where it came from, as Claude Code stamps it. */
export interface PromptSubmitInput {
  origin?: { kind?: string };
  [key: string]: unknown;
}
/** A `prompt.submit` hook's refusal: the prompt does not enter, and the reason is shown. */
export interface PromptSubmitDrop {
  drop: string;
}
// biome-ignore lint/suspicious/noExplicitAny: each event's input and result are the engine's to define
export type On = (event: string, ...rest: any[]) => any;
