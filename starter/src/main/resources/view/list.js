// The list of simulations (GET /api/simulations), read again every 5 s; ready once first read.
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
    const body = await Page.get('/api/simulations');
    document.getElementById('temporal').textContent = 'Temporal at ' + body.temporal;
    const tbody = document.querySelector('#simulations tbody');
    tbody.replaceChildren();
    for (const s of body.simulations) {
      const row = tbody.insertRow();
      cell(row, s.id, '/simulation?id=' + encodeURIComponent(s.id));
      cell(row, s.scenario);
      cell(row, s.strategy);
      cell(row, s.status);
      row.cells[row.cells.length - 1].replaceChildren(Page.el('span', s.status, 'badge ' + String(s.status).toLowerCase().replace(/ /g, '_')));
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
  } finally {
    Page.loaded('list');
  }
}

Page.loading('list');
Page.started();
load();
setInterval(load, 5000);
