// A scripted stand-in for the Anthropic Messages API, so e2e tests can drive the
// real Claude Code CLI offline and assert on exactly what it sent to the model.
import http from "node:http";
import type { AddressInfo } from "node:net";

type ContentBlock =
  | { type: "text"; text: string }
  | { type: "tool_use"; id: string; name: string; input: Record<string, unknown> };

export interface Usage {
  input_tokens?: number;
  output_tokens?: number;
}

export interface ScriptedReply {
  content: ContentBlock[];
  /** Answer with this HTTP error instead of a message (see {@link apiError}). */
  error?: { status: number; type: string };
  usage?: Usage;
  /** Defaults to `tool_use` when the reply holds a tool_use block, else `end_turn`. */
  stop_reason?: string;
  /** Response headers sent with the reply or the error (e.g. the rate-limit headers of {@link usageLimit}). */
  headers?: Record<string, string>;
}

/** A request body as Claude Code sends it (only the parts tests look at are typed). */
interface MessagesBody {
  model?: string;
  stream?: boolean;
  system?: string | { type: string; text: string }[];
  messages?: { role: string; content: string | Record<string, unknown>[] }[];
  tools?: { name: string }[];
  [key: string]: unknown;
}

/**
 * `main`: a turn of the session's own agent; `subagent`: a turn of an Agent/Task
 * subagent. Both are answered from the script. `auxiliary`: side requests sent
 * without tools (e.g. session titles), answered with a canned reply.
 */
type RequestKind = "main" | "subagent" | "auxiliary" | "count_tokens" | "other";

export interface RecordedRequest {
  /** Position among all requests the server received. */
  seq: number;
  method: string;
  /** Path without the query string, e.g. `/v1/messages`. */
  path: string;
  query: string;
  headers: http.IncomingHttpHeaders;
  /** Parsed JSON body, or the raw text when it is not JSON (undefined when empty). */
  body: MessagesBody | undefined;
  rawBody: string;
  kind: RequestKind;
  /** Index passed to the script (counts `main` and `subagent` requests), for those kinds. */
  scriptIndex?: number;
  /** What the server answered with, for /v1/messages requests. */
  reply?: ScriptedReply;
  /** True when the script had nothing left and the fallback reply was sent. */
  exhausted?: boolean;
}

type ScriptFn = (req: RecordedRequest, index: number) => ScriptedReply | undefined | Promise<ScriptedReply | undefined>;
export type Script = ScriptedReply[] | ScriptFn;

export interface MessagesServerOptions {
  /** Override how a POST /v1/messages is classified (default: {@link classifyRequest}). */
  classify?: (body: MessagesBody, req: RecordedRequest) => "main" | "subagent" | "auxiliary";
  /** Reply to auxiliary requests (title, topic, quota…); default {@link AUX_REPLY}. */
  auxReply?: (req: RecordedRequest) => ScriptedReply;
}

export interface MessagesServer {
  url: string;
  port: number;
  /** Every request received, in order. */
  requests: RecordedRequest[];
  /** Only the session's own agent turns (kind `main`), in order. */
  readonly mainRequests: RecordedRequest[];
  /** Requests answered from the script (`main` and `subagent`), in script order. */
  readonly scriptedRequests: RecordedRequest[];
  /** True once a scripted request arrived after the script ran out. */
  readonly exhausted: boolean;
  /** Errors thrown by the script (each was answered with HTTP 400). */
  errors: unknown[];
  close(): Promise<void>;
}

/** Text the server sends when the script is used up; tests may look for it. */
export const EXHAUSTED_TEXT = "SCRIPT-EXHAUSTED: the test script has no more replies.";
const AUX_REPLY: ScriptedReply = { content: [{ type: "text", text: "ok" }] };

let toolIds = 0;

/** The Messages API's error type for each status a test sends. */
const ERROR_TYPES = {
  400: "invalid_request_error",
  401: "authentication_error",
  403: "permission_error",
  429: "rate_limit_error",
  500: "api_error",
  529: "overloaded_error",
} as const;

/**
 * An HTTP error as the Messages API sends it: 429 `rate_limit_error` (a rate or usage limit), 529
 * `overloaded_error`, 401 `authentication_error` (a refused key)… Claude Code retries a 429 unless
 * `CLAUDE_CODE_MAX_RETRIES=0`, and a 401 too without `x-should-retry: false` (README.md here).
 */
export function apiError(status: keyof typeof ERROR_TYPES, type: string = ERROR_TYPES[status]): ScriptedReply {
  return { content: [], error: { status, type } };
}

