// One simulation, live: a Server-Sent Events stream (GET .../events) brings what the server read of it
// (the steps so far, then each new one, its progress, interventions, costs by role, waiting calls); the
// buttons and forms POST the CLI's actions (pause, resume, stop, intervene, fork, approve, edit, deny).
'use strict';

const id = new URLSearchParams(location.search).get('id');
const api = '/api/simulations/' + encodeURIComponent(id);
const state = { steps: [], progress: null, interventions: [], columns: null, shownStep: null, agent: null };
let countsChart = null;
let callsChart = null;
const el = World.el;

function say(text) {
  const said = document.getElementById('said');
  said.textContent = text;
  said.hidden = false;
  document.getElementById('error').hidden = true;
}

function fail(text) {
  const error = document.getElementById('error');
  error.textContent = text;
  error.hidden = false;
}

async function post(action, body) {
  try {
    const response = await fetch(api + '/' + action, {
      method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body || {})
    });
    const answer = await response.json();
    if (!response.ok) {
      fail(answer.error + (answer.hint ? ' ' + answer.hint : ''));
      return null;
    }
    say(answer.message);
    return answer;
  } catch (e) {
    fail(action + ' failed: ' + e.message);
    return null;
  }
}

async function get(path) {
  const response = await fetch(api + path);
  const body = await response.json();
  if (!response.ok) {
    throw new Error(body.error + (body.hint ? ' ' + body.hint : ''));
  }
  return body;
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
    countsChart = stepChart(document.getElementById('counts-chart'), 'Variables', state.columns, () => state.interventions);
    callsChart = stepChart(document.getElementById('calls-chart'), 'LLM calls, tokens and failed agent steps per step',
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
      td.textContent = v == null ? '-' : v;
    });
  }
  const slider = document.getElementById('step');
  const last = rows[rows.length - 1].step;
  slider.max = last;
  if (document.getElementById('follow').checked && state.shownStep !== last) {
    slider.value = last;
    showWorld(last);
  }
}

function showProgress() {
  const p = state.progress;
  if (!p) {
    return;
  }
  document.getElementById('title').textContent = id + (p.scenario ? ' (' + p.scenario + ')' : '');
  const status = document.getElementById('status');
  const label = p.done ? 'finished' : p.stopRequested ? 'stopping' : p.paused ? 'paused' : 'running';
  status.textContent = label;
  status.className = 'badge ' + (p.paused ? 'paused' : p.done ? 'COMPLETED' : 'RUNNING');
  const usage = p.usage || { input: 0, output: 0 };
  document.getElementById('where').textContent = 'step ' + p.step + (p.totalSteps ? ' of ' + p.totalSteps : '')
    + (p.agents ? ', ' + p.agents + ' agents' : '') + ', ' + p.llmCalls + ' LLM calls, '
    + (usage.input + usage.output) + ' tokens';
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
  status.className = 'badge ' + s.status;
  ['pause', 'resume', 'stop'].forEach(b => { document.getElementById(b).disabled = true; });
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
  const div = document.getElementById('roles');
  div.replaceChildren();
  if (!costs || !costs.byRole || costs.byRole.length === 0) {
    div.appendChild(el('p', 'No LLM calls yet.', 'muted'));
  } else {
    const t = el('table');
    const h = t.createTHead().insertRow();
    ['role', 'strategy', 'agent steps', 'failed', 'LLM calls', 'tokens in', 'tokens out'].forEach(c => h.appendChild(el('th', c)));
    for (const r of costs.byRole) {
      const row = t.createTBody().insertRow();
      [r.role, r.strategy, r.agentSteps, r.failedAgentSteps, r.llmCalls, r.usage ? r.usage.input : 0,
        r.usage ? r.usage.output : 0].forEach(v => { row.insertCell().textContent = v; });
    }
    div.appendChild(t);
  }
  const failures = document.getElementById('failures');
  failures.replaceChildren();
  if (costs && costs.failures && costs.failures.length > 0) {
    failures.appendChild(el('h3', 'Failed agent steps'));
    const ul = el('ul');
    costs.failures.forEach(f => ul.appendChild(el('li', f.agentSteps + ' x ' + f.reason)));
    failures.appendChild(ul);
  }
}

// ---- the world and the agents

let worldRequest = 0;
async function showWorld(step) {
  state.shownStep = step;
  document.getElementById('shown-step').textContent = step;
  const mine = ++worldRequest;
  try {
    const world = await get('/world?step=' + step);
    if (mine === worldRequest) {
      document.getElementById('world-note').textContent = '';
      World.draw(world, agentId => showAgent(agentId));
      if (state.agent) {
        showAgent(state.agent);
      }
    }
  } catch (e) {
    if (mine === worldRequest) {
      document.getElementById('world-note').textContent = 'The world after step ' + step + ' is not shown: ' + e.message;
    }
  }
}

async function showAgent(agentId, step = state.shownStep) {
  state.agent = agentId;
  try {
    World.showAgent(await get('/agents/' + encodeURIComponent(agentId) + '?step=' + step), showAgent);
  } catch (e) {
    fail('Agent ' + agentId + ' at step ' + step + ': ' + e.message);
  }
}

