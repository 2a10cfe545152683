// What a simulation's page can do to it, each a command the CLI has: the Intervene form (the scenario's
// adjustable parameters), the tool calls waiting for approval (approve, edit, deny), and the end of both
// when the run has ended.
'use strict';

const Actions = (() => {
  const el = Page.el;
  let ended = null;

  /** The calls waiting for a decision; {@code post(action, body)} sends one. */
  function showApprovals(calls, post) {
    const div = document.getElementById('approvals');
    div.replaceChildren();
    if (!calls || calls.length === 0) {
      div.appendChild(el('p', 'None.', 'muted'));
      return;
    }
    for (const c of calls) {
      const box = el('div', null, 'approval');
      box.appendChild(el('p', c.call + ': ' + c.tool));
      const args = el('textarea', null, 'args');
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

  /** The Intervene form of the scenario's adjustable parameters {@code params}. */
  function buildInterveneForm(params, post) {
    const form = document.getElementById('intervene');
    form.replaceChildren();
    if (!params || params.length === 0) {
      form.appendChild(el('p', 'This scenario has no parameter that may change while it runs.', 'muted'));
      return;
    }
    const fields = el('fieldset');
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
      fields.appendChild(label);
    }
    const at = el('label');
    at.append('from step ');
    const atInput = el('input');
    atInput.name = 'atStep';
    atInput.type = 'number';
    atInput.min = '1';
    atInput.placeholder = 'next';
    at.appendChild(atInput);
    fields.appendChild(at);
    const note = el('label');
    note.append('note ');
    const noteInput = el('input');
    noteInput.name = 'note';
    note.appendChild(noteInput);
    fields.appendChild(note);
    fields.appendChild(el('button', 'Intervene'));
    form.appendChild(fields);
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
    if (ended) {
      end(ended);
    }
  }

  /** The run has ended ({@code how}: "completed", ...): nothing to pause or intervene on; fork instead. */
  function end(how) {
    ended = how;
    ['pause', 'resume', 'stop'].forEach(b => { document.getElementById(b).disabled = true; });
    const form = document.getElementById('intervene');
    const fields = form.querySelector('fieldset');
    if (fields) {
      fields.disabled = true;
    }
    let note = form.querySelector('.ended');
    if (!note) {
      note = el('p', null, 'ended muted');
      form.prepend(note);
    }
    note.textContent = 'The run has ' + how + ': nothing to intervene on. Fork it at a step to go on from there.';
  }

  return { showApprovals, buildInterveneForm, end, ended: () => ended };
})();