/**
 * A claude.ai usage limit: a 429 with the unified rate-limit headers Claude Code reads for a subscriber
 * (README.md here, "A usage limit"): the 5-hour window used up, resetting at `resetsAt` (ms). With an API
 * key Claude Code ignores the headers and sees a plain rate limit.
 */
export function usageLimit(resetsAt: number): ScriptedReply {
  const reset = String(Math.round(resetsAt / 1000));
  return {
    ...apiError(429),
    headers: {
      "anthropic-ratelimit-unified-status": "rejected",
      "anthropic-ratelimit-unified-reset": reset,
      "anthropic-ratelimit-unified-representative-claim": "five_hour",
      "anthropic-ratelimit-unified-5h-status": "rejected",
      "anthropic-ratelimit-unified-5h-utilization": "1.0",
      "anthropic-ratelimit-unified-5h-reset": reset,
    },
  };
}

export function text(t: string, usage?: Usage): ScriptedReply {
  return { content: [{ type: "text", text: t }], ...(usage ? { usage } : {}) };
}

/** A tool_use block; combine several with {@link reply}. */
function toolUseBlock(name: string, input: Record<string, unknown>, id?: string): ContentBlock {
  return { type: "tool_use", id: id ?? `toolu_e2e_${String(++toolIds).padStart(4, "0")}`, name, input };
}

export function toolUse(
  name: string,
  input: Record<string, unknown>,
  opts: { text?: string; usage?: Usage; id?: string } = {},
): ScriptedReply {
  const content: ContentBlock[] = [];
  if (opts.text !== undefined) content.push({ type: "text", text: opts.text });
  content.push(toolUseBlock(name, input, opts.id));
  return { content, ...(opts.usage ? { usage: opts.usage } : {}) };
}

function systemBlocksText(system: MessagesBody["system"]): string {
  if (typeof system === "string") return system;
  return (system ?? []).map((b) => b.text).join("\n");
}

/**
 * Agent turns carry the tool list; side requests (session title, …) are sent
 * without tools. Subagent turns say `cc_is_subagent=true` in the billing header
 * that opens the system prompt. Measured with 2.1.197; see README.md here.
 */
function classifyRequest(body: MessagesBody): "main" | "subagent" | "auxiliary" {
  if (!Array.isArray(body.tools) || body.tools.length === 0) return "auxiliary";
  return systemBlocksText(body.system).includes("cc_is_subagent=true") ? "subagent" : "main";
}

function stopReasonOf(r: ScriptedReply): string {
  return r.stop_reason ?? (r.content.some((b) => b.type === "tool_use") ? "tool_use" : "end_turn");
}

function estimateTokens(r: ScriptedReply): number {
  const chars = r.content.reduce((n, b) => n + (b.type === "text" ? b.text.length : JSON.stringify(b.input).length), 0);
  return Math.max(1, Math.ceil(chars / 4));
}

function usageOf(r: ScriptedReply): Required<Usage> {
  return { input_tokens: r.usage?.input_tokens ?? 10, output_tokens: r.usage?.output_tokens ?? estimateTokens(r) };
}

function sendJson(res: http.ServerResponse, status: number, value: unknown): void {
  const data = JSON.stringify(value);
  res.writeHead(status, { "content-type": "application/json", "content-length": Buffer.byteLength(data) });
  res.end(data);
}

function sendMessage(res: http.ServerResponse, r: ScriptedReply, model: string, id: string): void {
  const usage = usageOf(r);
  sendJson(res, 200, {
    id,
    type: "message",
    role: "assistant",
    model,
    content: r.content,
    stop_reason: stopReasonOf(r),
    stop_sequence: null,
    usage: { ...usage, cache_creation_input_tokens: 0, cache_read_input_tokens: 0 },
  });
}

function streamMessage(res: http.ServerResponse, r: ScriptedReply, model: string, id: string): void {
  const usage = usageOf(r);
  res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache", connection: "keep-alive" });
  const ev = (type: string, data: Record<string, unknown>): void => {
    res.write(`event: ${type}\ndata: ${JSON.stringify({ type, ...data })}\n\n`);
  };
  ev("message_start", {
    message: {
      id,
      type: "message",
      role: "assistant",
      model,
      content: [],
      stop_reason: null,
      stop_sequence: null,
      usage: {
        input_tokens: usage.input_tokens,
        output_tokens: 1,
        cache_creation_input_tokens: 0,
        cache_read_input_tokens: 0,
      },
    },
  });
  r.content.forEach((block, index) => {
    if (block.type === "text") {
      ev("content_block_start", { index, content_block: { type: "text", text: "" } });
      ev("content_block_delta", { index, delta: { type: "text_delta", text: block.text } });
    } else {
      ev("content_block_start", {
        index,
        content_block: { type: "tool_use", id: block.id, name: block.name, input: {} },
      });
      ev("content_block_delta", {
        index,
        delta: { type: "input_json_delta", partial_json: JSON.stringify(block.input) },
      });
    }
    ev("content_block_stop", { index });
  });
  ev("message_delta", {
    delta: { stop_reason: stopReasonOf(r), stop_sequence: null },
    usage: { output_tokens: usage.output_tokens },
  });
  ev("message_stop", {});
  res.end();
}

