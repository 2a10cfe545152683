// The world after a step (GET .../world?step=N): a grid drawn on a canvas, each agent in its colour and
// shape, or a table of agents where the scenario has no grid; and one agent at a step (GET
// .../agents/{agentId}?step=N): what it saw, remembered, planned and called.
'use strict';

const World = (() => {
  let shown = null;

  function el(tag, text, cls) {
    const e = document.createElement(tag);
    if (text != null) {
      e.textContent = text;
    }
    if (cls) {
      e.className = cls;
    }
    return e;
  }

  function shape(ctx, kind, cx, cy, r) {
    ctx.beginPath();
    if (kind === 'square' || kind === 'rect') {
      ctx.rect(cx - r, cy - r, 2 * r, 2 * r);
    } else if (kind === 'triangle') {
      ctx.moveTo(cx, cy - r);
      ctx.lineTo(cx + r, cy + r);
      ctx.lineTo(cx - r, cy + r);
      ctx.closePath();
    } else if (kind === 'diamond') {
      ctx.moveTo(cx, cy - r);
      ctx.lineTo(cx + r, cy);
      ctx.lineTo(cx, cy + r);
      ctx.lineTo(cx - r, cy);
      ctx.closePath();
    } else {
      ctx.arc(cx, cy, r, 0, 2 * Math.PI);
    }
    ctx.fill();
  }

  function draw(world, onAgent) {
    shown = world;
    const canvas = document.getElementById('world');
    const table = document.getElementById('agent-table');
    table.replaceChildren();
    const agents = world.agents || [];
    // cells of 22 px, smaller for a large grid (the canvas stays within about 600 px)
    const CELL = world.grid ? Math.max(4, Math.min(22, Math.floor(600 / Math.max(world.grid.width, world.grid.height)))) : 0;
    if (world.grid) {
      canvas.hidden = false;
      canvas.width = world.grid.width * CELL;
      canvas.height = world.grid.height * CELL;
      const ctx = canvas.getContext('2d');
      ctx.clearRect(0, 0, canvas.width, canvas.height);
      ctx.strokeStyle = '#eceff3';
      for (let x = 0; x <= world.grid.width; x++) {
        ctx.beginPath(); ctx.moveTo(x * CELL, 0); ctx.lineTo(x * CELL, canvas.height); ctx.stroke();
      }
      for (let y = 0; y <= world.grid.height; y++) {
        ctx.beginPath(); ctx.moveTo(0, y * CELL); ctx.lineTo(canvas.width, y * CELL); ctx.stroke();
      }
      for (const a of agents) {
        if (a.x == null || a.y == null) {
          continue;
        }
        ctx.fillStyle = a.color || '#555';
        shape(ctx, a.shape, a.x * CELL + CELL / 2, a.y * CELL + CELL / 2, Math.max(1.5, CELL / 2 - 3));
      }
      canvas.onclick = ev => {
        const r = canvas.getBoundingClientRect();
        const x = Math.floor((ev.clientX - r.left) * canvas.width / r.width / CELL);
        const y = Math.floor((ev.clientY - r.top) * canvas.height / r.height / CELL);
        const hit = agents.find(a => a.x === x && a.y === y);
        if (hit) {
          onAgent(hit.id);
        }
      };
    } else {
      canvas.hidden = true;
    }
    if (!world.grid || agents.length <= 60) {
      const t = el('table');
      const head = t.createTHead().insertRow();
      ['agent', 'role', 'where', 'state'].forEach(h => head.appendChild(el('th', h)));
      const body = t.createTBody();
      for (const a of agents) {
        const row = body.insertRow();
        const link = el('a', a.id);
        link.href = '#';
        link.onclick = ev => { ev.preventDefault(); onAgent(a.id); };
        row.insertCell().appendChild(link);
        row.insertCell().textContent = a.role || '';
        row.insertCell().textContent = a.x == null ? '' : '(' + a.x + ', ' + a.y + ')';
        row.insertCell().textContent = a.label || JSON.stringify(a.attributes || {});
        if (a.color) {
          row.cells[0].style.borderLeft = '6px solid ' + a.color;
        }
      }
      table.appendChild(t);
    }
  }

  function block(parent, title, value) {
    if (value == null || value === '' || (Array.isArray(value) && value.length === 0)) {
      return;
    }
    parent.appendChild(el('h3', title));
    parent.appendChild(el('pre', typeof value === 'string' ? value : JSON.stringify(value, null, 2)));
  }

  // open(agentId, step): shows the same agent at another step (a jailed citizen's last step)
  function showAgent(a, open) {
    document.getElementById('agent').hidden = false;
    document.getElementById('agent-id').textContent = a.agentId;
    document.getElementById('agent-step').textContent = a.step;
    const body = document.getElementById('agent-body');
    body.replaceChildren();
    if (a.temporalUi) {
      const link = el('a', 'This agent step in the Temporal UI');
      link.href = a.temporalUi;
      link.target = '_blank';
      link.rel = 'noopener';
      body.appendChild(link);
    }
    if (a.note) {
      body.appendChild(el('p', a.note));
    }
    if (a.lastStep != null && open) {
      const last = el('button', 'Its last step: step ' + a.lastStep);
      last.onclick = () => open(a.agentId, a.lastStep);
      body.appendChild(last);
    }
    block(body, 'Reasoning', a.reasoning);
    block(body, 'Observation', a.observation);
    block(body, 'Memory', a.memory);
    block(body, 'Plan' + (a.remainingTtl != null ? ' (' + a.remainingTtl + ' more steps)' : ''), a.plan);
    for (const [i, c] of (a.llmCalls || []).entries()) {
      block(body, 'LLM call ' + (i + 1) + ': ' + (c.model || '') + (c.purpose ? ', ' + c.purpose : '') + ' ('
        + (c.inputTokens || 0) + ' in, ' + (c.outputTokens || 0) + ' out tokens)', c.text || '');
    }
    for (const t of a.toolCalls || []) {
      block(body, 'Tool call ' + t.name, { arguments: t.arguments, result: t.result, error: t.error });
    }
    block(body, 'Actions', a.actions);
  }

  return { draw, showAgent, shown: () => shown, el };
})();
