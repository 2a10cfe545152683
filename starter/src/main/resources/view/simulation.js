// One simulation, live: a Server-Sent Events stream (GET .../events) brings what the server read of it
// (the steps so far, then each new one, its progress, interventions, costs by role, waiting calls); the
// buttons and forms POST the CLI's actions (pause, resume, stop, intervene, fork, approve, edit, deny).
// Every panel says which step it shows, and says so while it reads one; the page is marked ready
// (Page, in page.js) when nothing is loading.
'use strict';

const id = new URLSearchParams(location.search).get('id');
const api = '/api/simulations/' + encodeURIComponent(id);
const state = { steps: [], progress: null, interventions: [], columns: null, shownStep: null, agent: null };
let countsChart = null;
let callsChart = null;
const el = Page.el;
const get = path => Page.get(api + path);
const post = (action, body) => Page.post(api + '/' + action, body);

/** The last step done, as the page knows it: the latest of the progress and the steps read. */
function lastStep() {
  const row = state.steps.length > 0 ? state.steps[state.steps.length - 1].step : 0;
  return Math.max(row, state.progress ? state.progress.step || 0 : 0);
}

// ---- per-step data: charts and the counts table

function perStep(rows, field) {
  return rows.map((s, i) => (s[field] == null ? null : s[field] - (i > 0 && rows[i - 1][field] != null ? rows[i - 1][field] : 0)));
}

function redrawSteps() {
  const rows = state.steps;
  if (rows.length === 0) {
    return;
  }
  if (!state.columns) {
    state.columns = Object.keys(rows[0].counts || {});
    countsChart = Charts.stepChart(document.getElementById('counts-chart'), 'Variables', state.columns,
      () => state.interventions);
    callsChart = Charts.stepChart(document.getElementById('calls-chart'), 'LLM calls, tokens and failed agent steps per step',
      ['LLM calls', 'failed agent steps', 'tokens'], () => state.interventions, ['tokens']);
  }
  const xs = rows.map(s => s.step);
  countsChart.update(xs, state.columns.map(c => rows.map(s => (s.counts || {})[c] ?? null)));
  const calls = perStep(rows, 'llmCalls');
  const tokens = perStep(rows, 'tokens');
  const failed = rows.map((s, i) => (s.failedAgentSteps || 0) - (i > 0 ? rows[i - 1].failedAgentSteps || 0 : 0));
  callsChart.update(xs, [calls, failed, tokens]);

  const table = document.getElementById('counts');
  const head = table.tHead;
  head.replaceChildren();
  const h = head.insertRow();
  ['step', ...state.columns, 'LLM calls', 'tokens', 'failed agent steps'].forEach(c => h.appendChild(el('th', c, 'n')));
  const body = table.tBodies[0];
  body.replaceChildren();
  for (let i = rows.length - 1; i >= Math.max(0, rows.length - 500); i--) {
    const r = body.insertRow();
    [rows[i].step, ...state.columns.map(c => (rows[i].counts || {})[c]), calls[i], tokens[i], failed[i]].forEach(v => {
      const td = r.insertCell();
      td.className = 'n';
      td.textContent = v == null ? '-' : Page.number(v);
    });
  }
  Steps.setLatest(rows[rows.length - 1].step);
}

function showProgress() {
  const p = state.progress;
  if (!p) {
    return;
  }
  Page.loaded('run');
  document.getElementById('title').textContent = id + (p.scenario ? ' (' + p.scenario + ')' : '');
  const status = document.getElementById('status');
  if (!Actions.ended()) {
    status.textContent = p.done ? 'finished' : p.stopRequested ? 'stopping' : p.paused ? 'paused' : 'running';
    status.className = 'badge ' + (p.paused ? 'paused' : p.done ? 'completed' : 'running');
  }
  const usage = p.usage || { input: 0, output: 0 };
  document.getElementById('where').textContent = 'step ' + lastStep() + (p.totalSteps ? ' of ' + p.totalSteps : '')
    + (p.agents ? ', ' + p.agents + ' agents' : '') + ', ' + p.llmCalls + ' LLM calls, '
    + (usage.input + usage.output) + ' tokens';
  if (p.done) {
    Actions.end('finished');
  }
  if (Page.isLoading('roles') && !p.llmCalls) {
    showRoles({ byRole: [], failures: [], step: p.step }); // nothing to read yet (paused before its first step)
  }
}

