import { EVENT_MARK, renderTokens, renderUsd, renderValue } from "./reportFormat.js";
import { highest, lowest, type ReportModel, type ReportRow } from "./reportModel.js";

/**
 * Inline SVG charts for the report's page (README "The morning after"): no script, colours from the
 * page's CSS classes so that light and dark themes both read. A long loop thins out: bars sum runs of
 * iterations, dots and labels drop away, the lines keep every value. Pure.
 */

const W = 960;
const H = 230;
const PAD = { left: 70, right: 20, top: 18, bottom: 40 };
const PLOT_W = W - PAD.left - PAD.right;
const PLOT_H = H - PAD.top - PAD.bottom;
/** Most bars a chart draws: beyond, each bar sums a run of iterations. */
const MAX_BARS = 200;
/** Dots on a line only while they stay apart. */
const MAX_DOTS = 80;

interface Point {
  iteration: number;
  value: number;
}

/** The events marked on every chart: where the loop waited, paused or met an API error. */
interface Mark {
  iteration: number;
  kind: ReportRow["kind"];
  label: string;
}

const escapeXml = (s: string) =>
  s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");
const r1 = (n: number) => Math.round(n * 10) / 10;

/** A round top for the y axis and its step: 0, 250, 500… */
function niceScale(max: number, min = 0): { lo: number; hi: number; step: number } {
  const span = max - min || Math.abs(max) || 1;
  const raw = span / 4;
  const mag = 10 ** Math.floor(Math.log10(raw));
  const step = ([1, 2, 2.5, 5, 10].find((f) => f * mag >= raw) ?? 10) * mag;
  const lo = Math.floor(min / step) * step;
  return { lo, hi: Math.max(lo + step, Math.ceil(max / step) * step), step };
}

function renderFrame(
  first: number,
  last: number,
  scale: { lo: number; hi: number; step: number },
  format: (n: number) => string,
): string[] {
  const out: string[] = [];
  const y = (v: number) => PAD.top + PLOT_H - ((v - scale.lo) / (scale.hi - scale.lo)) * PLOT_H;
  for (let v = scale.lo; v <= scale.hi + scale.step / 2; v += scale.step) {
    out.push(`<line class="grid" x1="${PAD.left}" x2="${W - PAD.right}" y1="${r1(y(v))}" y2="${r1(y(v))}"/>`);
    out.push(
      `<text class="tick" x="${PAD.left - 8}" y="${r1(y(v) + 4)}" text-anchor="end">${escapeXml(format(v))}</text>`,
    );
  }
  const span = Math.max(1, last - first);
  const every = span < 20 ? 1 : Math.max(1, niceScale(span).step);
  const x = (i: number) => PAD.left + ((i - first + 0.5) / (span + 1)) * PLOT_W;
  for (let i = Math.ceil(first / every) * every || every; i <= last; i += every) {
    out.push(`<text class="tick" x="${r1(x(i))}" y="${H - PAD.bottom + 16}" text-anchor="middle">${i}</text>`);
  }
  if (first === last || first % every !== 0)
    out.push(`<text class="tick" x="${r1(x(first))}" y="${H - PAD.bottom + 16}" text-anchor="middle">${first}</text>`);
  out.push(`<text class="axis" x="${W - PAD.right}" y="${H - 6}" text-anchor="end">iteration</text>`);
  out.push(
    `<line class="baseline" x1="${PAD.left}" x2="${W - PAD.right}" y1="${r1(y(scale.lo))}" y2="${r1(y(scale.lo))}"/>`,
  );
  return out;
}

function renderMarks(marks: readonly Mark[], first: number, last: number): string[] {
  const span = Math.max(1, last - first);
  const x = (i: number) => PAD.left + ((i - first + 0.5) / (span + 1)) * PLOT_W;
  const out: string[] = [];
  let lastLabel = -Infinity;
  // At one iteration a wait or a pause says more than the API error that led to it: its label goes first.
  const rank = (m: Mark) => (m.kind === "api_error" ? 1 : 0);
  const ordered = [...marks].sort((a, b) => a.iteration - b.iteration || rank(a) - rank(b));
  for (const mark of ordered) {
    const at = r1(x(mark.iteration));
    const cls =
      mark.kind === "wait" || mark.kind === "hold" ? "mark-wait" : mark.kind === "pause" ? "mark-pause" : "mark-error";
    out.push(
      `<line class="mark ${cls}" x1="${at}" x2="${at}" y1="${PAD.top}" y2="${PAD.top + PLOT_H}"><title>${escapeXml(mark.label)}</title></line>`,
    );
    if (at - lastLabel > 40) {
      out.push(
        `<text class="mark-label ${cls}" x="${at + 3}" y="${PAD.top + 10}">${escapeXml(EVENT_MARK[mark.kind])}</text>`,
      );
      lastLabel = at;
    }
  }
  return out;
}

