import {
  DASH,
  renderElapsed,
  renderIterations,
  renderMetricCell,
  renderValue,
  renderSeconds,
  renderStart,
  renderTokens,
  renderUsd,
  renderUtc,
} from "./reportFormat.js";
import type { ReportModel, ReportRow } from "./reportModel.js";
import { renderReportCharts } from "./renderReportCharts.js";

/**
 * The report as one self-contained page (README "The morning after"): no script, no network, light and
 * dark themes from `prefers-color-scheme`, charts as inline SVG. Every row stays in the table. Pure.
 */

const escapeHtml = (s: string) =>
  s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");

const STYLE = `
:root{color-scheme:light dark;--bg:#fbfbfa;--fg:#1f2328;--muted:#5f6670;--line:#d8dce0;--card:#ffffff;
--tokens:#4f6bed;--spend:#0e9f6e;--metric:#c2410c;--best:#7c3aed;--target:#dc2626;--wait:#d97706;--pause:#0891b2;--error:#dc2626;
--row-event:#f4f1ea;--ok:#15803d;--bad:#b45309}
@media (prefers-color-scheme:dark){:root{--bg:#16181c;--fg:#e6e8eb;--muted:#9aa3ad;--line:#30353c;--card:#1d2025;
--tokens:#8ea2ff;--spend:#34d399;--metric:#fb923c;--best:#c4b5fd;--target:#f87171;--wait:#fbbf24;--pause:#22d3ee;--error:#f87171;
--row-event:#23262c;--ok:#4ade80;--bad:#fbbf24}}
*{box-sizing:border-box}
body{margin:0;background:var(--bg);color:var(--fg);font:15px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif}
main{max-width:1080px;margin:0 auto;padding:28px 24px 48px}
h1{font-size:1.5rem;margin:0 0 4px}h2{font-size:1.1rem;margin:32px 0 10px}
.sub{color:var(--muted);margin:0 0 18px}
.outcome{display:inline-block;padding:2px 10px;border-radius:999px;font-weight:600;border:1px solid currentColor}
.outcome.ok{color:var(--ok)}.outcome.other{color:var(--bad)}
blockquote{margin:0 0 20px;padding:10px 16px;border-left:4px solid var(--tokens);background:var(--card);white-space:pre-wrap;border-radius:0 8px 8px 0}
.cards{display:grid;grid-template-columns:repeat(auto-fit,minmax(150px,1fr));gap:10px;margin:0}
.card{background:var(--card);border:1px solid var(--line);border-radius:10px;padding:10px 14px}
.card dt{color:var(--muted);font-size:.8rem;text-transform:uppercase;letter-spacing:.04em}
.card dd{margin:2px 0 0;font-size:1.15rem;font-weight:600;font-variant-numeric:tabular-nums}
.card dd small{display:block;font-size:.78rem;font-weight:400;color:var(--muted)}
figure{margin:0 0 18px;background:var(--card);border:1px solid var(--line);border-radius:10px;padding:12px 12px 6px}
figcaption{color:var(--muted);font-size:.85rem;margin:0 0 4px 6px}
svg.chart{display:block;width:100%;height:auto}
.grid{stroke:var(--line);stroke-width:1}.baseline{stroke:var(--muted);stroke-width:1}
.tick,.axis,.mark-label,.target-label{fill:var(--muted);font-size:12px;font-family:inherit}
.bar-tokens{fill:var(--tokens)}.bar-spend{fill:var(--spend)}
.line-metric{fill:none;stroke:var(--metric);stroke-width:2}.dot-metric{fill:var(--metric)}
.line-best{fill:none;stroke:var(--best);stroke-width:2;stroke-dasharray:1 0;opacity:.8}
.line-target{stroke:var(--target);stroke-width:1.5;stroke-dasharray:6 4}.target-label{fill:var(--target)}
.mark{stroke-width:1.5;stroke-dasharray:3 3}.mark-wait{stroke:var(--wait);fill:var(--wait)}
.mark-pause{stroke:var(--pause);fill:var(--pause)}.mark-error{stroke:var(--error);fill:var(--error)}
text.mark-label{stroke:none;font-weight:600}
.legend{display:flex;flex-wrap:wrap;gap:14px;color:var(--muted);font-size:.85rem;margin:0 0 10px}
.legend span::before{content:"";display:inline-block;width:12px;height:12px;border-radius:3px;margin-right:6px;vertical-align:-1px;background:var(--c)}
.table-wrap{overflow-x:auto;border:1px solid var(--line);border-radius:10px;background:var(--card)}
table{border-collapse:collapse;width:100%;font-size:.85rem}
th,td{padding:6px 10px;border-bottom:1px solid var(--line);text-align:left;vertical-align:top}
th{position:sticky;top:0;background:var(--card);color:var(--muted);font-weight:600;white-space:nowrap}
td.n{text-align:right;font-variant-numeric:tabular-nums;white-space:nowrap}
td.reply{min-width:200px;max-width:420px;overflow-wrap:anywhere}
tr.event td{background:var(--row-event)}tr.event td.decision{font-weight:600}
tr.wait td.decision,tr.hold td.decision{color:var(--wait)}tr.pause td.decision{color:var(--pause)}tr.api_error td.decision{color:var(--error)}
footer{color:var(--muted);font-size:.8rem;margin-top:24px}
code{font-family:ui-monospace,SFMono-Regular,Menlo,monospace;font-size:.9em}
`;

