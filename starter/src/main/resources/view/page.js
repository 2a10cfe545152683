// What every page of the view shares: elements, requests, messages, numbers, and the ready mark.
//
// The ready mark: <html data-ready="true"> once everything the page asked for has arrived and is drawn,
// "false" while anything is still loading (a world read from the histories, an agent, the first events).
// Tests and screenshot tools wait for it:  document.documentElement.dataset.ready === 'true'.
// A page names what it waits for with Page.loading(what) and Page.loaded(what); Page.started() says it
// has asked for its first data (until then it is not ready).
'use strict';

const Page = (() => {
  const pending = new Set();
  let started = false;

  function mark() {
    document.documentElement.dataset.ready = started && pending.size === 0 ? 'true' : 'false';
    document.documentElement.dataset.loading = [...pending].join(' ');
  }

  function loading(what) {
    pending.add(what);
    mark();
  }

  function loaded(what) {
    pending.delete(what);
    mark();
  }

  function isLoading(what) {
    return pending.has(what);
  }

  function start() {
    started = true;
    mark();
  }

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

  /** GET url as JSON; throws the server's {error, hint} as one message. */
  async function get(url) {
    const response = await fetch(url);
    const body = await response.json();
    if (!response.ok) {
      throw new Error(body.error + (body.hint ? ' ' + body.hint : ''));
    }
    return body;
  }

  /** POST body as JSON to url; says the answer's message, or fails with its error. */
  async function post(url, body) {
    try {
      const response = await fetch(url, {
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
      fail(url + ' failed: ' + e.message);
      return null;
    }
  }

  /** A number as a person reads it: whole numbers as they are, others to 3 decimals at most (0.081, 12.35, 250.6). */
  function number(v) {
    if (typeof v !== 'number' || !isFinite(v) || Number.isInteger(v)) {
      return v == null ? '' : String(v);
    }
    const a = Math.abs(v);
    if (a < 0.001) {
      return String(Number(v.toPrecision(2)));
    }
    return String(Number(v.toFixed(a >= 100 ? 1 : a >= 10 ? 2 : 3)));
  }

  mark();
  return { el, get, post, say, fail, number, loading, loaded, isLoading, started: start };
})();
