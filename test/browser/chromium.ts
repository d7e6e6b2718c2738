// Drives a headless Chromium through the DevTools protocol over a pipe (--remote-debugging-pipe), with no npm
// driver. The browser is a system Chromium or Chrome when one is present, else the build shipped inside the
// @sparticuz/chromium devDependency, so `npm ci && npm test` needs no browser installed (CONTRIBUTING.md "The
// browser"). Not a test file.
import { type ChildProcess, spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { Readable, Writable } from "node:stream";
import packaged from "@sparticuz/chromium";

/** How to start one browser, and where it came from (shown in a failure and in the tests' log). */
interface Launcher {
  executable: string;
  args: string[];
  env: NodeJS.ProcessEnv;
  origin: string;
}

const SYSTEM_NAMES = ["chromium", "chromium-browser", "google-chrome", "google-chrome-stable"];
const MAC_APPS = ["Google Chrome.app/Contents/MacOS/Google Chrome", "Chromium.app/Contents/MacOS/Chromium"];
const START_TIMEOUT_MS = 30_000;
const WHAT_TO_DO =
  "install Chromium or Chrome, or set CHROMIUM to one, or run `npm ci` for the devDependency @sparticuz/chromium (Linux x64)";

/** `name` as an executable: a path, or the first match on PATH. */
function resolveExecutable(name: string): string | undefined {
  if (name.includes("/")) return isExecutable(name) ? name : undefined;
  for (const dir of (process.env.PATH ?? "").split(path.delimiter)) {
    const file = path.join(dir || ".", name);
    if (isExecutable(file)) return file;
  }
  return undefined;
}

function isExecutable(file: string): boolean {
  try {
    fs.accessSync(file, fs.constants.X_OK);
    return fs.statSync(file).isFile();
  } catch {
    return false;
  }
}

/** $CHROMIUM (which must work when set), else a Chromium or Chrome on PATH or in the macOS Applications folders. */
function findSystemBrowser(): string | undefined {
  const chosen = process.env.CHROMIUM;
  if (chosen) {
    const found = resolveExecutable(chosen);
    if (!found) throw new Error(`CHROMIUM=${chosen} is not an executable: set it to a Chromium or Chrome, or unset it`);
    return found;
  }
  for (const name of SYSTEM_NAMES) {
    const found = resolveExecutable(name);
    if (found) return found;
  }
  if (process.platform !== "darwin") return undefined;
  const folders = ["/Applications", path.join(os.homedir(), "Applications")];
  return folders.flatMap((dir) => MAC_APPS.map((app) => path.join(dir, app))).find(isExecutable);
}

/**
 * The packaged build's fonts, written beside it: the system's own where it has any, then the Open Sans the package
 * unpacks into `fonts/`, so that text is drawn on a machine with no fonts installed.
 */
function writeFontConfig(dir: string): string {
  const xml = (s: string) => s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
  const file = path.join(dir, "continuation-loop-fonts.conf");
  fs.writeFileSync(
    file,
    [
      '<?xml version="1.0"?>',
      '<!DOCTYPE fontconfig SYSTEM "fonts.dtd">',
      "<fontconfig>",
      '  <include ignore_missing="yes">/etc/fonts/fonts.conf</include>',
      `  <dir>${xml(path.join(dir, "fonts"))}</dir>`,
      `  <cachedir>${xml(path.join(dir, "fonts-cache"))}</cachedir>`,
      "</fontconfig>",
      "",
    ].join("\n"),
  );
  return file;
}

/** A system browser with the usual headless flags, else the devDependency's build with the flags it documents. */
async function chooseBrowser(): Promise<Launcher> {
  const system = findSystemBrowser();
  if (system) {
    const args = [
      "--headless=new",
      "--no-sandbox",
      "--disable-gpu",
      "--disable-extensions",
      "--no-default-browser-check",
    ];
    return { executable: system, args, env: process.env, origin: system };
  }
  if (process.platform !== "linux" || process.arch !== "x64")
    throw new Error(`no Chromium or Chrome found, and @sparticuz/chromium ships a Linux x64 build only: ${WHAT_TO_DO}`);
  // Unpacked into the temp folder (the test run's own, test/support/tempRoot.ts), once per run.
  const executable = await packaged.executablePath();
  return {
    executable,
    args: packaged.args,
    env: { ...process.env, FONTCONFIG_FILE: writeFontConfig(path.dirname(executable)) },
    origin: `@sparticuz/chromium (${executable})`,
  };
}

type Json = Record<string, unknown>;

export class Browser {
  private readonly child: ChildProcess;
  private readonly profile = fs.mkdtempSync(path.join(os.tmpdir(), "cl-chromium-"));
  private next = 1;
  private readonly pending = new Map<number, { resolve: (v: Json) => void; reject: (e: Error) => void }>();
  private readonly listeners: Array<(method: string, params: Json, sessionId?: string) => void> = [];
  private buffer = "";
  private stderr = "";

  /** A started browser that has answered; one that cannot start fails here, in one line saying what to do. */
  static async launch(): Promise<Browser> {
    const launcher = await chooseBrowser();
    const browser = new Browser(launcher);
    let late = false;
    const timer = setTimeout(() => {
      late = true;
      browser.child.kill("SIGKILL");
    }, START_TIMEOUT_MS);
    try {
      const version = await browser.send("Browser.getVersion");
      browser.product = `${String(version.product)} from ${launcher.origin}`;
      return browser;
    } catch (error) {
      await browser.close();
      const why = late ? `no answer in ${START_TIMEOUT_MS / 1000} s` : (error as Error).message;
      const said = browser.stderr.trim().split("\n").slice(-3).join(" | ");
      throw new Error(`${launcher.origin} did not start (${why}${said && `: ${said}`}): ${WHAT_TO_DO}`);
    } finally {
      clearTimeout(timer);
    }
  }

  /** What runs: the browser's product and version, and where it came from. */
  product = "";
  private ended: Error | undefined;
  private markGone = () => {};
  /** Settles once the process has exited or could not start. */
  private readonly gone = new Promise<void>((resolve) => {
    this.markGone = resolve;
  });

  private constructor(launcher: Launcher) {
    const args = [
      ...launcher.args,
      "--remote-debugging-pipe",
      "--no-first-run",
      "--hide-scrollbars",
      `--user-data-dir=${this.profile}`,
      "about:blank",
    ];
    this.child = spawn(launcher.executable, args, {
      env: launcher.env,
      stdio: ["ignore", "ignore", "pipe", "pipe", "pipe"],
    });
    this.child.on("error", (error) => this.end(error));
    (this.child.stdio[3] as Writable).on("error", () => undefined);
    this.child.stderr?.setEncoding("utf8");
    this.child.stderr?.on("data", (chunk: string) => {
      this.stderr = (this.stderr + chunk).slice(-4000);
    });
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
    this.child.on("exit", (code, signal) => this.end(new Error(`Chromium exited (${code ?? signal})`)));
  }

  private end(error: Error): void {
    this.ended ??= error;
    this.markGone();
    for (const p of this.pending.values()) p.reject(error);
    this.pending.clear();
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
      if (this.ended) return reject(this.ended);
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
    if (!this.ended) await this.send("Browser.close").catch(() => undefined);
    await this.gone;
    fs.rmSync(this.profile, { recursive: true, force: true });
  }
}

/** An element's content box in page pixels (the screenshot's coordinates: pages here are never scrolled). */
export interface Box {
  x: number;
  y: number;
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
        | { model: { content: number[]; width: number; height: number } }
        | undefined;
      const quad = model?.model.content ?? [0, 0];
      const xs = quad.filter((_, i) => i % 2 === 0);
      const ys = quad.filter((_, i) => i % 2 === 1);
      out.push({
        x: Math.min(...xs),
        y: Math.min(...ys),
        width: model?.model.width ?? 0,
        height: model?.model.height ?? 0,
      });
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
