// One agent at a step (GET .../agents/{agentId}?step=N): what it saw, remembered, planned and called; or,
// for an agent that took no step then (a jailed citizen), its state and a button to the last step it took.
'use strict';

const Agent = (() => {
  const el = Page.el;

  function block(parent, title, value) {
    if (value == null || value === '' || (Array.isArray(value) && value.length === 0)) {
      return;
    }
    parent.appendChild(el('h3', title));
    parent.appendChild(el('pre', typeof value === 'string' ? value : JSON.stringify(value, null, 2)));
  }

  /** Shows that an agent is being read, in its panel. */
  function reading(agentId, step) {
    document.getElementById('agent').hidden = false;
    document.getElementById('agent-id').textContent = agentId;
    document.getElementById('agent-step').textContent = step;
    document.getElementById('agent-state').textContent = '';
    const body = document.getElementById('agent-body');
    body.replaceChildren(el('p', 'Reading ' + agentId + ' at step ' + step + ' from its history...', 'loading-note'));
  }

  /** Shows {@code a}; {@code goTo(step)} moves the page (world and agent) to another step. */
  function show(a, goTo) {
    document.getElementById('agent').hidden = false;
    document.getElementById('agent-id').textContent = a.agentId;
    document.getElementById('agent-step').textContent = a.step;
    document.getElementById('agent-state').textContent = a.state ? ': ' + a.state : '';
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
      body.appendChild(el('p', a.note, 'note'));
    }
    if (a.lastStep != null && goTo) {
      const last = el('button', 'Its last step: step ' + a.lastStep);
      last.onclick = () => goTo(a.lastStep);
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

  return { show, reading };
})();