function showStatus(s) {
  if (!s || s.status === 'RUNNING') {
    if (s && s.note) {
      document.getElementById('where').textContent = s.note;
    }
    return;
  }
  const status = document.getElementById('status');
  status.textContent = s.status.toLowerCase();
  status.className = 'badge ' + s.status.toLowerCase().replace(/ /g, '_');
  Actions.end(s.status === 'NOT FOUND' ? 'not been found' : s.status.toLowerCase());
  if (s.note) {
    document.getElementById('where').textContent = s.note;
  }
  // nothing more comes: what was not read will not be
  Page.loaded('run');
  Page.loaded('roles');
}

function showInterventions() {
  const p = document.getElementById('interventions');
  p.textContent = state.interventions.length === 0 ? '' : 'Interventions: ' + state.interventions.map(v =>
    '#' + v.number + ' from step ' + v.atStep + ': ' + Object.entries(v.parameters || {}).map(([k, x]) =>
      k + ' ' + (v.previous && v.previous[k] != null ? v.previous[k] + ' ' : '') + '-> ' + x).join(', ')
    + (v.applied ? '' : ' (scheduled)') + (v.note ? ' (' + v.note + ')' : '')).join('; ');
  if (countsChart) {
    countsChart.redraw();
    callsChart.redraw();
  }
}

function showRoles(costs) {
  if (!costs) {
    return; // not read yet: the panel says it is reading
  }
  Page.loaded('roles');
  document.getElementById('roles-step').textContent = costs.step != null
    ? '(after step ' + costs.step + '; read every 30 s)' : '';
  const div = document.getElementById('roles');
  div.replaceChildren();
  if (!costs.byRole || costs.byRole.length === 0) {
    div.appendChild(el('p', 'No LLM calls' + (costs.step != null ? ' by step ' + costs.step : '') + '.', 'muted'));
  } else {
    const t = el('table');
    const h = t.createTHead().insertRow();
    ['role', 'strategy', 'agent steps', 'failed', 'LLM calls', 'tokens in', 'tokens out'].forEach(c => h.appendChild(el('th', c)));
    const body = t.createTBody();
    for (const r of costs.byRole) {
      const row = body.insertRow();
      [r.role, r.strategy, r.agentSteps, r.failedAgentSteps, r.llmCalls, r.usage ? r.usage.input : 0,
        r.usage ? r.usage.output : 0].forEach(v => { row.insertCell().textContent = v; });
    }
    div.appendChild(t);
  }
  const failures = document.getElementById('failures');
  failures.replaceChildren();
  if (costs.failures && costs.failures.length > 0) {
    failures.appendChild(el('h3', 'Failed agent steps'));
    const ul = el('ul');
    costs.failures.forEach(f => ul.appendChild(el('li', f.agentSteps + ' x ' + f.reason)));
    failures.appendChild(ul);
  }
}

// ---- the world and the agents

// One world read at a time: a step asked for meanwhile (the next step of a run followed, the slider moved
// on) is read when it ends, and a world no longer asked for is not drawn.
let worldReading = null;
let worldWanted = null;
async function showWorld(step) {
  worldWanted = step;
  Page.loading('world');
  document.getElementById('world-panel').classList.add('loading');
  document.getElementById('world-loading').textContent = '(reading step ' + step + ' from the histories...)';
  if (worldReading != null) {
    return;
  }
  worldReading = step;
  let world = null;
  let failure = null;
  try {
    world = await get('/world?step=' + step);
  } catch (e) {
    failure = e;
  }
  worldReading = null;
  if (worldWanted !== step) {
    showWorld(worldWanted);
    return;
  }
  if (world) {
    state.shownStep = world.step;
    document.getElementById('shown-step').textContent = world.step;
    document.getElementById('world-note').textContent = '';
    try {
      World.draw(world, agentId => showAgent(agentId));
    } catch (e) {
      document.getElementById('world-note').textContent = 'The world after step ' + step + ' could not be drawn: '
        + e.message;
    }
    if (state.agent) {
      showAgent(state.agent, world.step);
    }
  } else {
    document.getElementById('world-note').textContent = 'The world after step ' + step + ' is not shown: '
      + failure.message;
  }
  document.getElementById('world-loading').textContent = '';
  document.getElementById('world-panel').classList.remove('loading');
  Page.loaded('world');
  Steps.drawn(step);
}