function readBody(req: http.IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => resolve(Buffer.concat(chunks).toString("utf8")));
    req.on("error", reject);
  });
}

function parseBody(raw: string): MessagesBody | undefined {
  if (raw === "") return undefined;
  try {
    const v: unknown = JSON.parse(raw);
    return v !== null && typeof v === "object" ? (v as MessagesBody) : undefined;
  } catch {
    return undefined;
  }
}

export async function startMessagesServer(
  script: Script,
  options: MessagesServerOptions = {},
): Promise<MessagesServer> {
  const requests: RecordedRequest[] = [];
  const classify = options.classify ?? ((b: MessagesBody) => classifyRequest(b));
  const auxReply = options.auxReply ?? (() => AUX_REPLY);
  let scriptCount = 0;
  let exhausted = false;
  let msgIds = 0;

  async function nextReply(rec: RecordedRequest, index: number): Promise<ScriptedReply | undefined> {
    if (Array.isArray(script)) return script[index];
    return script(rec, index);
  }

  async function handle(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    const rawBody = await readBody(req);
    const [path = "/", query = ""] = (req.url ?? "/").split("?", 2);
    const body = parseBody(rawBody);
    const rec: RecordedRequest = {
      seq: requests.length,
      method: req.method ?? "GET",
      path,
      query,
      headers: req.headers,
      body,
      rawBody,
      kind: "other",
    };
    requests.push(rec);

    if (rec.method === "POST" && path === "/v1/messages/count_tokens") {
      rec.kind = "count_tokens";
      sendJson(res, 200, { input_tokens: Math.max(1, Math.ceil(rawBody.length / 4)) });
      return;
    }
    if (rec.method !== "POST" || path !== "/v1/messages" || body === undefined) {
      // Connectivity probes (HEAD /) and anything unexpected: answer, never hang.
      if (rec.method === "HEAD") {
        res.writeHead(200);
        res.end();
        return;
      }
      sendJson(res, 404, {
        type: "error",
        error: { type: "not_found_error", message: `e2e server: no route ${rec.method} ${path}` },
      });
      return;
    }

    let r: ScriptedReply;
    const kind = classify(body, rec);
    if (kind !== "auxiliary") {
      rec.kind = kind;
      rec.scriptIndex = scriptCount++;
      const next = await nextReply(rec, rec.scriptIndex);
      if (next === undefined) {
        exhausted = true;
        rec.exhausted = true;
        r = text(EXHAUSTED_TEXT);
      } else {
        r = next;
      }
    } else {
      rec.kind = "auxiliary";
      r = auxReply(rec);
    }
    rec.reply = r;
    const model = typeof body.model === "string" ? body.model : "claude-e2e";
    const id = `msg_e2e_${++msgIds}`;
    for (const [name, value] of Object.entries(r.headers ?? {})) res.setHeader(name, value);
    if (r.error) {
      // `x-should-retry: false`: Claude Code gives up at once (a 529 is retried otherwise, whatever CLAUDE_CODE_MAX_RETRIES says).
      res.setHeader("x-should-retry", "false");
      sendJson(res, r.error.status, { type: "error", error: { type: r.error.type, message: "e2e scripted error" } });
      return;
    }
    if (body.stream === true) streamMessage(res, r, model, id);
    else sendMessage(res, r, model, id);
  }

  const errors: unknown[] = [];
  const server = http.createServer((req, res) => {
    handle(req, res).catch((err: unknown) => {
      errors.push(err);
      // 400, not 500: Claude Code retries 5xx with backoff for minutes, but gives up on a 400 at once.
      if (!res.headersSent)
        sendJson(res, 400, {
          type: "error",
          error: { type: "invalid_request_error", message: `e2e script failed: ${String(err)}` },
        });
      else res.end();
    });
  });
  // Claude Code keeps connections alive; don't let them hold close() open.
  server.keepAliveTimeout = 1000;
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as AddressInfo).port;

  return {
    url: `http://127.0.0.1:${port}`,
    port,
    requests,
    errors,
    get mainRequests() {
      return requests.filter((r) => r.kind === "main");
    },
    get scriptedRequests() {
      return requests.filter((r) => r.scriptIndex !== undefined);
    },
    get exhausted() {
      return exhausted;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
