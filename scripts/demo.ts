// A 3-turn loop through the real Claude Code CLI, offline: a scripted model stands in for the API.
// Run with `npm run demo`. It shows what Claude is sent at each stop and what the user is told.
import { randomUUID } from "node:crypto";
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startMessagesServer, text } from "../test/e2e/support/messagesServer.js";
import { lastUserText } from "../test/e2e/support/requestText.js";
import { CLAUDE_VERSIONS, REPO_ROOT, hookSystemMessages, runClaude } from "../test/e2e/support/runClaude.js";

const root = mkdtempSync(join(tmpdir(), "continuation-loop-demo-"));
const project = join(root, "project");
mkdirSync(project);
const replies = [
  "I fixed the tokenizer; two tests still fail.",
  "Fixed the parser; one test left.",
  "Fixed the last one. All tests passing.",
];
const server = await startMessagesServer(replies.map((reply) => text(reply, { output_tokens: 120 })));
const prompt =
  '/continuation-loop:loop-start --max-iterations 5 --completion-promise "all tests passing" Make the test suite pass';

console.log(`$ claude --plugin-dir <this checkout> -p '${prompt}'\n`);
const run = await runClaude({
  // The newest pinned release: the one users run.
  version: CLAUDE_VERSIONS[CLAUDE_VERSIONS.length - 1]!,
  prompt,
  baseUrl: server.url,
  cwd: project,
  home: join(root, "home"),
  pluginDirs: [REPO_ROOT],
  sessionId: randomUUID(),
});
for (const [i, request] of server.mainRequests.entries()) {
  const sent =
    i === 0
      ? "(the user's /loop-start, with the hook's note)"
      : lastUserText(request).replace(/^Stop hook feedback:\n\[[^\]]*\]: /, "");
  console.log(
    `── model turn ${i + 1}: Claude was sent ──\n${sent.trim()}\n── Claude replied: ${replies[i] ?? "(nothing)"}\n`,
  );
}
console.log("── the user was told ──");
for (const message of hookSystemMessages(run.transcriptPath, "Stop")) console.log(message);
console.log("\n── .claude/continuation-loop.history.jsonl ──");
console.log(readFileSync(join(project, ".claude", "continuation-loop.history.jsonl"), "utf8").trim());
await server.close();
rmSync(root, { recursive: true, force: true });
process.exitCode = run.code === 0 && server.mainRequests.length === 3 ? 0 : 1;