const svgOpen = (id: string, title: string, summary: string) =>
  `<svg id="${id}" class="chart" role="img" viewBox="0 0 ${W} ${H}" width="${W}" height="${H}" preserveAspectRatio="xMidYMid meet" xmlns="http://www.w3.org/2000/svg" aria-labelledby="${id}-title ${id}-desc"><title id="${id}-title">${escapeXml(title)}</title><desc id="${id}-desc">${escapeXml(summary)}</desc>`;

/** Bars per iteration (or per run of iterations when there are many), with the loop's events marked. */
function renderBarChart(options: {
  id: string;
  title: string;
  points: readonly Point[];
  marks: readonly Mark[];
  format: (n: number) => string;
  className: string;
}): { svg: string; note: string } {
  const { points } = options;
  const first = points[0]?.iteration ?? 1;
  const last = points.at(-1)?.iteration ?? first;
  const per = Math.max(1, Math.ceil((last - first + 1) / MAX_BARS));
  const buckets = new Map<number, { from: number; to: number; value: number }>();
  for (const p of points) {
    const key = Math.floor((p.iteration - first) / per);
    const b = buckets.get(key) ?? { from: p.iteration, to: p.iteration, value: 0 };
    b.to = p.iteration;
    b.value += p.value;
    buckets.set(key, b);
  }
  const max = Math.max(0, ...[...buckets.values()].map((b) => b.value));
  const scale = niceScale(max);
  const slot = PLOT_W / Math.ceil((last - first + 1) / per);
  const bars = [...buckets.entries()].map(([key, b]) => {
    const h = (b.value / (scale.hi - scale.lo)) * PLOT_H;
    const x = PAD.left + key * slot + slot * 0.12;
    const label = b.from === b.to ? `iteration ${b.from}` : `iterations ${b.from}–${b.to}`;
    return `<rect class="${options.className}" x="${r1(x)}" y="${r1(PAD.top + PLOT_H - h)}" width="${r1(Math.max(1, slot * 0.76))}" height="${r1(Math.max(h, b.value > 0 ? 1 : 0))}"><title>${escapeXml(`${label}: ${options.format(b.value)}`)}</title></rect>`;
  });
  const note = per > 1 ? `Each bar sums ${per} iterations.` : "";
  const svg = [
    svgOpen(options.id, options.title, `${points.length} iterations, highest ${options.format(max)}. ${note}`),
    ...renderFrame(first, last, scale, options.format),
    ...bars,
    ...renderMarks(options.marks, first, last),
    "</svg>",
  ].join("");
  return { svg, note };
}

/** The metric per Stop, the best so far as a step line, and the target as a dashed line. */
function renderMetricChart(options: {
  id: string;
  /** Each value with the loop's best so far, as the model follows it (a changed command starts it again). */
  points: readonly (Point & { best: number | undefined })[];
  marks: readonly Mark[];
  target: { op: string; value: number } | undefined;
}): string {
  const { points, target } = options;
  const first = points[0]?.iteration ?? 1;
  const last = points.at(-1)?.iteration ?? first;
  const values = [...points.map((p) => p.value), ...(target ? [target.value] : [])];
  const lo = lowest(values) ?? 0;
  const hi = highest(values) ?? 0;
  const scale = niceScale(hi === lo ? hi + 1 : hi, hi === lo ? lo - 1 : lo);
  const span = Math.max(1, last - first);
  const x = (i: number) => PAD.left + ((i - first + 0.5) / (span + 1)) * PLOT_W;
  const y = (v: number) => PAD.top + PLOT_H - ((v - scale.lo) / (scale.hi - scale.lo)) * PLOT_H;
  const bestPath: string[] = [];
  for (const p of points) {
    const best = p.best ?? p.value;
    // Steps: the best holds until a later value beats it, or a new metric command starts it again.
    bestPath.push(bestPath.length ? `H${r1(x(p.iteration))}V${r1(y(best))}` : `M${r1(x(p.iteration))} ${r1(y(best))}`);
  }
  const best = points.at(-1)?.best;
  const line = points.map((p, i) => `${i ? "L" : "M"}${r1(x(p.iteration))} ${r1(y(p.value))}`).join("");
  const dots =
    points.length <= MAX_DOTS
      ? points.map(
          (p) =>
            `<circle class="dot-metric" cx="${r1(x(p.iteration))}" cy="${r1(y(p.value))}" r="3.5"><title>iteration ${p.iteration}: ${escapeXml(renderValue(p.value))}</title></circle>`,
        )
      : [];
  const targetLine = target
    ? [
        `<line class="line-target" x1="${PAD.left}" x2="${W - PAD.right}" y1="${r1(y(target.value))}" y2="${r1(y(target.value))}"/>`,
        `<text class="target-label" x="${PAD.left + 6}" y="${r1(y(target.value) - 5)}">target ${escapeXml(`${target.op} ${renderValue(target.value)}`)}</text>`,
      ]
    : [];
  const summary = `${points.length} values from ${renderValue(points[0]?.value)} to ${renderValue(points.at(-1)?.value)}, best ${renderValue(best)}${target ? `, target ${target.op} ${target.value}` : ""}.`;
  return [
    svgOpen(options.id, "Metric per iteration, best so far and target", summary),
    ...renderFrame(first, last, scale, renderValue),
    ...targetLine,
    `<path class="line-best" d="${bestPath.join("")}"/>`,
    `<path class="line-metric" d="${line}"/>`,
    ...dots,
    ...renderMarks(options.marks, first, last),
    "</svg>",
  ].join("");
}

