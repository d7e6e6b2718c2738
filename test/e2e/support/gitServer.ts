// A git server on 127.0.0.1 over smart HTTP (git's own `git http-backend`, run as CGI), so a test can add a
// marketplace by URL as a person adds a hosted one: Claude Code clones it, and pulls it on `marketplace update`.
import { spawn } from "node:child_process";
import http from "node:http";
import type { AddressInfo } from "node:net";

export interface GitServer {
  /** `http://127.0.0.1:PORT`: a repository at `<root>/a/b` is at `${url}/a/b/.git` (or `${url}/a/b.git`, bare). */
  url: string;
  /** Requests answered so far. */
  requests: number;
  close(): Promise<void>;
}

/** Serves every repository under `root`, read-only. */
export async function startGitServer(root: string): Promise<GitServer> {
  const state = { requests: 0 };
  const server = http.createServer((req, res) => {
    state.requests++;
    const url = new URL(req.url ?? "/", "http://127.0.0.1");
    const header = (name: string) => String(req.headers[name] ?? "");
    const backend = spawn("git", ["http-backend"], {
      env: {
        PATH: process.env.PATH ?? "",
        GIT_CONFIG_NOSYSTEM: "1",
        GIT_PROJECT_ROOT: root,
        GIT_HTTP_EXPORT_ALL: "1",
        REQUEST_METHOD: req.method ?? "GET",
        PATH_INFO: decodeURIComponent(url.pathname),
        QUERY_STRING: url.search.slice(1),
        CONTENT_TYPE: header("content-type"),
        HTTP_CONTENT_ENCODING: header("content-encoding"),
        HTTP_GIT_PROTOCOL: header("git-protocol"),
        REMOTE_ADDR: "127.0.0.1",
      },
      stdio: ["pipe", "pipe", "ignore"],
    });
    req.pipe(backend.stdin);
    // CGI: header lines, a blank line, then the body.
    let head = Buffer.alloc(0);
    let started = false;
    backend.stdout.on("data", (chunk: Buffer) => {
      if (started) return void res.write(chunk);
      head = Buffer.concat([head, chunk]);
      const end = head.indexOf("\r\n\r\n");
      if (end < 0) return;
      let status = 200;
      const headers: Record<string, string> = {};
      for (const line of head.subarray(0, end).toString("latin1").split("\r\n")) {
        const colon = line.indexOf(":");
        const [name, value] = [line.slice(0, colon).trim(), line.slice(colon + 1).trim()];
        if (name.toLowerCase() === "status") status = Number.parseInt(value, 10);
        else headers[name] = value;
      }
      res.writeHead(status, headers);
      started = true;
      res.write(head.subarray(end + 4));
    });
    backend.on("close", () => {
      if (!started) res.writeHead(500);
      res.end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    get requests() {
      return state.requests;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
