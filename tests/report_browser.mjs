// report_browser.mjs - the HTML report of `carc stats report` in headless
// Chromium, through the DevTools protocol over a pipe (node 18 or later):
// the browser parses the page and its SVG; this script reads back, from each
// chart's own axis (the ticks' places and the values they print), the value
// every mark stands for, and checks it against the report's JSON.
//
//   node tests/report_browser.mjs CHROMIUM REPORT.html REPORT.json [SHOT.png]
//
// Prints one line per check ("ok   ..." or "FAIL ...") and exits 1 when one
// failed. Checks: every measure of the JSON is drawn once, its dot, interval
// and corrected interval where the JSON puts them (to within half a pixel of
// the axis); every bar of points by reason and of the score histogram as
// high as its number; a sweep's trend and bands at each point's values; the
// page loads nothing (no network, no file besides itself).
import { readFileSync, writeFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { openChromium, sleep } from './cdp_pipe.mjs';

const [chromium, htmlPath, jsonPath, shot] = process.argv.slice(2);
const report = JSON.parse(readFileSync(jsonPath, 'utf8'));
let failed = 0;
const ok = (what) => console.log('ok   ' + what);
const bad = (what, why) => { failed++; console.log('FAIL ' + what + ': ' + why); };

const { cdp, js, quit, onEvent } = await openChromium(chromium, { name: 'report_browser', windowSize: '1100,900',
  timeoutMs: 120 * 1000, log: (m) => console.log('FAIL ' + m) });
const requests = []; // every URL the page asks for (itself first)
onEvent((msg) => { if (msg.method === 'Network.requestWillBeSent') requests.push(msg.params.request.url); });
await cdp('Network.enable');
await cdp('Page.enable');
await cdp('Page.navigate', { url: pathToFileURL(htmlPath).href });
for (let i = 0; i < 100 && (await js('document.readyState')) !== 'complete'; i++) await sleep(50);
await sleep(300);

// Each chart as the browser parsed it: its kind, its axis ticks (place and
// printed value), and its marks' geometry.
const charts = await js(`[...document.querySelectorAll('svg.chart')].map((svg) => {
  const num = (e, a) => parseFloat(e.getAttribute(a));
  const ticks = [...svg.querySelectorAll('g.tick')].map((t) => { const l = t.querySelector('line');
    return { x: num(l, 'x1'), y: num(l, 'y1'), x2: num(l, 'x2'), y2: num(l, 'y2'), value: parseFloat(t.querySelector('text').textContent) }; });
  const pts = (e) => e ? e.getAttribute('points').trim().split(/\\s+/).map((p) => p.split(',').map(Number)) : [];
  return {
    kind: svg.getAttribute('data-chart'), title: svg.querySelector('.chart-title').textContent,
    file: svg.closest('figure') ? svg.closest('figure').querySelector('figcaption').textContent : '',
    ticks,
    effects: [...svg.querySelectorAll('g.effect')].map((g) => { const line = (c) => { const l = g.querySelector('line.' + c);
      return l ? [num(l, 'x1'), num(l, 'x2')] : null; };
      return { name: g.querySelector('text.name').textContent, dot: num(g.querySelector('circle.estimate'), 'cx'),
               interval: line('interval'), corrected: line('corrected') }; }),
    bars: [...svg.querySelectorAll('g.category')].map((g) => ({ name: g.querySelector('text.name').textContent,
      rects: [...g.querySelectorAll('rect.bar')].map((r) => ({ series: r.getAttribute('data-series'), y: num(r, 'y'), h: num(r, 'height') })) })),
    points: [...svg.querySelectorAll('g.point')].map((g) => ({ name: g.getAttribute('data-name'),
      cy: num(g.querySelector('circle.estimate'), 'cy') })),
    band: pts(svg.querySelector('polygon.band:not(.corrected)')),
    corrected: pts(svg.querySelector('polygon.band.corrected')),
  };
})`);

// The axis of a chart as a function from a coordinate to a value, from its
// first and last tick; and the value half a pixel stands for.
function axisOf(chart, horizontal) {
  const t = chart.ticks;
  if (t.length < 2) return null;
  const p0 = horizontal ? t[0].x : t[0].y, p1 = horizontal ? t[t.length - 1].x : t[t.length - 1].y;
  const v0 = t[0].value, v1 = t[t.length - 1].value;
  const f = (p) => v0 + (p - p0) * (v1 - v0) / (p1 - p0);
  f.halfPixel = Math.abs((v1 - v0) / (p1 - p0)) * 0.5 + 1e-6;
  return f;
}
const near = (a, b, tol) => Math.abs(a - b) <= tol;

if (!charts.length) quit(1, 'the page shows no chart');
ok(`the page shows ${charts.length} charts (${charts.map((c) => c.file).join(', ')})`);

// Forest plots: every measure of the JSON in the chart of its unit.
const measures = report.metrics || [];
for (const chart of charts.filter((c) => c.kind === 'forest')) {
  const x = axisOf(chart, true);
  if (!x) { bad(chart.file, 'no axis'); continue; }
  let checked = 0;
  chart.effects.forEach((e, i) => {
    let want;
    if (measures.length) {
      const m = measures.find((r) => r.metric === e.name);
      if (!m) { bad(chart.file, 'a measure the JSON does not have: ' + e.name); return; }
      want = { value: m.diff, lo: m.lo, hi: m.hi, clo: m.corrected_lo, chi: m.corrected_hi };
    } else { // sim, tournament: the rows of seats or agents, in the JSON's order
      const bySeat = chart.file.includes('by-seat'), row = (bySeat ? report.seats : report.agents)[i];
      const label = row && (bySeat ? 'seat ' + row.seat + (row.agent ? ', ' + row.agent : '') : row.agent);
      if (!row || label !== e.name) { bad(chart.file, `row ${i + 1} is ${e.name}, the JSON's ${label}`); return; }
      const k = chart.title.startsWith('Win rate') ? 'win_rate' : 'mean_score';
      want = { value: row[k], lo: row[k + '_lo'], hi: row[k + '_hi'] };
    }
    const tol = x.halfPixel + 1e-6;
    const got = { value: x(e.dot), lo: x(e.interval[0]), hi: x(e.interval[1]) };
    if (e.corrected) { got.clo = x(e.corrected[0]); got.chi = x(e.corrected[1]); }
    const wrong = Object.keys(got).filter((k) => !near(got[k], want[k], tol));
    if (wrong.length) bad(`${chart.file}: ${e.name}`, wrong.map((k) => `${k} drawn at ${got[k].toFixed(4)}, JSON ${want[k]}`).join('; '));
    else checked++;
  });
  if (checked === chart.effects.length && checked > 0) ok(`${chart.file}: ${checked} effects drawn where the JSON puts them (dot, 95% interval${chart.effects[0].corrected ? ', corrected interval' : ''}; within half a pixel, ${x.halfPixel.toPrecision(2)})`);
}
if (measures.length) {
  const drawn = charts.filter((c) => c.kind === 'forest').flatMap((c) => c.effects.map((e) => e.name));
  const missing = measures.filter((m) => drawn.filter((n) => n === m.metric).length !== 1).map((m) => m.metric);
  if (missing.length) bad('every measure of the JSON drawn once', missing.join(', '));
  else ok(`every measure of the JSON drawn once (${measures.length})`);
}

// Bars: a bar's end away from zero is its value.
function barValue(y, rect) {
  const top = y(rect.y), bottom = y(rect.y + rect.h);
  return Math.abs(bottom) <= y.halfPixel || (top > 0 && bottom >= 0) ? top : bottom;
}
for (const chart of charts.filter((c) => c.kind === 'bars' || c.kind === 'histogram')) {
  const y = axisOf(chart, false);
  if (!y) { bad(chart.file, 'no axis'); continue; }
  const want = (cat, series, k) => {
    if (chart.kind === 'histogram') {
      const d = report.score_distribution, side = d.bins ? d : k === 0 ? d.a : d.b;
      const from = parseInt(cat, 10), bin = side.bins.find((b) => b.from === from);
      return bin ? bin.count : 0;
    }
    if (report.points_by_reason) return report.points_by_reason[cat];
    if (report.rows) { // a sweep: the baseline, then each point
      const r = report.rows.find((x) => x.key === 'points:' + cat && (series === 'baseline' || x.point === series));
      // a point without the row scored no such points (a sweep lists a reason where it scored)
      return r ? (series === 'baseline' ? r.baseline : r.value) : 0;
    }
    const m = measures.find((r) => r.key === 'points:' + cat);
    return m ? (k === 0 ? m.a : m.b) : NaN;
  };
  let n = 0, wrong = [];
  for (const c of chart.bars) c.rects.forEach((r, k) => {
    const got = barValue(y, r), w = want(c.name, r.series, k);
    if (!near(got, w, y.halfPixel + 1e-6)) wrong.push(`${c.name}/${r.series}: drawn ${got.toFixed(3)}, JSON ${w}`);
    n++;
  });
  if (chart.kind === 'histogram') {
    const d = report.score_distribution, sides = d.bins ? [d] : [d.a, d.b];
    const total = sides.reduce((s, side) => s + side.bins.reduce((t, b) => t + b.count, 0), 0);
    const drawn = chart.bars.reduce((s, c) => s + c.rects.reduce((t, r) => t + Math.round(barValue(y, r)), 0), 0);
    if (drawn !== total) wrong.push(`the bars add up to ${drawn} players, the JSON's bins to ${total}`);
  }
  if (wrong.length) bad(chart.file, wrong.slice(0, 5).join('; '));
  else ok(`${chart.file}: ${n} bars as high as the JSON's numbers (within half a pixel, ${y.halfPixel.toPrecision(2)})`);
}

// A sweep's trends: each point's dot and band edges.
for (const chart of charts.filter((c) => c.kind === 'trend')) {
  const y = axisOf(chart, false);
  const rows = (report.rows || []).filter((r) => chart.title.startsWith(r.metric + ':'));
  const wrong = [];
  chart.points.forEach((p, i) => {
    const r = rows.find((row) => row.point === p.name);
    if (!r) { wrong.push('a point the JSON does not have: ' + p.name); return; }
    const tol = y.halfPixel + 1e-6;
    if (!near(y(p.cy), r.diff, tol)) wrong.push(`${p.name}: dot ${y(p.cy).toFixed(3)}, JSON ${r.diff}`);
    const n = chart.points.length, hi = chart.band[i], lo = chart.band[2 * n - 1 - i];
    if (!hi || !near(y(hi[1]), r.hi, tol) || !near(y(lo[1]), r.lo, tol)) wrong.push(`${p.name}: band off`);
    if (chart.corrected.length) {
      const chi = chart.corrected[i], clo = chart.corrected[2 * n - 1 - i];
      if (!near(y(chi[1]), r.corrected_hi, tol) || !near(y(clo[1]), r.corrected_lo, tol)) wrong.push(`${p.name}: corrected band off`);
    }
  });
  if (chart.points.length !== rows.length) wrong.push(`${chart.points.length} points drawn, ${rows.length} in the JSON`);
  if (wrong.length) bad(chart.file, wrong.slice(0, 5).join('; '));
  else ok(`${chart.file}: ${rows.length} points, dots and bands at the JSON's values`);
}

await sleep(200);
const others = requests.filter((u) => u !== pathToFileURL(htmlPath).href);
if (others.length) bad('the page loads nothing else', others.slice(0, 3).join(', '));
else ok('the page loads nothing else (no network, no other file)');

if (shot) {
  const metrics = await cdp('Page.getLayoutMetrics');
  const h = Math.ceil(metrics.cssContentSize ? metrics.cssContentSize.height : metrics.contentSize.height);
  const r = await cdp('Page.captureScreenshot', { format: 'png', captureBeyondViewport: true,
    clip: { x: 0, y: 0, width: 1100, height: Math.min(h, 4000), scale: 1 } });
  writeFileSync(shot, Buffer.from(r.data, 'base64'));
  ok('screenshot ' + shot);
}
quit(failed ? 1 : 0);
