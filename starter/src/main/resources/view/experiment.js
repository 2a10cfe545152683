// An experiment's page (GET /api/experiments/{id}): its runs by status, a chart of a chosen final count
// against a chosen parameter (each run a point, the mean over seeds a line), and its runs, each a link to
// its own simulation page. Read again every 3 s while it runs; marks <html data-ready="true"> once drawn (as every page does).
'use strict';

const id = new URLSearchParams(location.search).get('id');
const SVG = 'http://www.w3.org/2000/svg';
let last = null;

function el(tag, attrs, parent) {
  const e = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs)) {
    e.setAttribute(k, v);
  }
  parent.appendChild(e);
  return e;
}

function number(text) {
  const n = Number(text);
  return Number.isFinite(n) ? n : null;
}

function round(v) {
  return Math.abs(v) >= 100 || Number.isInteger(v) ? String(Math.round(v * 10) / 10) : v.toPrecision(3);
}

function fillSelect(select, options) {
  const keep = select.value;
  if ([...select.options].map(o => o.value).join('|') !== options.join('|')) {
    select.replaceChildren(...options.map(o => new Option(o, o)));
  }
  if (options.includes(keep)) {
    select.value = keep;
  }
}

function drawChart(body) {
  const svg = document.getElementById('chart');
  svg.replaceChildren();
  const count = document.getElementById('count').value;
  const dimension = document.getElementById('dimension').value;
  const W = svg.clientWidth || 720, H = svg.clientHeight || 320, L = 56, R = 16, T = 28, B = 40;
  const points = body.runs.filter(r => r.finalCounts && r.finalCounts[count] != null)
    .map(r => ({run: r, label: dimension ? r.values[dimension] : String(r.seed), y: Number(r.finalCounts[count])}));
  if (points.length === 0) {
    el('text', {x: L, y: H / 2, class: 'muted'}, svg).textContent = 'No run has ended yet.';
    return;
  }
  const labels = [...new Set(points.map(p => p.label))];
  const numeric = labels.every(l => number(l) != null);
  if (numeric) {
    labels.sort((a, b) => number(a) - number(b));
  }
  const xs = numeric ? labels.map(number) : labels.map((_, i) => i);
  const xOf = label => xs[labels.indexOf(label)];
  const [x0, x1] = [Math.min(...xs), Math.max(...xs)];
  const ys = points.map(p => p.y);
  let [y0, y1] = [Math.min(0, ...ys), Math.max(...ys)];
  if (y1 === y0) {
    y1 = y0 + 1;
  }
  const px = x => L + (x1 === x0 ? (W - L - R) / 2 : (x - x0) / (x1 - x0) * (W - L - R));
  const py = y => H - B - (y - y0) / (y1 - y0) * (H - T - B);
  el('line', {x1: L, y1: H - B, x2: W - R, y2: H - B, stroke: '#7a8494'}, svg);
  el('line', {x1: L, y1: T, x2: L, y2: H - B, stroke: '#7a8494'}, svg);
  for (const v of [y0, (y0 + y1) / 2, y1]) {
    el('text', {x: L - 6, y: py(v) + 4, 'text-anchor': 'end', 'font-size': 11}, svg).textContent = round(v);
  }
  labels.forEach((l, i) => {
    el('text', {x: px(xs[i]), y: H - B + 16, 'text-anchor': 'middle', 'font-size': 11}, svg).textContent = l;
  });
  el('text', {x: (L + W - R) / 2, y: H - 6, 'text-anchor': 'middle', 'font-size': 12}, svg).textContent =
    dimension || 'seed';
  el('text', {x: 8, y: 16, 'font-size': 12, 'font-weight': 'bold'}, svg).textContent = count;
  // the mean over the runs at each value: a line
  const means = labels.map(l => {
    const at = points.filter(p => p.label === l).map(p => p.y);
    return [px(xOf(l)), py(at.reduce((a, b) => a + b, 0) / at.length)];
  });
  el('polyline', {points: means.map(m => m.join(',')).join(' '), fill: 'none', stroke: '#1f6feb',
    'stroke-width': 2, class: 'mean'}, svg);
  // every run: a point, a link to its page
  for (const p of points) {
    const a = el('a', {href: '/simulation?id=' + encodeURIComponent(p.run.runId)}, svg);
    const c = el('circle', {cx: px(xOf(p.label)), cy: py(p.y), r: 5, fill: '#d1495b', 'fill-opacity': 0.7,
      class: 'run-point', 'data-run': p.run.runId}, a);
    el('title', {}, c).textContent = 'run ' + p.run.index + ' (' + describe(p.run) + '): ' + count + ' ' + p.y;
  }
}

