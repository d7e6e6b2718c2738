// src/core/protocol.ts
var LOOP_MARKER = "[SYSTEM REMINDER - CONTINUATION LOOP ACTIVE]";
var FRESH_LINE = "[continuation-loop fresh context]\n";
var BACKGROUND_LINE = "[continuation-loop background]\n";
var renderStopLine = (id) => `[continuation-loop stop ${id}]`;
var ANSWER_COLUMNS_ENV = "CONTINUATION_LOOP_COLUMNS";
var API_RESUME_OPENING = `${LOOP_MARKER} The wait after an API error is over`;
var BACKGROUND_WAKE_OPENING = `${LOOP_MARKER} The wait for background work is over`;

// src/module/background.ts
function readBackgroundPrompt(text) {
  if (!text.endsWith(BACKGROUND_LINE)) return void 0;
  const prompt = text.slice(0, -BACKGROUND_LINE.length);
  return prompt.endsWith(FRESH_LINE) ? prompt.slice(0, -FRESH_LINE.length) : prompt;
}
async function sendToBackground($, prompt) {
  try {
    await $.command.run({ command: "background", args: prompt });
  } catch (error) {
    const why = error instanceof Error ? error.message : String(error);
    try {
      $.ui.log(`this session could not go to the background (${why}); the loop goes on here.`);
    } catch {
    }
    await $.prompt.submit({ text: prompt });
  }
}

