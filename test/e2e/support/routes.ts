// The three routes a loop runs on, for tests whose behaviour differs with the companion module: the oldest
// pin's command hooks, the newest with its module, and the newest's command hooks with the module off.
import { type ClaudeVersion, NEWEST, OLDEST } from "./runClaude.js";

export interface Route {
  title: string;
  version: ClaudeVersion;
  /** The companion module runs: any running task holds the loop. */
  module: boolean;
  env: Record<string, string>;
}

export const ROUTES: Route[] = [
  { title: `${OLDEST.name}, command hooks`, version: OLDEST, module: false, env: {} },
  { title: `${NEWEST.name}, companion module`, version: NEWEST, module: true, env: {} },
  {
    title: `${NEWEST.name}, command hooks (CONTINUATION_LOOP_MODULE=0)`,
    version: NEWEST,
    module: false,
    env: { CONTINUATION_LOOP_MODULE: "0" },
  },
];
