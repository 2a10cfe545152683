// The list of simulations (GET /api/simulations), read again every 5 s.
'use strict';

function cell(row, text, href) {
  const td = row.insertCell();
  if (href) {
    const a = document.createElement('a');
    a.href = href;
    a.textContent = text;
    td.appendChild(a);
  } else {
    td.textContent = text == null ? '-' : text;
  }
}

async function load() {
  const error = document.getElementById('error');
  try {
    const response = await fetch('/api/simulations');
    const body = await response.json();
    if (!response.ok) {
      throw new Error(body.error + (body.hint ? ' ' + body.hint : ''));
    }
    document.getElementById('temporal').textContent = 'Temporal at ' + body.temporal;
    const tbody = document.querySelector('#simulations tbody');
    tbody.replaceChildren();
    for (const s of body.simulations) {
      const row = tbody.insertRow();
      cell(row, s.id, '/simulation?id=' + encodeURIComponent(s.id));
      cell(row, s.scenario);
      cell(row, s.strategy);
      cell(row, s.status);
      cell(row, s.step);
      cell(row, s.started);
      cell(row, s.closed);
      cell(row, s.runs);
    }
    document.getElementById('none').hidden = body.simulations.length > 0;
    error.hidden = true;
  } catch (e) {
    error.textContent = 'Could not list the simulations: ' + e.message;
    error.hidden = false;
  }
}

load();
setInterval(load, 5000);
