// The list's experiments (GET /api/experiments), read again every 5 s; shown once there is one.
'use strict';

async function loadExperiments() {
  try {
    const response = await fetch('/api/experiments');
    const body = await response.json();
    if (!response.ok) {
      return;
    }
    const tbody = document.querySelector('#experiments tbody');
    tbody.replaceChildren();
    for (const x of body.experiments) {
      const row = tbody.insertRow();
      const a = document.createElement('a');
      a.href = '/experiment?id=' + encodeURIComponent(x.id);
      a.textContent = x.id;
      row.insertCell().appendChild(a);
      for (const v of [x.status, x.started, x.closed]) {
        row.insertCell().textContent = v == null ? '-' : v;
      }
    }
    document.getElementById('experiments-section').hidden = body.experiments.length === 0;
  } catch (e) {
    // the simulations' list says when the view cannot reach Temporal
  }
}

loadExperiments();
setInterval(loadExperiments, 5000);