function renderCards(model: ReportModel): string {
  const m = model.metric;
  const cards: Array<[string, string, string?]> = [
    ["Iterations", renderIterations(model)],
    ["Elapsed", renderElapsed(model)],
    ["Output tokens", renderTokens(model.outputTokens)],
    [
      "Spend",
      model.spendUsd === undefined ? "unknown" : renderUsd(model.spendUsd),
      model.spendUsd === undefined ? "no cost figure reached the loop" : undefined,
    ],
    ...(m
      ? ([
          [
            "Metric best",
            renderValue(m.best),
            `${m.bestIteration ? `at iteration ${m.bestIteration}; ` : ""}target ${m.target ?? "none"}`,
          ],
        ] as Array<[string, string, string?]>)
      : []),
  ];
  const card = ([k, v, sub]: [string, string, string?]) =>
    `<div class="card"><dt>${escapeHtml(k)}</dt><dd>${escapeHtml(v)}${sub ? `<small>${escapeHtml(sub)}</small>` : ""}</dd></div>`;
  return `<dl class="cards">${cards.map(card).join("")}</dl>`;
}

function renderRow(row: ReportRow, loopStart: number | undefined): string {
  const cell = (text: string, cls = "") => `<td${cls ? ` class="${cls}"` : ""}>${escapeHtml(text)}</td>`;
  const event = row.kind !== "iteration";
  return [
    `<tr${event ? ` class="event ${row.kind}"` : ""}>`,
    cell(event ? "" : String(row.iteration ?? DASH), "n"),
    cell(renderStart(row.start, loopStart), "n"),
    cell(renderSeconds(row.durationS), "n"),
    cell(renderTokens(row.tokens), "n"),
    cell(renderUsd(row.spendUsd), "n"),
    cell(renderMetricCell(row), "n"),
    cell(row.decision, "decision"),
    cell(row.files === undefined ? DASH : String(row.files), "n"),
    cell(row.reply ?? DASH, "reply"),
    "</tr>",
  ].join("");
}

function renderLegend(model: ReportModel): string {
  const kinds = new Set(model.rows.map((r) => r.kind));
  const items: Array<[string, string]> = [
    ...(kinds.has("wait") ? ([["--wait", "wait after an API error"]] as Array<[string, string]>) : []),
    ...(kinds.has("hold") ? ([["--wait", "waiting for background work"]] as Array<[string, string]>) : []),
    ...(kinds.has("pause") ? ([["--pause", "pause"]] as Array<[string, string]>) : []),
    ...(kinds.has("api_error") ? ([["--error", "API error"]] as Array<[string, string]>) : []),
  ];
  if (items.length === 0) return "";
  return `<p class="legend">${items.map(([c, t]) => `<span style="--c:var(${c})">${escapeHtml(t)}</span>`).join("")}</p>`;
}

/** The page for one loop; `generated` is when it was written (ms), shown in the footer. */
export function renderReportHtml(model: ReportModel, generated: number): string {
  const charts = renderReportCharts(model);
  const good = model.outcome === "completed";
  const title = `Continuation loop: ${model.outcome}`;
  const goal = model.goal?.trim()
    ? `<blockquote>${escapeHtml(model.goal.trim())}</blockquote>`
    : "<p>The history holds no goal for this loop.</p>";
  const iterations = model.rows.filter((r) => r.kind === "iteration").length;
  const events = model.rows.length - iterations;
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; img-src data:">
<title>${escapeHtml(title)}</title><style>${STYLE}</style></head>
<body><main>
<h1>Continuation loop <span class="outcome ${good ? "ok" : "other"}">${escapeHtml(model.outcome)}</span></h1>
<p class="sub">${escapeHtml(model.because ? `${model.because}. ` : "")}<code>${escapeHtml(model.stateFile)}</code>, ${escapeHtml(renderUtc(model.start))} to ${escapeHtml(renderUtc(model.end))}</p>
${goal}
${renderCards(model)}
${charts.length ? `<h2>Charts</h2>${renderLegend(model)}` : ""}
${charts.map((c) => `<figure>${c.svg}<figcaption>${escapeHtml(c.caption)}</figcaption></figure>`).join("\n")}
<h2>Iterations</h2>
<p class="sub">${iterations} iteration row${iterations === 1 ? "" : "s"}${events ? `, ${events} event${events === 1 ? "" : "s"} (waits, pauses, API errors…) in rows of their own` : ""}. Times in UTC.</p>
<div class="table-wrap"><table>
<thead><tr><th>#</th><th>Started</th><th>Duration</th><th>Output tokens</th><th>Spend</th><th>Metric</th><th>Decision</th><th>Files changed</th><th>Reply (first line)</th></tr></thead>
<tbody>
${model.rows.map((r) => renderRow(r, model.start)).join("\n")}
</tbody></table></div>
<footer>Written by continuation-loop from its history at ${escapeHtml(renderUtc(generated))}.</footer>
</main></body></html>
`;
}
