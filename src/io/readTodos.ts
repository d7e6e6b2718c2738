import type { TodoItem } from "../core/decideStop.js";
import type { Env } from "./paths.js";

export interface TodoSourceOptions {
  env: Env;
  home: string;
  sessionId: string | undefined;
  transcriptPath: string | undefined;
}

/**
 * NOT YET IMPLEMENTED (issue 3 replaces this file): unfinished todos of the session from the
 * first source that exists, or undefined when no source exists.
 */
export function readUnfinishedTodos(_options: TodoSourceOptions): TodoItem[] | undefined {
  throw new Error("readUnfinishedTodos is not implemented yet");
}