function describe(run) {
  const parts = Object.entries(run.values).map(([k, v]) => k + '=' + v);
  if (run.seed != null) {
    parts.push('seed=' + run.seed);
  }
  return parts.join(', ');
}

function drawTable(body) {
  const thead = document.querySelector('#runs thead');
  const head = ['Run', ...body.dimensions, 'Seed', 'Status', ...body.counts, 'LLM calls', 'Tokens', 'Why'];
  thead.replaceChildren();
  const hr = thead.insertRow();
  for (const h of head) {
    const th = document.createElement('th');
    th.textContent = h;
    hr.appendChild(th);
  }
  const tbody = document.querySelector('#runs tbody');
  tbody.replaceChildren();
  for (const run of body.runs) {
    const row = tbody.insertRow();
    const first = row.insertCell();
    first.className = 'id';
    if (run.runId) {
      const a = document.createElement('a');
      a.href = '/simulation?id=' + encodeURIComponent(run.runId);
      a.textContent = run.runId;
      first.appendChild(a);
    } else {
      first.textContent = String(run.index);
    }
    for (const d of body.dimensions) {
      row.insertCell().textContent = run.values[d] ?? '-';
    }
    row.insertCell().textContent = run.seed ?? '-';
    const status = row.insertCell();
    const badge = document.createElement('span');
    badge.className = 'badge ' + run.status.toLowerCase();
    badge.textContent = run.status.toLowerCase().replace('_', ' ');
    status.appendChild(badge);
    for (const c of body.counts) {
      const td = row.insertCell();
      td.className = 'n';
      const v = run.finalCounts ? run.finalCounts[c] : null;
      td.textContent = v == null ? '-' : round(Number(v));
    }
    for (const v of [run.llmCalls, run.tokens]) {
      const td = row.insertCell();
      td.className = 'n';
      td.textContent = v ?? '-';
    }
    row.insertCell().textContent = run.reason ?? '';
  }
}

async function load() {
  const error = document.getElementById('error');
  try {
    const response = await fetch('/api/experiments/' + encodeURIComponent(id));
    const body = await response.json();
    if (!response.ok) {
      throw new Error(body.error + (body.hint ? ' ' + body.hint : ''));
    }
    last = body;
    document.title = 'Durable Agents: ' + body.id;
    document.getElementById('title').textContent = body.id + (body.name ? ': ' + body.name : '');
    const status = document.getElementById('status');
    status.textContent = body.paused ? 'paused' : body.stopping ? 'stopping' : body.status;
    status.className = 'badge ' + (body.paused ? 'paused' : body.status);
    document.getElementById('where').textContent = body.scenario + ', ' + body.steps + ' steps a run'
      + (body.whatIfOf ? ', what-ifs of ' + body.whatIfOf + ' after step ' + body.whatIfStep : '')
      + (body.budget ? ', budget ' + body.budget : '');
    const byStatus = {};
    for (const r of body.runs) {
      byStatus[r.status] = (byStatus[r.status] || 0) + 1;
    }
    document.getElementById('summary').textContent = body.runs.length + ' runs: '
      + Object.entries(byStatus).map(([s, n]) => n + ' ' + s.toLowerCase().replace('_', ' ')).join(', ')
      + '; ' + body.llmCalls + ' LLM calls, ' + body.tokens + ' tokens in the runs that ended.';
    fillSelect(document.getElementById('count'), body.counts);
    fillSelect(document.getElementById('dimension'), body.dimensions);
    drawChart(body);
    drawTable(body);
    error.hidden = true;
    document.getElementById('loading').hidden = true;
    document.documentElement.dataset.ready = 'true';
    return body.status === 'running';
  } catch (e) {
    error.textContent = 'Could not read the experiment: ' + e.message;
    error.hidden = false;
    document.getElementById('loading').hidden = true;
    document.documentElement.dataset.ready = 'true';
    return true;
  }
}

async function follow() {
  if (await load()) {
    setTimeout(follow, 3000);
  }
}

for (const select of ['count', 'dimension']) {
  document.getElementById(select).addEventListener('change', () => last && drawChart(last));
}
document.documentElement.dataset.ready = 'false';
follow();