let agentRequest = 0;
async function showAgent(agentId, step = state.shownStep) {
  state.agent = agentId;
  const mine = ++agentRequest;
  Page.loading('agent');
  Agent.reading(agentId, step);
  try {
    const agent = await get('/agents/' + encodeURIComponent(agentId) + '?step=' + step);
    if (mine === agentRequest) {
      // its last step: the world goes there too, and shows the agent there
      Agent.show(agent, last => Steps.go(last));
    }
  } catch (e) {
    if (mine === agentRequest) {
      Page.fail('Agent ' + agentId + ' at step ' + step + ': ' + e.message);
    }
  } finally {
    if (mine === agentRequest) {
      Page.loaded('agent');
    }
  }
}

async function fork() {
  const steps = document.getElementById('fork-steps').value;
  const answer = await post('fork', { atStep: state.shownStep, steps: steps === '' ? null : steps });
  if (answer && answer.id) {
    const said = document.getElementById('said');
    said.append(' ');
    const a = el('a', 'Open ' + answer.id);
    a.href = '/simulation?id=' + encodeURIComponent(answer.id);
    said.appendChild(a);
  }
}

function showAbout(about) {
  Actions.buildInterveneForm(about.adjustable, post);
  if (about.temporalUi) {
    const link = document.getElementById('temporal-ui');
    link.href = about.temporalUi;
    link.hidden = false;
  }
  if (about.origin && about.origin.simulation) {
    const origin = document.getElementById('origin');
    const from = el('a', about.origin.simulation);
    from.href = '/simulation?id=' + encodeURIComponent(about.origin.simulation);
    origin.replaceChildren((about.origin.kind || 'fork') + ' of ', from, ' after step ' + about.origin.step
      + (about.origin.file ? ' (' + about.origin.file + ')' : ''));
    origin.hidden = false;
  }
}

// ---- start

async function start() {
  document.getElementById('title').textContent = id;
  document.title = 'Durable Agents: ' + id;
  document.getElementById('pause').onclick = () => post('pause');
  document.getElementById('resume').onclick = () => post('resume');
  document.getElementById('stop').onclick = () => post('stop');
  document.getElementById('fork').onclick = fork;
  Steps.init(step => showWorld(step));
  ['about', 'run', 'roles'].forEach(Page.loading);
  Page.started();
  const events = new EventSource(api + '/events');
  const on = (name, handle) => events.addEventListener(name, e => handle(JSON.parse(e.data)));
  on('snapshot', s => {
    state.steps = s.steps || [];
    state.progress = s.progress;
    state.interventions = s.interventions || [];
    redrawSteps();
    showProgress();
    showInterventions();
    showRoles(s.roles);
    Actions.showApprovals(s.approvals, post);
    showStatus(s.status && s.status.finished ? s.status : null);
  });
  on('steps', rows => {
    state.steps.push(...rows);
    redrawSteps();
    showProgress();
  });
  on('progress', p => { state.progress = p; showProgress(); });
  on('interventions', v => { state.interventions = v || []; showInterventions(); });
  on('roles', showRoles);
  on('approvals', calls => Actions.showApprovals(calls, post));
  on('status', showStatus);
  try {
    showAbout(await get(''));
  } catch (e) {
    Page.fail(e.message);
  } finally {
    Page.loaded('about');
  }
}

start();