// src/core/plainText.ts
var SEQUENCE = /(?:\x1b\[|\x9b)([0-?]*)[ -/]*([@-~])|(?:\x1b[\]PX^_]|[\x90\x98\x9d-\x9f])[^\x07\x1b\x9c\n]*(?:\x07|\x1b\\|\x9c)?|\x1b[ -/]*[0-~]?/y;
var BIDI_CONTROLS = [
  [8234, 8238],
  [8294, 8297]
];
var BIDI_CLASS = BIDI_CONTROLS.map(([first, last]) => `\\u${first.toString(16)}-\\u${last.toString(16)}`).join("");
var isBidiControl = (code) => BIDI_CONTROLS.some(([first, last]) => code >= first && code <= last);
var CONTROL = new RegExp(`[\\x00-\\x08\\x0b-\\x1f\\x7f-\\x9f${BIDI_CLASS}]`);
var CONTROLS = new RegExp(CONTROL.source, "g");
var SEQUENCES = new RegExp(SEQUENCE.source, "g");
var CONTROLS_BUT_BREAKS = new RegExp(`[\\x00-\\x08\\x0b\\x0c\\x0e-\\x1f\\x7f-\\x9f${BIDI_CLASS}]`, "g");
var REDRAW = /[\r\b]|(?:\x1b\[|\x9b)[0-?]*[ -/]*[KG]/;
function renderPlainText(text) {
  if (!CONTROL.test(text)) return text;
  return text.split("\n").map(renderPlainLine).join("\n");
}
function renderPlainLine(line) {
  if (!CONTROL.test(line)) return line;
  if (!REDRAW.test(line)) return line.replace(SEQUENCES, "").replace(CONTROLS, "");
  let cells = [];
  let column = 0;
  const write = (char) => {
    while (cells.length < column) cells.push(" ");
    cells[column++] = char;
  };
  for (let at = 0; at < line.length; ) {
    const code = line.charCodeAt(at);
    if (code === 27 || code >= 128 && code <= 159) {
      SEQUENCE.lastIndex = at;
      const match = SEQUENCE.exec(line);
      if (!match) {
        at++;
        continue;
      }
      at += match[0].length;
      const [, parameter = "", final] = match;
      if (final === "K") {
        if (parameter === "1") cells = cells.map((cell, index) => index <= column ? " " : cell);
        else cells = parameter === "2" ? [] : cells.slice(0, column);
      } else if (final === "G") column = Math.max(0, (Number.parseInt(parameter, 10) || 1) - 1);
      continue;
    }
    if (code === 13) column = 0;
    else if (code === 8) column = Math.max(0, column - 1);
    else if (code === 9 || code >= 32 && code !== 127 && !isBidiControl(code)) {
      const char = String.fromCodePoint(line.codePointAt(at) ?? code);
      write(char);
      at += char.length;
      continue;
    }
    at++;
  }
  return cells.join("");
}

// src/core/cellWidth.ts
var renderRow = (text) => renderPlainText(text).replaceAll("	", " ");
var WIDE = [
  [4352, 4447],
  [8986, 8987],
  [9001, 9002],
  [9193, 9196],
  [9200, 9200],
  [9203, 9203],
  [9725, 9726],
  [9748, 9749],
  [9800, 9811],
  [9855, 9855],
  [9875, 9875],
  [9889, 9889],
  [9898, 9899],
  [9917, 9918],
  [9924, 9925],
  [9934, 9934],
  [9940, 9940],
  [9962, 9962],
  [9970, 9971],
  [9973, 9973],
  [9978, 9978],
  [9981, 9981],
  [9989, 9989],
  [9994, 9995],
  [10024, 10024],
  [10060, 10060],
  [10062, 10062],
  [10067, 10069],
  [10071, 10071],
  [10133, 10135],
  [10160, 10160],
  [10175, 10175],
  [11035, 11036],
  [11088, 11088],
  [11093, 11093],
  [11904, 12350],
  [12353, 13311],
  [13312, 19903],
  [19968, 40959],
  [40960, 42191],
  [43360, 43391],
  [44032, 55203],
  [63744, 64255],
  [65040, 65049],
  [65072, 65135],
  [65280, 65376],
  [65504, 65510],
  [94176, 101119],
  [110592, 111359],
  [126980, 126980],
  [127183, 127183],
  [127374, 127374],
  [127377, 127386],
  // Regional indicators: two of them draw one flag.
  [127462, 127487],
  [127488, 127743],
  [127744, 128591],
  [128640, 128767],
  [128992, 129023],
  [129280, 129535],
  [129648, 129791],
  [131072, 262141]
];
var ZERO = [
  [768, 879],
  [1155, 1161],
  [1425, 1469],
  [1471, 1471],
  [1473, 1474],
  [1476, 1477],
  [1479, 1479],
  [1552, 1562],
  [1564, 1564],
  [1611, 1631],
  [1648, 1648],
  [1750, 1756],
  [1759, 1764],
  [1767, 1768],
  [1770, 1773],
  [6832, 6911],
  [7616, 7679],
  [8203, 8207],
  [8234, 8238],
  [8288, 8292],
  [8294, 8297],
  [8400, 8447],
  [65024, 65039],
  [65056, 65071],
  [65279, 65279],
  [917504, 917631],
  [917760, 917999]
];
var ZWJ = 8205;
var EMOJI_STYLE = 65039;
var within = (ranges, code) => ranges.some(([from, to]) => code >= from && code <= to);
function readCells(code) {
  if (code < 768) return 1;
  if (within(ZERO, code)) return 0;
  return within(WIDE, code) ? 2 : 1;
}
var isModifier = (code) => code >= 127995 && code <= 127999;
var isRegional = (code) => code >= 127462 && code <= 127487;
function* splitClusters(text) {
  let cluster = "";
  let joined = false;
  let flagHalf = false;
  for (const char of text) {
    const code = char.codePointAt(0) ?? 0;
    const attach = cluster !== "" && (joined || readCells(code) === 0 || isModifier(code) || flagHalf && isRegional(code));
    if (attach) cluster += char;
    else {
      if (cluster !== "") yield cluster;
      cluster = char;
    }
    flagHalf = isRegional(code) && !(attach && flagHalf);
    joined = code === ZWJ;
  }
  if (cluster !== "") yield cluster;
}
function readClusterCells(cluster) {
  let cells = 0;
  let emoji = false;
  for (const char of cluster) {
    const code = char.codePointAt(0) ?? 0;
    cells += readCells(code);
    if (code === EMOJI_STYLE) emoji = true;
  }
  return emoji ? Math.max(cells, 2) : cells;
}
function clipToCells(given, width) {
  const text = renderRow(given);
  let cells = 0;
  let kept2 = "";
  let full = false;
  for (const cluster of splitClusters(text)) {
    const next = readClusterCells(cluster);
    if (cells + next > width - 1) full = true;
    cells += next;
    if (cells > width) return `${kept2.trimEnd()}\u2026`;
    if (!full) kept2 += cluster;
  }
  return text;
}

// src/core/duration.ts
function renderDuration(seconds) {
  const s = Math.max(0, Math.round(seconds));
  const d = Math.floor(s / 86400);
  const h2 = Math.floor(s % 86400 / 3600);
  const m = Math.floor(s % 3600 / 60);
  const rest = s % 60;
  const parts = [d ? `${d}d` : "", h2 ? `${h2}h` : "", m ? `${m}m` : "", rest || !d && !h2 && !m ? `${rest}s` : ""];
  return parts.filter(Boolean).join(" ");
}
function elapsedSeconds(state, now) {
  const start = state.started_at ? Date.parse(state.started_at) : Number.NaN;
  return Number.isNaN(start) ? void 0 : Math.max(0, (now - start) / 1e3);
}
function readWaitEnd(since, until, now) {
  return Number.isFinite(since) && since <= until ? Math.min(until, now + (until - since)) : until;
}
function readTimeUpAt(state) {
  const started2 = state.started_at ? Date.parse(state.started_at) : Number.NaN;
  if (state.max_duration === void 0 || !Number.isFinite(started2)) return Number.POSITIVE_INFINITY;
  return started2 + state.max_duration * 1e3;
}

// src/core/formatCount.ts
function formatCount(n) {
  return Number.isSafeInteger(n) ? String(n).replace(/\B(?=(\d{3})+(?!\d))/g, ",") : n.toLocaleString("en-US");
}

// src/core/metric.ts
function renderMetricValue(value) {
  if (value === null) return "none";
  const abs = Math.abs(value);
  if (abs !== 0 && (abs >= 1e9 || abs < 1e-4)) return value.toExponential(3).replace(/\.?0+e/, "e");
  return String(Number(value.toPrecision(abs >= 1e6 ? 10 : 6)));
}
var renderTarget = (target) => `${target.op} ${renderMetricValue(target.value)}`;

// src/core/renderMetric.ts
function renderMetricBrief(state, record) {
  const target = state.metric_target ? ` (${renderTarget(state.metric_target)})` : "";
  return `metric ${record.metric_last === null ? "\u2013" : renderMetricValue(record.metric_last)}${target}`;
}

// src/core/hash.ts
function hashText(text) {
  let h2 = 2166136261;
  for (let i = 0; i < text.length; i++) {
    h2 ^= text.charCodeAt(i);
    h2 = Math.imul(h2, 16777619) >>> 0;
  }
  return h2.toString(16).padStart(8, "0");
}

// src/core/sidecar.ts
var digestOf = (text) => `${text.length}-${hashText(text)}`;
var isObject = (value) => typeof value === "object" && value !== null && !Array.isArray(value);
function readSidecarView(text) {
  let raw;
  try {
    raw = JSON.parse(text);
  } catch {
    return void 0;
  }
  if (!isObject(raw) || !isObject(raw.view) || typeof raw.view.state_digest !== "string") return void 0;
  const { loop: _owner, view, ...runtime } = raw;
  const { state_digest, state, checklist } = view;
  return {
    digest: state_digest,
    view: { state, runtime, ...typeof checklist === "string" && { checklist } }
  };
}
function readPause(active, runtime) {
  const pause = runtime.pause;
  if (!pause) return void 0;
  return pause.reason === "question" || !active ? pause : void 0;
}
var STEPS_PER_DOLLAR = 1e10;
function readLoopSpend(runtime) {
  const spend = runtime.spend;
  return spend ? Math.round(Math.max(0, spend.figure - spend.baseline) * STEPS_PER_DOLLAR) / STEPS_PER_DOLLAR : void 0;
}

// src/core/renderStatusline.ts
var fmt = formatCount;
function renderStatusline(state, runtime, now, sessionId) {
  const parts = [
    `${state.active && runtime.pause?.reason !== "question" ? "loop" : "loop paused"} ${state.iteration_count}/${state.max_iterations}`
  ];
  const elapsed = elapsedSeconds(state, now);
  if (elapsed !== void 0)
    parts.push(
      state.max_duration ? `${renderDuration(elapsed)}/${renderDuration(state.max_duration)}` : renderDuration(elapsed)
    );
  const tokens = runtime.output_tokens;
  if (tokens > 0 || state.max_tokens)
    parts.push(`${fmt(tokens)}${state.max_tokens ? `/${fmt(state.max_tokens)}` : ""} tok`);
  const spent = readLoopSpend(runtime);
  if (spent !== void 0 || state.max_cost !== void 0)
    parts.push(`$${(spent ?? 0).toFixed(2)}${state.max_cost !== void 0 ? `/$${state.max_cost.toFixed(2)}` : ""}`);
  if (state.metric !== void 0) parts.push(renderMetricBrief(state, runtime));
  if (state.session_id && sessionId && state.session_id !== sessionId) parts.push("other session");
  return `\u27F3 ${parts.join(" \xB7 ")}`;
}

// src/core/background.ts
function readHoldSince(hold) {
  return Math.min(...hold.tasks.map((task) => Date.parse(task.since)));
}
function readWakeAt(hold, boundS) {
  return readHoldSince(hold) + boundS * 1e3;
}
function renderTaskNames(tasks) {
  const names = tasks.map((task) => task.description.replace(/\s+/g, " ").slice(0, 60));
  return names.length > 3 ? `${names.slice(0, 2).join(", ")} and ${names.length - 2} more` : names.join(", ");
}
function renderWaitingFor(tasks, max = Number.POSITIVE_INFINITY) {
  const n = tasks.length;
  const head = `waiting for ${n} background task${n === 1 ? "" : "s"} (`;
  const names = renderTaskNames(tasks);
  const room = max - head.length - 1;
  return `${head}${clipToCells(names, Math.max(2, room))})`;
}

// src/module/band.ts
function renderPause(view) {
  const pause = readPause(view.state.active, view.runtime);
  if (pause?.reason === "question") return `Claude asks: ${clipToCells(pause.text, 40)} \u2014 your next prompt answers it`;
  if (pause?.reason === "api_errors")
    return `after ${view.runtime.api_errors_since_stop} API errors in a row \u2014 /loop-resume (or active: true) resumes it`;
  if (!view.state.active) return "/loop-resume (or active: true) resumes it";
  return "";
}
function renderBand(view, now, sessionId, wait2, turnRuns = false, interruptedHold) {
  const line = renderStatusline(view.state, view.runtime, now, sessionId).replace(/^⟳ /, "");
  const parts = [`${renderBandHead(view.name)}${line}`];
  if (view.checklist) parts.push(`checklist ${view.checklist}`);
  const pause = renderPause(view);
  const hold = view.runtime.background_hold;
  if (pause) parts.push(pause);
  else if (wait2) parts.push(wait2);
  else if (hold && !turnRuns && hold.since !== interruptedHold) parts.push(renderWaitingFor(hold.tasks));
  else if (view.runtime.plan_hold && !turnRuns) parts.push("waiting: plan mode");
  return renderPlainText(parts.join(" \xB7 "));
}
function renderInvalidBand(name) {
  return renderPlainText(`${renderBandHead(name)}state file invalid, paused: /loop-status says why`);
}
function renderBandHead(name) {
  return `\u27F3 continuation-loop ${name === "default" ? "" : `${name} `}\xB7 `;
}

// src/module/continuation.ts
var stopLine = renderStopLine;
function readContinuation(entry, id) {
  if (typeof entry !== "string" || !entry.startsWith(LOOP_MARKER)) return void 0;
  const line = `${stopLine(id)}
`;
  return entry.endsWith(line) ? entry.slice(0, -line.length) : void 0;
}
function takeContinuation(result, id) {
  const context = Array.isArray(result?.additionalContext) ? result.additionalContext : [];
  const at = context.findIndex((entry) => readContinuation(entry, id) !== void 0);
  if (at < 0) return { rest: result };
  const text = readContinuation(context[at], id);
  const others = context.filter((_, i) => i !== at);
  const { additionalContext: _ours, ...rest } = result;
  if (result.block === void 0 && others.length === 0 && result.preventContinuation === void 0)
    return { text, rest };
  return { rest: { ...rest, additionalContext: context.map((entry, i) => i === at ? text : entry) } };
}
var made = 0;
function makeStopId(now) {
  made += 1;
  return `${now.toString(36)}-${made.toString(36)}-${Math.floor(Math.random() * 4294967295).toString(36)}`;
}
var sent = [];
function noteSent(text) {
  if (!sent.includes(text)) sent.push(text);
  if (sent.length > 4) sent.shift();
}
function takeSent(prompt) {
  if (typeof prompt !== "string") return false;
  const at = sent.indexOf(prompt);
  if (at < 0) return false;
  sent.splice(at, 1);
  return true;
}

// src/core/nodeSupport.ts
var NODE_MIN = "20.16";
var NEEDED = `continuation-loop: needs Node.js ${NODE_MIN} or later on PATH and`;
function renderNodeNeeded(found) {
  const what = found === void 0 ? "none that runs" : `v${found.replace(/^v/, "")}`;
  return `${NEEDED} found ${what} (check: node --version); its loops are off, and nothing else in Claude Code is affected.`;
}
function readNodeNeeded(output) {
  const line = output.trim();
  return line.startsWith(NEEDED) ? line : void 0;
}

// src/module/state.ts
function makeModState() {
  return {
    ready: false,
    fault: "",
    root: "",
    /** The Claude Code version the module runs in. */
    version: "",
    /** A person at a terminal (not `-p` or the SDK): only there does an answer fit a width. */
    interactive: false,
    sessionId: void 0,
    view: void 0,
    /**
     * The name of this session's loop whose state file the helper refused (a hand edit broke it): the loop is
     * paused until the file is fixed, not ended. Undefined while `view` holds the loop, or there is none.
     */
    invalid: void 0,
    lastRead: 0,
    /** When a read first found this session's state file moved away or emptied by an editor's save (ms). */
    savingSince: void 0,
    /** A read is already due at the end of this second. */
    deferred: false,
    /** A `/rewind` ran since the last continuation entered: the next one gives Claude the loop again. */
    rewound: false,
    /** The continuation the Stop hook asked for, until it is sent (exactly once). */
    pending: void 0,
    /**
     * The hold for background work (its `since`) whose next turn was interrupted (Esc): no Stop comes to decide
     * again, so the loop waits for the person, whose next prompt pauses it; the band no longer says it waits for
     * the tasks, and the session is not woken for it.
     */
    interruptedHold: void 0,
    /** The main loop's running turn, which /loop-stop and /loop-pause end. */
    turnId: void 0,
    /**
     * When this module went on after an API error (ISO time): Claude Code's own automatic continue after a usage
     * limit, armed for the same limit, would be a second turn (src/module/resume.ts).
     */
    wentOnAt: void 0,
    /** Every wait this module armed, by its `api_wait_until`: one it went on from or cancelled is never armed again. */
    waitsArmed: /* @__PURE__ */ new Set(),
    /** The one line once a run showed that no usable `node` is on PATH (nodeProblem.ts): node is not run again. */
    nodeProblem: void 0
  };
}
var mod = makeModState();
function injectFault(step) {
  if (mod.fault === step) throw new Error(`continuation-loop: fault injected at ${step}`);
}

// src/module/nodeProblem.ts
function noteNodeThrow(error) {
  const message = error instanceof Error ? error.message : String(error);
  if (/failed to start|ENOENT/.test(message)) mod.nodeProblem = renderNodeNeeded();
}
function noteNodeOutput(output) {
  const line = readNodeNeeded(output);
  if (line) mod.nodeProblem = line;
}

// src/core/history.ts
function parseHistoryLine(line) {
  let value;
  try {
    value = JSON.parse(line);
  } catch {
    return void 0;
  }
  if (!value || typeof value !== "object" || Array.isArray(value)) return void 0;
  const record = value;
  return typeof record.time === "string" && typeof record.decision === "string" ? record : void 0;
}

// src/core/loopFileNames.ts
var STATE_DIR = ".claude";
var HISTORY_FILE_NAME = "continuation-loop.history.jsonl";
var EDITOR_SAVE_MS = 1e3;
var renderLockPath = (path) => `${path}.lock`;
var LOCK_STALE_MS = 1e4;
var LOOP_NAME = /^[a-z0-9][a-z0-9-]{0,39}$/;
var STATE_FILE_NAME = /^continuation-loop(?:\.([^/]*))?\.local\.md$/;
function parseStateFileName(fileName, listed) {
  const match = STATE_FILE_NAME.exec(fileName);
  const name = match?.[1];
  if (match && name === void 0) return "default";
  if (name !== void 0 && LOOP_NAME.test(name)) return name;
  const folded = fileName.toLowerCase();
  return listed && folded !== fileName && !listed.has(folded) ? parseStateFileName(folded) : void 0;
}
function renderLoopPaths(dir, name) {
  const stem = `${dir}${name === "default" ? "continuation-loop" : `continuation-loop.${name}`}`;
  return { statePath: `${stem}.local.md`, sidecarPath: `${stem}.runtime.json` };
}

// src/core/ownerHint.ts
var CLOSING_LINE = /\n---[ \t]*(\r?\n|$)/;
var endsFrontmatter = (text) => CLOSING_LINE.test(text);

// src/module/view.ts
var made2 = /* @__PURE__ */ new Map();
var MADE_KEPT = 16;
var inFlight;
var started = 0;
function redraw($) {
  if (!mod.ready || !mod.view && mod.invalid === void 0) return;
  refreshView($).catch(() => void 0).then(() => $.ui.invalidate("ui.render"));
}
async function readText($, path) {
  try {
    return await $.fs.read(path);
  } catch {
    return void 0;
  }
}
var REFUSED = 1;
async function runViewHelper($, name) {
  if (mod.nodeProblem !== void 0) return "failed";
  try {
    const run = await $.process.run(["node", `${$.plugin.root}/hooks/cli.js`, "view", "--name", name], {
      cwd: mod.root,
      env: { CLAUDE_PROJECT_DIR: mod.root },
      timeoutMs: 1e4
    });
    noteNodeOutput(run.stderr);
    if (mod.nodeProblem !== void 0) return "failed";
    if (run.exitCode === REFUSED) return void 0;
    return run.exitCode === 0 && readSidecarView(run.stdout) || "failed";
  } catch (error) {
    noteNodeThrow(error);
    return "failed";
  }
}
async function readView($, name, statePath, sidecarPath, text) {
  const digest = digestOf(text);
  const sidecar = await readText($, sidecarPath);
  const kept2 = sidecar === void 0 ? void 0 : readSidecarView(sidecar);
  if (kept2?.digest === digest) return kept2.view;
  if (await readLockHeld($, statePath)) return "failed";
  while (inFlight) await inFlight;
  if (made2.has(digest)) return made2.get(digest);
  const run = runViewHelper($, name);
  inFlight = run;
  let fresh;
  try {
    fresh = await run;
  } finally {
    inFlight = void 0;
  }
  if (fresh === "failed") return fresh;
  made2.set(digest, fresh?.view);
  if (fresh) made2.set(fresh.digest, fresh.view);
  for (const old of made2.keys()) if (made2.size > MADE_KEPT) made2.delete(old);
  return fresh?.view;
}
async function readLockHeld($, statePath) {
  try {
    const { mtimeMs } = await $.fs.stat(renderLockPath(statePath));
    return Date.now() - mtimeMs < LOCK_STALE_MS;
  } catch {
    return false;
  }
}
var SAVE_REREAD_MS = 250;
async function readMidSave($, dir, name) {
  const { statePath, sidecarPath } = renderLoopPaths(`${dir}/`, name);
  const text = await readText($, statePath);
  if (text !== void 0 && text.trim() !== "" && endsFrontmatter(text)) return false;
  return await readText($, sidecarPath) !== void 0;
}
async function refreshView($, force = false) {
  const now = Date.now();
  if (!force && now - mod.lastRead < 1e3) {
    if (!mod.deferred) {
      mod.deferred = true;
      $.clock.after(1e3 - (now - mod.lastRead), () => refreshView($).catch(() => void 0));
    }
    return;
  }
  mod.deferred = false;
  mod.lastRead = now;
  const read = ++started;
  const before = mod.view?.name ?? mod.invalid;
  mod.sessionId = await $.session.id();
  const dir = `${mod.root}/.claude`;
  const entries = await $.fs.list(dir).catch(() => []);
  let found;
  let invalid;
  const listed = new Set(entries.map((entry) => entry.name));
  for (const entry of entries) {
    const name = parseStateFileName(entry.name, listed);
    if (name === void 0) continue;
    const { statePath, sidecarPath } = renderLoopPaths(`${dir}/`, name);
    const text = await readText($, statePath);
    if (text === void 0 || !text.includes(mod.sessionId)) continue;
    const view = await readView($, name, statePath, sidecarPath, text);
    if (view === "failed") return;
    if (!view && await readText($, statePath) === text) invalid ??= name;
    if (!view || view.state.session_id !== mod.sessionId) continue;
    found = { ...view, name };
    break;
  }
  if (read !== started) return;
  if (!found && invalid === void 0 && mod.view && await readMidSave($, dir, mod.view.name)) {
    mod.savingSince ??= now;
    if (now - mod.savingSince < EDITOR_SAVE_MS) {
      $.clock.after(SAVE_REREAD_MS, () => refreshView($, true).catch(() => void 0));
      return;
    }
  }
  mod.savingSince = void 0;
  mod.view = found;
  mod.invalid = found ? void 0 : invalid;
  if (before !== void 0 && !found && mod.invalid === void 0) await tellEnd($, before);
  $.ui.invalidate("ui.render");
}
function readLastRecordOf(tail, stateFile) {
  for (const line of tail.trim().split("\n").reverse()) {
    const record = parseHistoryLine(line);
    if (record?.state_file === stateFile) return record;
  }
  return void 0;
}
async function tellEnd($, ended) {
  const path = `${mod.root}/${STATE_DIR}/${HISTORY_FILE_NAME}`;
  let reason = "ended";
  try {
    const { size } = await $.fs.stat(path);
    const tail = await $.fs.read(path, { offset: Math.max(0, size - 8192), length: 8192 });
    const last = readLastRecordOf(tail, renderLoopPaths(`${STATE_DIR}/`, ended).statePath);
    if (last?.decision === "end" && last.reason) reason = last.reason;
    if (last?.decision === "resume" && last.session && last.session !== mod.sessionId)
      reason = `taken over by session ${last.session.slice(0, 8)}`;
  } catch {
  }
  const name = ended === "default" ? "" : ` ${ended}`;
  $.ui.toast(`continuation-loop: loop${name} ${reason}`);
}

// src/module/controls.ts
var CONTROLS2 = [
  { name: "loop-stop", description: "End this session's continuation loop now, and the running turn" },
  { name: "loop-pause", description: "Pause this session's continuation loop now, and end the running turn" },
  { name: "loop-status", description: "Show this session's continuation loop at once, even mid-turn" }
];
function readControl(command) {
  const name = command.replace(/^continuation-loop:/, "");
  return CONTROLS2.some((control) => control.name === name) ? name : void 0;
}
function readBlock(stdout) {
  try {
    const out = JSON.parse(stdout);
    return out.decision === "block" && typeof out.reason === "string" ? out.reason : void 0;
  } catch {
    return void 0;
  }
}
function runsLoop() {
  const view = mod.view;
  return view?.state.active === true && readPause(true, view.runtime) === void 0;
}
var ANSWER_INDENT = 6;
async function runPromptHook($, input, env) {
  try {
    const run = await $.process.run(["node", `${$.plugin.root}/hooks/prompt.js`], {
      cwd: mod.root,
      env,
      stdin: JSON.stringify(input),
      timeoutMs: 15e3
    });
    return readBlock(run.stdout);
  } catch (error) {
    noteNodeThrow(error);
    if (mod.nodeProblem === void 0) throw error;
    return mod.nodeProblem;
  }
}
async function registerControls($) {
  for (const command of CONTROLS2)
    await $.command.register({ ...command, argumentHint: "[--name NAME]", immediate: true });
}
async function answerControl($, name, args, columns) {
  const sessionId = await $.session.id();
  const { transcriptPath } = await $.session.info();
  const prompt = `/${name}${args ? ` ${args}` : ""}`;
  const input = {
    session_id: sessionId,
    transcript_path: transcriptPath,
    cwd: mod.root,
    hook_event_name: "UserPromptSubmit",
    prompt,
    source: "user"
  };
  const env = {
    CLAUDE_PROJECT_DIR: mod.root,
    CLAUDE_PLUGIN_ROOT: $.plugin.root,
    CLAUDE_CODE_SESSION_ID: sessionId,
    CONTINUATION_LOOP_MODULE_LIVE: mod.version,
    // Between turns the answer shows as text under Claude Code's indent; mid-turn as one notice, which draws no
    // line breaks, so its rows are left whole.
    ...columns && mod.turnId === void 0 && { [ANSWER_COLUMNS_ENV]: String(columns - ANSWER_INDENT) }
  };
  const ranLoop = runsLoop();
  const block = mod.nodeProblem ?? await runPromptHook($, input, env);
  if (block === void 0) return void 0;
  noteNodeOutput(block);
  await refreshView($, true).catch(() => void 0);
  const text = block.replace(/^continuation-loop: /, "");
  const turnId = mod.turnId;
  if (name === "loop-status" || !ranLoop || runsLoop()) {
    if (turnId === void 0) return { text, isTextDisplayOnly: true };
    $.ui.log(
      text.split("\n").map((line) => line.trim()).join(" \u2503 ")
    );
    return {};
  }
  mod.pending = void 0;
  mod.turnId = void 0;
  if (turnId) await $.turn.abort({ turnId }).catch(() => void 0);
  return { text, isTextDisplayOnly: true };
}

// src/module/fresh.ts
function readFreshPrompt(text) {
  return text.endsWith(FRESH_LINE) ? text.slice(0, -FRESH_LINE.length) : void 0;
}
async function clearThenSubmit($, text, cleared) {
  let clearing;
  try {
    injectFault("clear");
    clearing = $.command.run({ command: "clear" });
  } catch (error) {
    clearing = Promise.reject(error);
  }
  const [clear, submit] = await Promise.allSettled([clearing, $.prompt.submit({ text })]);
  if (clear.status === "fulfilled") cleared();
  if (submit.status === "rejected") throw submit.reason;
  if (clear.status === "fulfilled") return;
  const why = clear.reason instanceof Error ? clear.reason.message : String(clear.reason);
  try {
    $.ui.log(`the context could not be cleared (${why}); this iteration goes on in it.`);
  } catch {
  }
}

// src/core/decideApiWait.ts
var STEP_MS = 6e4;
var MAX_WAIT_MS = 30 * STEP_MS;
function pickResetsAt(windows, now) {
  let latest;
  for (const window of windows ?? []) {
    if (typeof window.percentUsed !== "number" || window.percentUsed < 100 || !window.resetsAt) continue;
    const at = Date.parse(window.resetsAt);
    if (Number.isFinite(at) && at > now && (latest === void 0 || at > latest)) latest = at;
  }
  return latest;
}

// src/core/lineBreaks.ts
var unifyLineBreaks = (text) => text.replace(/^\uFEFF/, "").replace(/\r\n?/g, "\n");
var renderGoal = (body) => unifyLineBreaks(body).trim();

// src/core/matchPromise.ts
var WRAPPED = /^\s*<promise>((?:.|[\n\r\u2028\u2029])*)<\/promise>\s*$/i;
var unwrapPromise = (phrase) => WRAPPED.exec(phrase)?.[1] ?? phrase;
function renderPromisePhrase(phrase, format) {
  return format === "tag" ? `<promise>${unwrapPromise(phrase)}</promise>` : `"${phrase}"`;
}

// src/core/renderStop.ts
var countIterationsLeft = (state, iteration) => Math.max(0, state.max_iterations - iteration);
function renderLimits(state, runtime, iteration, now) {
  const parts = [`iterations ${iteration}/${state.max_iterations} (${countIterationsLeft(state, iteration)} left)`];
  const elapsed = elapsedSeconds(state, now);
  if (state.max_duration !== void 0) {
    const used = elapsed ?? 0;
    parts.push(
      `time ${renderDuration(used)} of ${renderDuration(state.max_duration)} (${renderDuration(state.max_duration - used)} left)`
    );
  }
  if (state.max_tokens !== void 0) {
    const left = Math.max(0, state.max_tokens - runtime.output_tokens);
    parts.push(
      `output tokens ${formatCount(runtime.output_tokens)} of ${formatCount(state.max_tokens)} (${formatCount(left)} left)`
    );
  }
  if (state.max_cost !== void 0) {
    const spent = readLoopSpend(runtime);
    parts.push(
      spent === void 0 ? `cost: no figure from Claude Code yet, of $${state.max_cost.toFixed(2)}` : `cost $${spent.toFixed(2)} of $${state.max_cost.toFixed(2)} ($${Math.max(0, state.max_cost - spent).toFixed(2)} left)`
    );
  }
  if (state.stall_limit > 0) parts.push(`unchanged turns ${runtime.stall_count}/${state.stall_limit}`);
  if (state.completion_threshold > 1)
    parts.push(`promise streak ${runtime.promise_streak}/${state.completion_threshold}`);
  return parts.join(" \xB7 ");
}
var PAUSE_HINT = "Blocked on something only the user can decide? End your reply with <loop-pause>your question</loop-pause>: the loop waits for their answer. Only for real blockers, never to stop working.";
function renderFinish(state) {
  return `${renderFinishLine(state)}
${PAUSE_HINT}`;
}
var renderUntilLine = (until, alone) => `The loop ${alone ? "" : "also "}completes by itself when \`${until}\` exits 0: it runs in the project root each time you stop, and its output comes back to you when it fails.`;
function renderFinishLine(state) {
  const phrases = state.completion_promise;
  if (phrases.length === 0) {
    if (state.until) return [renderUntilLine(state.until, true), ...renderGateLines(state)].join("\n");
    if (state.metric_target && state.metric) return "The loop completes when the metric reaches its target.";
    return state.checklist ? `The loop completes when every box of ${state.checklist} is checked.` : "There is no completion phrase: the loop runs until a limit is reached or the user runs /loop-stop.";
  }
  const shown = phrases.map((p) => renderPromisePhrase(p, state.promise_format)).join(" or ");
  const lines = [
    `When, and only when, the goal is fully done and verified, end your reply with ${shown}.`,
    "Do not write it to escape the loop: the loop is meant to go on until it is true."
  ];
  if (state.completion_threshold > 1)
    lines.push(`It must appear in ${state.completion_threshold} consecutive replies.`);
  if (state.until) lines.push(renderUntilLine(state.until, false));
  lines.push(...renderGateLines(state));
  return lines.join("\n");
}
function renderGateLines(state) {
  const lines = [];
  if (state.verify) lines.push(`It is then checked by running \`${state.verify}\`, which must exit 0.`);
  if (state.checklist) lines.push(`It is not accepted while a box of ${state.checklist} is unchecked.`);
  if (state.require_todos_done) lines.push("It is not accepted while the todo list has unfinished items.");
  if (state.until && state.completion_promise.length > 0)
    lines.push(`Your phrase is not accepted while \`${state.until}\` fails.`);
  return lines;
}

// src/core/renderApiWait.ts
function renderWaitCause(kind) {
  if (kind === "rate_limit") return "the rate or usage limit";
  if (kind === "overloaded" || kind === "server_error") return "the API to recover";
  return `the API error (${kind})`;
}
var renderClock = (ms) => `${new Date(ms).toISOString().slice(11, 19)} UTC`;
function readApiErrorAt(lastError) {
  const time = / at (\S+)$/.exec(lastError)?.[1];
  return time === void 0 ? Number.NaN : Date.parse(time);
}
function renderWaitBand(kind, until, now) {
  return `waits for ${renderWaitCause(kind)} until ${renderClock(until)} (${renderDuration(Math.max(0, until - now) / 1e3)})`;
}
function renderWaitLine(kind, until, now, failures, max) {
  return `an API error (${kind}) ended the turn; the loop waits for ${renderWaitCause(kind)} and goes on by itself at ${renderClock(until)} (in ${renderDuration(Math.max(0, until - now) / 1e3)}; error ${failures} of max_api_failures ${max} in a row). /loop-stop or /loop-pause cancels the wait.`;
}
function renderWaitKeptLine(kind, until, now) {
  return `the loop was waiting after an API error (${kind}) when Claude Code started again; it goes on by itself at ${renderClock(until)} (in ${renderDuration(Math.max(0, until - now) / 1e3)}). /loop-stop or /loop-pause cancels the wait.`;
}
function renderResumeHeldLine() {
  return "the wait after the API error is over, but Claude Code is not taking prompts yet: a dialog of its own (the usage-limit options) may be waiting for your answer. The loop goes on as soon as it is answered.";
}
function renderResumePrompt(state, runtime, kind, now) {
  return [
    `${API_RESUME_OPENING} (${kind}). Continuation loop: iteration ${state.iteration_count}/${state.max_iterations}, cut short by the error and not counted. Take up the goal where the last turn stopped; check what it finished before redoing anything.`,
    `Limits: ${renderLimits(state, runtime, state.iteration_count, now)}`,
    `Goal:
${renderGoal(state.body)}`,
    `How to finish:
${renderFinish(state)}`
  ].join("\n\n");
}

// src/module/wallTimer.ts
function armTimer($, kept2, ms, fire) {
  const timer = $.clock.after(ms, () => {
    if (kept2.timer === timer) kept2.timer = void 0;
    return fire();
  });
  kept2.timer = timer;
}
function fireIfDue(kept2, at, fire) {
  if (!kept2.timer || Date.now() < at) return;
  kept2.timer.cancel();
  kept2.timer = void 0;
  fire();
}

// src/module/resume.ts
var wait;
var PROMPT_HELD_MS = 5e3;
var deciding = false;
function renderWaitPart(now) {
  return wait ? renderWaitBand(wait.kind, readWaitEnd(wait.since, wait.at, now), now) : void 0;
}
function cancelWait($, why) {
  const dropped = wait;
  if (!dropped) return;
  wait = void 0;
  dropped.timer?.cancel();
  if (why) $.ui.log(`the wait after the API error (${dropped.kind}) is cancelled: ${why}.`);
  $.ui.invalidate("ui.render");
}
function armWait($, kind, until, at, since) {
  cancelWait($);
  const kept2 = { kind, until, at, since, timer: void 0 };
  wait = kept2;
  mod.waitsArmed.add(until);
  const now = Date.now();
  armGoOn($, kept2, Math.max(0, readWaitEnd(since, at, now) - now));
  $.ui.invalidate("ui.render");
}
function armGoOn($, kept2, ms) {
  armTimer($, kept2, ms, () => goOn($, kept2));
}
function keepWaitFromFiles($) {
  const view = mod.view;
  if (wait || deciding || !view || !view.state.active || view.runtime.pause) return;
  const until = view.runtime.api_wait_until;
  const at = Date.parse(until);
  if (!until || !Number.isFinite(at) || mod.waitsArmed.has(until)) return;
  const kind = view.runtime.last_api_error.split(" ")[0] || "unknown";
  const since = readApiErrorAt(view.runtime.last_api_error);
  armWait($, kind, until, at, since);
  const now = Date.now();
  $.ui.log(renderWaitKeptLine(kind, readWaitEnd(since, at, now), now));
}
function checkWait($) {
  if (!wait) {
    keepWaitFromFiles($);
    return;
  }
  if (mod.invalid !== void 0) return;
  const view = mod.view;
  if (!view) cancelWait($, "the loop was stopped");
  else if (!view.state.active) cancelWait($, "the loop was paused");
  else {
    const due = wait;
    fireIfDue(due, due.at, () => goOn($, due).catch(() => void 0));
  }
}
async function goOn($, kept2, tries = 0) {
  if (wait !== kept2) return;
  await refreshView($, true).catch(() => void 0);
  if (mod.invalid !== void 0) {
    armGoOn($, kept2, 1e3);
    return;
  }
  const view = mod.view;
  if (!view?.state.active || view.runtime.pause?.reason === "question" || view.runtime.api_wait_until !== kept2.until) {
    checkWait($);
    if (wait === kept2) cancelWait($, "the loop no longer waits for it");
    return;
  }
  const text = renderResumePrompt(view.state, view.runtime, kept2.kind, Date.now());
  wait = void 0;
  mod.wentOnAt = (/* @__PURE__ */ new Date()).toISOString();
  $.ui.invalidate("ui.render");
  const held = $.clock.after(PROMPT_HELD_MS, () => {
    $.ui.log(renderResumeHeldLine());
    if (view.state.notify)
      $.ui.notify("continuation-loop: the loop waits for your answer to Claude Code's dialog").catch(() => void 0);
  });
  try {
    await $.prompt.submit({ text });
    held.cancel();
  } catch {
    held.cancel();
    mod.wentOnAt = void 0;
    if (wait !== void 0) return;
    wait = kept2;
    if (tries < 40) $.clock.after(250, () => goOn($, kept2, tries + 1));
    else cancelWait($, "Claude Code refused the prompt; send any prompt to go on");
  }
}
async function onPromptEnter($, e, next) {
  if (!mod.ready) return next(e);
  const kind = e.origin?.kind;
  if (kind === "auto-continuation") {
    const at = mod.wentOnAt;
    if (at !== void 0) {
      mod.wentOnAt = void 0;
      return {
        drop: `continuation-loop: the loop already went on after the usage limit (${at.slice(11, 19)} UTC), so Claude Code's own automatic continue is not sent`
      };
    }
    cancelWait($, "Claude Code's own automatic continue went first; the loop goes on at its stop");
  } else if (kind === "composer" || kind === "bridge" || kind === "sdk") mod.wentOnAt = void 0;
  return next(e);
}
async function followDecision($, kind, before) {
  await refreshView($, true);
  const view = mod.view;
  if (!view) {
    if (!before || mod.invalid !== void 0) return;
    $.ui.log("the loop ended: waiting for the API would pass its max_duration.");
    return;
  }
  if (!view.state.active && view.runtime.pause?.reason === "api_errors") {
    $.ui.log(`loop paused: ${view.runtime.pause.text}. /loop-resume (or active: true) resumes it.`);
    $.ui.toast("continuation-loop: loop paused after API errors in a row");
    return;
  }
  const until = view.runtime.api_wait_until;
  const at = Date.parse(until);
  if (!view.state.active || !until || !Number.isFinite(at)) return;
  armWait($, kind, until, at, readApiErrorAt(view.runtime.last_api_error));
  $.ui.log(renderWaitLine(kind, at, Date.now(), view.runtime.api_errors_since_stop, view.state.max_api_failures));
}
async function onStopFailure($, e, next) {
  if (!mod.ready || e.agent_id) return next(e);
  mod.wentOnAt = void 0;
  const usage = await $.session.usage();
  const resetsAt = pickResetsAt(usage.rateLimits, Date.now());
  await $.env.set("CONTINUATION_LOOP_RESETS_AT", resetsAt === void 0 ? void 0 : new Date(resetsAt).toISOString());
  await $.env.set("CONTINUATION_LOOP_RESUME", "1");
  if (!mod.view) await refreshView($, true).catch(() => void 0);
  const before = mod.view;
  deciding = true;
  try {
    let result;
    try {
      result = await next(e);
    } finally {
      await $.env.set("CONTINUATION_LOOP_RESUME", void 0);
    }
    await followDecision($, typeof e.error === "string" ? e.error : "unknown", before).catch(() => void 0);
    return result;
  } finally {
    deciding = false;
  }
}

// src/core/renderWake.ts
var renderTask = (task) => `${renderTaskNames([task])} (${task.type}, id ${task.id})`;
function renderBackgroundWakePrompt(state, runtime, now) {
  const tasks = runtime.background_hold?.tasks ?? [];
  const one = tasks.length === 1;
  return [
    `${BACKGROUND_WAKE_OPENING}: background_wait (${renderDuration(state.background_wait)}) passed with ${tasks.length} task${one ? "" : "s"} still running: ${tasks.map(renderTask).join("; ")}. The loop no longer waits for ${one ? "it" : "them"}: check ${one ? "its" : "their"} output if it matters (a server or a watcher may run for good), then go on with the goal.`,
    `Continuation loop: iteration ${state.iteration_count}/${state.max_iterations}, not counted while it waited.`,
    `Limits: ${renderLimits(state, runtime, state.iteration_count, now)}`,
    `Goal:
${renderGoal(state.body)}`,
    `How to finish:
${renderFinish(state)}`
  ].join("\n\n");
}

// src/module/hold.ts
var kept;
var woken;
function readHold() {
  const view = mod.view;
  const hold = view?.runtime.background_hold;
  const bound = view?.state.background_wait ?? 0;
  if (!view || !hold || hold.route !== "module" || bound <= 0 || !view.state.active) return void 0;
  if (view.runtime.pause?.reason === "question") return void 0;
  if (hold.since === mod.interruptedHold) return void 0;
  const at = Math.min(readWakeAt(hold, bound), readTimeUpAt(view.state) + 1e3);
  return Number.isFinite(at) ? { key: `${hold.since} ${at}`, at, since: readHoldSince(hold) } : void 0;
}
function dropHold($, why) {
  const dropped = kept;
  if (!dropped) return;
  kept = void 0;
  dropped.timer?.cancel();
  if (why) $.ui.log(`the wait for background work is cancelled: ${why}.`);
}
function followHold($) {
  if (mod.invalid !== void 0) return;
  const hold = readHold();
  if (!hold) {
    const view = mod.view;
    dropHold($, !view ? "the loop was stopped" : !view.state.active ? "the loop was paused" : void 0);
    return;
  }
  if (woken === hold.key || mod.turnId !== void 0) return;
  if (kept?.key === hold.key) {
    const due = kept;
    fireIfDue(due, hold.at, () => wake($, due).catch(() => void 0));
    return;
  }
  dropHold($);
  const armed = { key: hold.key, timer: void 0 };
  kept = armed;
  const now = Date.now();
  armWake($, armed, Math.max(0, readWaitEnd(hold.since, hold.at, now) - now));
}
function armWake($, armed, ms, tries = 0) {
  armTimer($, armed, ms, () => wake($, armed, tries).catch(() => void 0));
}
function pauseHold($) {
  dropHold($);
}
async function wake($, armed, tries = 0) {
  if (kept !== armed) return;
  await refreshView($, true).catch(() => void 0);
  if (mod.invalid !== void 0) {
    armWake($, armed, 1e3, tries);
    return;
  }
  const view = mod.view;
  if (readHold()?.key !== armed.key || !view) {
    followHold($);
    return;
  }
  kept = void 0;
  if (mod.turnId !== void 0) return;
  woken = armed.key;
  const text = renderBackgroundWakePrompt(view.state, view.runtime, Date.now());
  try {
    await $.prompt.submit({ text });
  } catch {
    if (kept !== void 0) return;
    if (tries >= 40) {
      $.ui.log("Claude Code refused the prompt after the wait for background work; send any prompt to go on.");
      return;
    }
    woken = void 0;
    kept = armed;
    armWake($, armed, 250, tries + 1);
  }
}

// src/module/index.ts
async function startModule($, cwd) {
  if (await $.env.get("CONTINUATION_LOOP_MODULE") === "0") return;
  mod.fault = await $.env.get("CONTINUATION_LOOP_MODULE_FAULT") ?? "";
  injectFault("load");
  mod.root = await $.env.get("CLAUDE_PROJECT_DIR") || cwd || "";
  const { version } = await $.session.version();
  mod.version = version || "unknown";
  await registerControls($);
  await $.env.set("CONTINUATION_LOOP_MODULE_LIVE", mod.version);
  mod.ready = true;
  await refreshView($, true);
  $.clock.every(1e3, () => {
    redraw($);
    checkWait($);
    followHold($);
  });
}
function goQuiet($, error) {
  mod.ready = false;
  const why = error instanceof Error ? error.message : String(error);
  try {
    $.ui.log(`the companion module is off for this session (${why}); the loop runs on its hooks.`);
  } catch {
  }
}
function sendPending($, tries = 0) {
  const text = mod.pending;
  mod.pending = void 0;
  if (text === void 0) return false;
  const background = readBackgroundPrompt(text);
  if (background !== void 0) {
    sendToBackground($, background).catch((error) => goQuiet($, error));
    return true;
  }
  const fresh = readFreshPrompt(text);
  noteSent(fresh ?? text);
  let retry = text;
  const sent2 = fresh === void 0 ? $.prompt.submit({ text }) : clearThenSubmit($, fresh, () => retry = fresh);
  sent2.catch((error) => {
    if (mod.pending === void 0) mod.pending = retry;
    if (tries < 40) $.clock.after(25, () => sendPending($, tries + 1));
    else goQuiet($, error);
  });
  return true;
}
function quietContinuation($, result, id) {
  try {
    injectFault("stop");
    const { text, rest } = takeContinuation(result, id);
    if (text === void 0) return rest;
    mod.pending = text;
    if (mod.fault === "send-in-stop") sendPending($);
    $.clock.after(0, () => sendPending($));
    return rest;
  } catch {
    return result;
  }
}
async function onStop($, e, next) {
  if (!mod.ready || e.agent_id) return next(e);
  const id = makeStopId(Date.now());
  await Promise.all([
    $.session.usage().then((usage) => $.env.set("CONTINUATION_LOOP_COST_USD", usage.cost ? String(usage.cost.usd) : void 0)),
    $.env.set("CONTINUATION_LOOP_STOP_ID", id)
  ]);
  const result = await next(e);
  const answer = quietContinuation($, result, id);
  if (mod.pending === void 0) refreshView($, true).catch(() => void 0);
  return answer;
}
async function onPromptSubmit($, e, next) {
  if (!mod.ready || !takeSent(e?.prompt)) return next(e);
  if (!mod.rewound) return {};
  mod.rewound = false;
  try {
    return await next(e);
  } finally {
    await $.env.set("CONTINUATION_LOOP_REWOUND", void 0);
  }
}
async function onRewind($, e, next) {
  if (mod.ready && mod.view) {
    mod.rewound = true;
    await $.env.set("CONTINUATION_LOOP_REWOUND", "1");
  }
  return next(e);
}
async function onControl($, e, next) {
  const name = readControl(e.command);
  if (!mod.ready || name === void 0) return next(e);
  const columns = mod.interactive ? e.presentation?.columns : void 0;
  const answer = await answerControl($, name, e.args, columns).catch(() => void 0);
  return answer ?? next(e);
}
function passOn(_, e, next) {
  return next(e);
}
function drawBand($, e, below) {
  injectFault("draw");
  let band;
  try {
    if (mod.view)
      band = renderBand(
        mod.view,
        Date.now(),
        mod.sessionId,
        renderWaitPart(Date.now()),
        mod.turnId !== void 0,
        mod.interruptedHold
      );
    else if (mod.invalid !== void 0) band = renderInvalidBand(mod.invalid);
  } catch {
    return below;
  }
  if (band === void 0) return below;
  const { Box, Text } = $.ui.resolve(e);
  const line = h(Text, { dimColor: true, wrap: "truncate-end" }, band);
  return h(Box, { flexDirection: "column" }, line, below);
}
function register(on) {
  on("session.start", async ($, e, next) => {
    mod.interactive = e?.isInteractive === true;
    try {
      await startModule($, e?.cwd);
    } catch (error) {
      goQuiet($, error);
    }
    return next(e);
  });
  on("classic.Stop", onStop).catch(
    (_, e, next) => next(e)
  );
  on("classic.UserPromptSubmit", onPromptSubmit).catch(
    (_, e, next) => next(e)
  );
  on("prompt.submit", onPromptEnter).catch((_, e, next) => next(e));
  on("classic.StopFailure", onStopFailure).catch(
    (_, e, next) => next(e)
  );
  on(
    "turn.start",
    async ($, e, next) => {
      if (!mod.ready || e.agentId !== void 0) return next(e);
      mod.turnId = e.turnId;
      cancelWait($, "a prompt went on first");
      pauseHold($);
      const usage = await $.session.usage();
      await $.env.set("CONTINUATION_LOOP_TURN_COST_USD", usage.cost ? String(usage.cost.usd) : void 0);
      refreshView($).catch(() => void 0);
      return next(e);
    }
  );
  on(
    "turn.complete",
    async ($, e, next) => {
      if (e.agentId !== void 0) return next(e);
      mod.turnId = void 0;
      const hold = mod.view?.runtime.background_hold;
      if (e.isAborted === true && hold) mod.interruptedHold = hold.since;
      const sent2 = sendPending($);
      if (!mod.ready) return next(e);
      injectFault("turn");
      if (sent2) return next(e);
      refreshView($).then(() => followHold($)).catch(() => void 0);
      return next(e);
    }
  );
  on("command.run", { command: "loop-stop" }, onControl).catch(passOn);
  on("command.run", { command: "loop-pause" }, onControl).catch(passOn);
  on("command.run", { command: "loop-status" }, onControl).catch(passOn);
  on("command.run", { command: "continuation-loop:loop-stop" }, onControl).catch(passOn);
  on("command.run", { command: "continuation-loop:loop-pause" }, onControl).catch(passOn);
  on("command.run", { command: "continuation-loop:loop-status" }, onControl).catch(passOn);
  on("command.run", { command: "rewind" }, onRewind).catch(passOn);
  on(
    "ui.render",
    { component: "AbovePrompt" },
    async ($, e, next) => {
      const below = await next(e);
      if (!mod.ready) return below;
      return drawBand($, e, below);
    }
  );
}
export {
  register
};