/** The report's charts, each with its caption; none for a loop without the figures. */
export function renderReportCharts(model: ReportModel): Array<{ caption: string; svg: string }> {
  const iterations = model.rows.filter((r) => r.kind === "iteration" && r.iteration !== undefined);
  const marks: Mark[] = model.rows
    .filter((r) => ["wait", "hold", "pause", "api_error"].includes(r.kind) && r.iteration !== undefined)
    .map((r) => ({ iteration: r.iteration as number, kind: r.kind, label: `iteration ${r.iteration}: ${r.decision}` }));
  const series = (pick: (r: ReportRow) => number | undefined | null): Point[] =>
    iterations.flatMap((r) => {
      const value = pick(r);
      return typeof value === "number" ? [{ iteration: r.iteration as number, value }] : [];
    });
  // What a turn that paused for the user, or waited for background work, spent belongs to its iteration,
  // which goes on after the answer or the task's end.
  const summed = (pick: (r: ReportRow) => number | undefined): Point[] => {
    const paused = new Map<number, number>();
    for (const r of model.rows)
      if ((r.kind === "pause" || r.kind === "hold") && r.iteration !== undefined)
        paused.set(r.iteration, (paused.get(r.iteration) ?? 0) + (pick(r) ?? 0));
    return series(pick).map((p) => ({ ...p, value: p.value + (paused.get(p.iteration) ?? 0) }));
  };
  const charts: Array<{ caption: string; svg: string }> = [];
  const tokens = summed((r) => r.tokens);
  if (tokens.length) {
    const c = renderBarChart({
      id: "chart-tokens",
      title: "Output tokens per iteration",
      points: tokens,
      marks,
      format: renderTokens,
      className: "bar-tokens",
    });
    charts.push({ caption: `Output tokens per iteration. ${c.note}`.trim(), svg: c.svg });
  }
  const spend = summed((r) => r.spendUsd);
  if (spend.length) {
    const c = renderBarChart({
      id: "chart-spend",
      title: "Spend per iteration",
      points: spend,
      marks,
      format: renderUsd,
      className: "bar-spend",
    });
    charts.push({ caption: `Spend per iteration (USD, Claude Code's own figures). ${c.note}`.trim(), svg: c.svg });
  }
  const metric = iterations.flatMap((r) =>
    typeof r.metric === "number" ? [{ iteration: r.iteration as number, value: r.metric, best: r.metricBest }] : [],
  );
  if (metric.length) {
    const match = /^\s*(>=|<=|>|<)\s*(-?[\d.eE+-]+)\s*$/.exec(model.metric?.target ?? "");
    const target = match ? { op: match[1] as string, value: Number(match[2]) } : undefined;
    const svg = renderMetricChart({
      id: "chart-metric",
      points: metric,
      marks,
      target: target && Number.isFinite(target.value) ? target : undefined,
    });
    charts.push({
      caption: "The metric at each iteration (line), the best so far (steps) and the target (dashed).",
      svg,
    });
  }
  return charts;
}