// ---- acting

function showApprovals(calls) {
  const div = document.getElementById('approvals');
  div.replaceChildren();
  if (!calls || calls.length === 0) {
    div.appendChild(el('p', 'None.', 'muted'));
    return;
  }
  for (const c of calls) {
    const box = el('div');
    box.className = 'approval';
    box.appendChild(el('p', c.call + ': ' + c.tool));
    const args = el('textarea');
    args.className = 'args';
    args.value = JSON.stringify(c.arguments);
    const reason = el('input');
    reason.placeholder = 'reason (the model reads it)';
    reason.size = 40;
    const approve = el('button', 'Approve');
    approve.onclick = () => {
      const edited = args.value.trim() !== JSON.stringify(c.arguments);
      post(edited ? 'edit' : 'approve', { call: c.call, arguments: edited ? args.value : null, reason: reason.value });
    };
    const deny = el('button', 'Deny');
    deny.onclick = () => post('deny', { call: c.call, reason: reason.value });
    box.append(args, reason, ' ', approve, ' ', deny);
    div.appendChild(box);
  }
}

function buildInterveneForm(params) {
  const form = document.getElementById('intervene');
  form.replaceChildren();
  if (!params || params.length === 0) {
    form.appendChild(el('p', 'This scenario has no parameter that may change while it runs.', 'muted'));
    return;
  }
  for (const p of params) {
    const label = el('label');
    label.appendChild(el('span', p.name + ' '));
    let input;
    if (p.allowedValues && p.allowedValues.length > 0 || p.type === 'boolean') {
      input = el('select');
      input.appendChild(el('option', ''));
      (p.type === 'boolean' ? ['true', 'false'] : p.allowedValues).forEach(v => input.appendChild(el('option', v)));
    } else {
      input = el('input');
      if (p.type === 'integer' || p.type === 'number') {
        input.type = 'number';
        input.step = p.type === 'integer' ? '1' : 'any';
      }
      input.placeholder = JSON.stringify(p.defaultValue);
    }
    input.name = p.name;
    label.appendChild(input);
    label.appendChild(el('span', ' ' + p.description, 'hint'));
    form.appendChild(label);
  }
  const at = el('label');
  at.append('from step ');
  const atInput = el('input');
  atInput.name = 'atStep';
  atInput.type = 'number';
  atInput.min = '1';
  atInput.placeholder = 'next';
  at.appendChild(atInput);
  form.appendChild(at);
  const note = el('label');
  note.append('note ');
  const noteInput = el('input');
  noteInput.name = 'note';
  note.appendChild(noteInput);
  form.appendChild(note);
  form.appendChild(el('button', 'Intervene'));
  form.onsubmit = ev => {
    ev.preventDefault();
    const parameters = {};
    params.forEach(p => {
      const v = form.elements[p.name].value;
      if (v !== '') {
        parameters[p.name] = v;
      }
    });
    post('intervene', { parameters, atStep: atInput.value, note: noteInput.value });
  };
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

// ---- start

async function start() {
  document.getElementById('title').textContent = id;
  document.getElementById('pause').onclick = () => post('pause');
  document.getElementById('resume').onclick = () => post('resume');
  document.getElementById('stop').onclick = () => post('stop');
  document.getElementById('fork').onclick = fork;
  const slider = document.getElementById('step');
  // while the slider is dragged, the world is read for the step it rests on (150 ms), not for every step passed
  let resting = null;
  slider.oninput = () => {
    document.getElementById('follow').checked = slider.value === slider.max;
    document.getElementById('shown-step').textContent = slider.value;
    clearTimeout(resting);
    resting = setTimeout(() => showWorld(Number(slider.value)), 150);
  };
  document.getElementById('follow').onchange = ev => {
    if (ev.target.checked && state.steps.length > 0) {
      slider.value = slider.max;
      showWorld(state.steps[state.steps.length - 1].step);
    }
  };
  try {
    const about = await get('');
    buildInterveneForm(about.adjustable);
    if (about.temporalUi) {
      const link = document.getElementById('temporal-ui');
      link.href = about.temporalUi;
      link.hidden = false;
    }
  } catch (e) {
    fail(e.message);
  }
  const events = new EventSource(api + '/events');
  const on = (name, handle) => events.addEventListener(name, e => handle(JSON.parse(e.data)));
  on('snapshot', s => {
    state.steps = s.steps || [];
    state.progress = s.progress;
    state.interventions = s.interventions || [];
    showProgress();
    redrawSteps();
    showInterventions();
    showRoles(s.roles);
    showApprovals(s.approvals);
    showStatus(s.status);
  });
  on('steps', rows => {
    state.steps.push(...rows);
    redrawSteps();
  });
  on('progress', p => { state.progress = p; showProgress(); });
  on('interventions', v => { state.interventions = v || []; showInterventions(); });
  on('roles', showRoles);
  on('approvals', showApprovals);
  on('status', showStatus);
}

start();
