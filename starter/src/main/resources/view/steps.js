// The step controls over the steps done so far, as Mesa's SolaraViz has them: a slider as wide as its
// panel, a box to type a step in, Back and Forward one step, Play (one step after another, each once its
// world is drawn), and "follow the latest step". They choose the step; the page draws it (onStep).
'use strict';

const Steps = (() => {
  const PLAY_EVERY_MILLIS = 700;
  let slider;
  let box;
  let follow;
  let play;
  let onStep = () => {};
  let playing = false;
  let playTimer = null;
  let resting = null;

  const latest = () => Number(slider.max);
  const current = () => Number(slider.value);

  function set(step) {
    slider.value = step;
    box.value = step;
    box.max = slider.max;
    document.getElementById('step-back').disabled = step <= 0;
    document.getElementById('step-forward').disabled = step >= latest();
  }

  /** Goes to {@code step} (clamped to the steps done) and draws it; off "follow" unless it is the latest. */
  function go(step, now = true) {
    const to = Math.max(0, Math.min(latest(), Math.round(step)));
    set(to);
    follow.checked = to === latest() && follow.checked;
    clearTimeout(resting);
    if (now) {
      onStep(to);
    } else {
      // while the slider is dragged, the world is read for the step it rests on, not for every step passed
      resting = setTimeout(() => onStep(to), 150);
    }
  }

  function stopPlaying() {
    playing = false;
    clearTimeout(playTimer);
    play.textContent = 'Play';
    play.classList.remove('playing');
  }

  function init(handler) {
    onStep = handler;
    slider = document.getElementById('step');
    box = document.getElementById('step-box');
    follow = document.getElementById('follow');
    play = document.getElementById('play');
    slider.oninput = () => {
      stopPlaying();
      follow.checked = current() === latest();
      go(current(), false);
    };
    box.onchange = () => {
      stopPlaying();
      if (box.value !== '') {
        follow.checked = false;
        go(Number(box.value));
      }
    };
    document.getElementById('step-back').onclick = () => {
      stopPlaying();
      follow.checked = false;
      go(current() - 1);
    };
    document.getElementById('step-forward').onclick = () => {
      stopPlaying();
      go(current() + 1);
    };
    play.onclick = () => {
      if (playing) {
        stopPlaying();
        return;
      }
      playing = true;
      play.textContent = 'Stop playing';
      play.classList.add('playing');
      follow.checked = false;
      go(current() >= latest() ? 0 : current() + 1);
    };
    follow.onchange = () => {
      if (follow.checked) {
        stopPlaying();
        go(latest());
      }
    };
    set(0);
  }

  /** The steps done are 0..{@code last}; when following, goes to the latest. */
  function setLatest(last) {
    if (last === latest() && slider.value !== '') {
      return;
    }
    slider.max = last;
    box.max = last;
    if (follow.checked && !playing) {
      go(last);
    } else {
      set(current());
    }
  }

  /** The world of {@code step} is drawn: while playing, the next step after a moment. */
  function drawn(step) {
    if (!playing || step !== current()) {
      return;
    }
    clearTimeout(playTimer);
    playTimer = setTimeout(() => {
      if (!playing) {
        return;
      }
      if (current() >= latest()) {
        stopPlaying();
        follow.checked = true;
        return;
      }
      go(current() + 1);
    }, PLAY_EVERY_MILLIS);
  }

  return { init, go, setLatest, drawn, current, following: () => follow.checked };
})();
