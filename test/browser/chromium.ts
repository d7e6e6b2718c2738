// Drives Debian's headless Chromium through the DevTools protocol over a pipe (--remote-debugging-pipe):
// no browser download, no npm driver. Not a test file.
import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { Readable, Writable } from "node:stream";

/** The browser: $CHROMIUM when set, else the first of Debian's and other usual names on PATH. */
function findChromium(): string {
  const names = [process.env.CHROMIUM, "chromium", "chromium-browser", "google-chrome"].filter(Boolean) as string[];
  for (const name of names) {
    const found = spawnSync("sh", ["-c", `command -v "${name}"`], { encoding: "utf8" }).stdout.trim();
    if (found) return found;
  }
  throw new Error(
    "no Chromium found (looked for $CHROMIUM, chromium, chromium-browser, google-chrome): install it with `apt-get install -y --no-install-recommends chromium` (.ci/run does)",
  );
}

type Json = Record<string, unknown>;

export class Browser {
  private readonly child: ChildProcess;
  private readonly profile = fs.mkdtempSync(path.join(os.tmpdir(), "cl-chromium-"));
  private next = 1;
  private readonly pending = new Map<number, { resolve: (v: Json) => void; reject: (e: Error) => void }>();
  private readonly listeners: Array<(method: string, params: Json, sessionId?: string) => void> = [];
  private buffer = "";

  constructor() {
    const args = [
      "--headless=new",
      "--remote-debugging-pipe",
      "--no-sandbox",
      "--disable-gpu",
      "--no-first-run",
      "--no-default-browser-check",
      "--disable-extensions",
      "--hide-scrollbars",
      `--user-data-dir=${this.profile}`,
      "about:blank",
    ];
    this.child = spawn(findChromium(), args, { stdio: ["ignore", "ignore", "pipe", "pipe", "pipe"] });
    this.child.stderr?.resume();
    const out = this.child.stdio[4] as Readable;
    out.setEncoding("utf8");
    out.on("data", (chunk: string) => {
      this.buffer += chunk;
      let end = this.buffer.indexOf("\0");
      while (end >= 0) {
        const message = JSON.parse(this.buffer.slice(0, end)) as Json;
        this.buffer = this.buffer.slice(end + 1);
        this.dispatch(message);
        end = this.buffer.indexOf("\0");
      }
    });
    this.child.on("exit", (code) => {
      for (const p of this.pending.values()) p.reject(new Error(`Chromium exited (${code})`));
      this.pending.clear();
    });
  }

  private dispatch(message: Json): void {
    if (typeof message.id === "number") {
      const waiting = this.pending.get(message.id);
      this.pending.delete(message.id);
      if (message.error) waiting?.reject(new Error(JSON.stringify(message.error)));
      else waiting?.resolve((message.result ?? {}) as Json);
      return;
    }
    for (const listen of this.listeners)
      listen(String(message.method), (message.params ?? {}) as Json, message.sessionId as string | undefined);
  }

  send(method: string, params: Json = {}, sessionId?: string): Promise<Json> {
    const id = this.next++;
    const pipe = this.child.stdio[3] as Writable;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      pipe.write(`${JSON.stringify({ id, method, params, ...(sessionId && { sessionId }) })}\0`);
    });
  }

  /** The next event `method` (of `sessionId`), waited for. */
  waitFor(method: string, sessionId?: string): Promise<Json> {
    return new Promise((resolve) => {
      const listen = (m: string, params: Json, s?: string) => {
        if (m !== method || (sessionId && s !== sessionId)) return;
        this.listeners.splice(this.listeners.indexOf(listen), 1);
        resolve(params);
      };
      this.listeners.push(listen);
    });
  }

  /** A new page with scripts off, at `width`×`height`, in the given colour scheme, with `file` loaded. */
  async open(file: string, options: { width: number; height: number; scheme: "light" | "dark" }): Promise<Page> {
    const { targetId } = (await this.send("Target.createTarget", { url: "about:blank" })) as { targetId: string };
    const { sessionId } = (await this.send("Target.attachToTarget", { targetId, flatten: true })) as {
      sessionId: string;
    };
    const page = new Page(this, sessionId);
    await page.send("Page.enable");
    await page.send("Emulation.setScriptExecutionDisabled", { value: true });
    await page.send("Emulation.setEmulatedMedia", {
      features: [{ name: "prefers-color-scheme", value: options.scheme }],
    });
    await page.send("Emulation.setDeviceMetricsOverride", {
      width: options.width,
      height: options.height,
      deviceScaleFactor: 1,
      mobile: false,
    });
    const loaded = this.waitFor("Page.loadEventFired", sessionId);
    await page.send("Page.navigate", { url: `file://${file}` });
    await loaded;
    return page;
  }

  async close(): Promise<void> {
    const exited = new Promise((resolve) => this.child.once("exit", resolve));
    if (this.child.exitCode === null) {
      await this.send("Browser.close").catch(() => undefined);
      await exited;
    }
    fs.rmSync(this.profile, { recursive: true, force: true });
  }
}

export interface Box {
  width: number;
  height: number;
}

export class Page {
  constructor(
    private readonly browser: Browser,
    private readonly sessionId: string,
  ) {}

  send(method: string, params: Json = {}): Promise<Json> {
    return this.browser.send(method, params, this.sessionId);
  }

  /** The layout boxes of the elements `selector` matches (DOM domain: no script runs in the page). */
  async boxes(selector: string): Promise<Box[]> {
    const { root } = (await this.send("DOM.getDocument", { depth: 0 })) as { root: { nodeId: number } };
    const { nodeIds } = (await this.send("DOM.querySelectorAll", { nodeId: root.nodeId, selector })) as {
      nodeIds: number[];
    };
    const out: Box[] = [];
    for (const nodeId of nodeIds) {
      const model = (await this.send("DOM.getBoxModel", { nodeId }).catch(() => undefined)) as
        | { model: { width: number; height: number } }
        | undefined;
      out.push({ width: model?.model.width ?? 0, height: model?.model.height ?? 0 });
    }
    return out;
  }

  /** The page as a PNG, from its top: whole, or its first `maxHeight` pixels. */
  async screenshot(maxHeight = Number.POSITIVE_INFINITY): Promise<Buffer> {
    const metrics = (await this.send("Page.getLayoutMetrics")) as { cssContentSize: { width: number; height: number } };
    const { width } = metrics.cssContentSize;
    const height = Math.min(maxHeight, metrics.cssContentSize.height);
    const { data } = (await this.send("Page.captureScreenshot", {
      format: "png",
      captureBeyondViewport: true,
      clip: { x: 0, y: 0, width, height, scale: 1 },
    })) as { data: string };
    return Buffer.from(data, "base64");
  }
}
