// What Claude Code sent the model, read from the scripted server's record of a request
// (./messagesServer.ts): the text tests assert on.
import type { RecordedRequest } from "./messagesServer.js";

type Message = NonNullable<NonNullable<RecordedRequest["body"]>["messages"]>[number];

/** Text of a message's content (string or text/tool_result blocks), joined with newlines. */
export function messageText(m: Message): string {
  if (typeof m.content === "string") return m.content;
  return m.content.map(blockText).join("\n");
}

function blockText(b: Record<string, unknown>): string {
  if (b.type === "text" && typeof b.text === "string") return b.text;
  if (b.type === "tool_result") {
    const c = b.content;
    if (typeof c === "string") return c;
    if (Array.isArray(c)) return c.map((x) => blockText(x as Record<string, unknown>)).join("\n");
  }
  return "";
}

/** The last message with role `user` (Claude Code also sends `role: "system"` messages). */
export function lastUserMessage(req: RecordedRequest): Message | undefined {
  const msgs = req.body?.messages ?? [];
  for (let i = msgs.length - 1; i >= 0; i--) if (msgs[i]?.role === "user") return msgs[i];
  return undefined;
}

export function lastUserText(req: RecordedRequest): string {
  const m = lastUserMessage(req);
  return m ? messageText(m) : "";
}

/** All message text sent in a request (system prompt excluded). */
export function allMessagesText(req: RecordedRequest): string {
  return (req.body?.messages ?? []).map(messageText).join("\n");
}

/**
 * Text of the `role: "system"` messages Claude Code puts inside `messages`
 * (where UserPromptSubmit `additionalContext` lands, see README.md).
 */
export function systemMessagesText(req: RecordedRequest): string {
  return (req.body?.messages ?? [])
    .filter((m) => m.role === "system")
    .map(messageText)
    .join("\n");
}
