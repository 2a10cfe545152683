// The world after a step (GET .../world?step=N), as the scenario's portrayal draws it: a grid on a canvas
// as wide as its panel allows, each agent in its colour and shape with its label; the portrayal's legend
// (or, where it gives none, the roles drawn in each colour and shape); and a table of the agents with
// where they are, their state and each of their attributes as a column, numbers rounded.
'use strict';

const World = (() => {
  const el = Page.el;
  let shown = null;
  let onAgent = () => {};

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
    } else if (kind === 'cross') {
      const t = r / 3;
      ctx.rect(cx - r, cy - t, 2 * r, 2 * t);
      ctx.rect(cx - t, cy - r, 2 * t, 2 * r);
    } else {
      ctx.arc(cx, cy, r, 0, 2 * Math.PI);
    }
    ctx.fill();
  }

  /** Black or white, whichever reads better on {@code color}. */
  function ink(color) {
    const probe = document.createElement('canvas').getContext('2d');
    probe.fillStyle = color;
    const hex = probe.fillStyle; // normalised to #rrggbb
    if (!/^#[0-9a-f]{6}$/i.test(hex)) {
      return '#000';
    }
    const [r, g, b] = [1, 3, 5].map(i => parseInt(hex.substr(i, 2), 16));
    return 0.299 * r + 0.587 * g + 0.114 * b > 150 ? '#000' : '#fff';
  }

  /** The cell size that fits the grid into its panel's width and most of the window's height. */
  function cellSize(grid, canvas) {
    const width = (canvas.parentElement && canvas.parentElement.clientWidth) || 600;
    const height = Math.max(320, window.innerHeight - 260); // the header and the step controls above it
    return Math.max(3, Math.min(96, Math.floor(Math.min(width, height) / Math.max(grid.width, grid.height))));
  }

  function drawGrid(world, canvas) {
    const agents = world.agents || [];
    const cell = cellSize(world.grid, canvas);
    canvas.hidden = false;
    canvas.width = world.grid.width * cell;
    canvas.height = world.grid.height * cell;
    const ctx = canvas.getContext('2d');
    ctx.clearRect(0, 0, canvas.width, canvas.height);
    ctx.strokeStyle = '#e3e6ea';
    for (let x = 0; x <= world.grid.width; x++) {
      ctx.beginPath(); ctx.moveTo(x * cell + 0.5, 0); ctx.lineTo(x * cell + 0.5, canvas.height); ctx.stroke();
    }
    for (let y = 0; y <= world.grid.height; y++) {
      ctx.beginPath(); ctx.moveTo(0, y * cell + 0.5); ctx.lineTo(canvas.width, y * cell + 0.5); ctx.stroke();
    }
    // several agents in one cell share it, each in a part of it
    const cells = new Map();
    for (const a of agents) {
      if (a.x != null && a.y != null) {
        const key = a.x + ',' + a.y;
        cells.set(key, [...(cells.get(key) || []), a]);
      }
    }
    for (const together of cells.values()) {
      const k = Math.ceil(Math.sqrt(together.length));
      const part = cell / k;
      together.forEach((a, i) => {
        const cx = a.x * cell + (i % k) * part + part / 2;
        const cy = a.y * cell + Math.floor(i / k) * part + part / 2;
        const r = Math.max(1.5, part / 2 - Math.max(1, part / 8));
        ctx.fillStyle = a.color || '#7f7f7f';
        shape(ctx, a.shape, cx, cy, r);
        if (a.label && part >= 16) {
          // on the agent, squeezed to its cell's width where it is longer
          ctx.fillStyle = ink(a.color || '#7f7f7f');
          ctx.font = Math.round(Math.min(part * 0.4, 14)) + 'px system-ui, sans-serif';
          ctx.textAlign = 'center';
          ctx.textBaseline = 'middle';
          ctx.fillText(String(a.label), cx, cy + (a.shape === 'triangle' ? r / 3 : 0), 2 * r - 2);
        }
      });
    }
    canvas.onclick = ev => {
      const box = canvas.getBoundingClientRect();
      const x = Math.floor((ev.clientX - box.left) * canvas.width / box.width / cell);
      const y = Math.floor((ev.clientY - box.top) * canvas.height / box.height / cell);
      const hit = agents.find(a => a.x === x && a.y === y);
      if (hit) {
        onAgent(hit.id);
      }
    };
  }

  /** The portrayal's legend, or the roles drawn in each colour and shape where it gives none. */
  function legendOf(world) {
    if (world.legend && world.legend.length > 0) {
      return world.legend;
    }
    const seen = new Map();
    for (const a of world.agents || []) {
      const key = [a.role, a.color, a.shape].join('|');
      if (!seen.has(key)) {
        seen.set(key, { role: a.role, color: a.color, shape: a.shape });
      }
    }
    return [...seen.values()];
  }

  function drawLegend(world) {
    const legend = document.getElementById('legend');
    legend.replaceChildren();
    for (const entry of legendOf(world)) {
      const item = el('span', null, 'legend-entry');
      const swatch = el('canvas');
      swatch.width = 16;
      swatch.height = 16;
      const ctx = swatch.getContext('2d');
      ctx.fillStyle = entry.color || '#7f7f7f';
      shape(ctx, entry.shape, 8, 8, 6.5);
      const words = [entry.role, entry.meaning].filter(w => w).join(', ')
        + (entry.label ? ' (labelled with its ' + entry.label + ')' : '');
      item.append(swatch, ' ' + words);
      legend.appendChild(item);
    }
  }

  function drawTable(world) {
    const holder = document.getElementById('agent-table');
    holder.replaceChildren();
    const agents = world.agents || [];
    if (agents.length === 0 || (world.grid && agents.length > 400)) {
      return;
    }
    const attributes = [];
    agents.forEach(a => Object.keys(a.attributes || {}).forEach(k => {
      if (!attributes.includes(k)) {
        attributes.push(k);
      }
    }));
    const withState = agents.some(a => a.state);
    const withWhere = agents.some(a => a.x != null);
    const t = el('table', null, 'agents');
    const head = t.createTHead().insertRow();
    ['agent', 'role', ...(withWhere ? ['where'] : []), ...(withState ? ['state'] : []), ...attributes]
      .forEach(h => head.appendChild(el('th', h)));
    const body = t.createTBody();
    for (const a of agents) {
      const row = body.insertRow();
      row.dataset.agent = a.id;
      const link = el('a', a.id);
      link.href = '#';
      link.onclick = ev => { ev.preventDefault(); onAgent(a.id); };
      const id = row.insertCell();
      id.className = 'agent-id';
      id.appendChild(link);
      if (a.color) {
        id.style.borderLeft = '6px solid ' + a.color;
      }
      row.insertCell().textContent = a.role || '';
      if (withWhere) {
        row.insertCell().textContent = a.x == null ? '' : '(' + a.x + ', ' + a.y + ')';
      }
      if (withState) {
        row.insertCell().textContent = a.state || '';
      }
      for (const k of attributes) {
        const v = (a.attributes || {})[k];
        const td = row.insertCell();
        td.textContent = Page.number(v);
        if (typeof v === 'number') {
          td.className = 'n';
        }
      }
    }
    holder.appendChild(t);
  }

  /** Draws {@code world}; a click on an agent (on the grid or in the table) calls {@code open(agentId)}. */
  function draw(world, open) {
    shown = world;
    onAgent = open;
    const canvas = document.getElementById('world');
    if (world.grid) {
      drawGrid(world, canvas);
    } else {
      canvas.hidden = true;
    }
    drawLegend(world);
    drawTable(world);
  }

  let resized = null;
  window.addEventListener('resize', () => {
    clearTimeout(resized);
    resized = setTimeout(() => {
      if (shown && shown.grid) {
        drawGrid(shown, document.getElementById('world'));
      }
    }, 100);
  });

  return { draw, shown: () => shown, el };
})();
