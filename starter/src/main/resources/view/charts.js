// The simulation's per-step charts (uPlot): its variables, and LLM calls, tokens and failed agent steps
// per step; interventions drawn as dashed lines at the boundary before the step they apply from.
// Series of very different sizes (sales of 0-3 beside money left of 0-350) do not share an axis: those
// twenty times larger or more than the rest go on a right-hand axis, named "(right axis)" in the legend.
'use strict';

const Charts = (() => {
  const PALETTE = ['#1f77b4', '#d62728', '#2ca02c', '#ff7f0e', '#9467bd', '#8c564b', '#e377c2', '#17becf'];
  const RIGHT = ' (right axis)';

  function interventionMarks(getInterventions) {
    return {
      hooks: {
        draw: [u => {
          const ctx = u.ctx;
          ctx.save();
          ctx.strokeStyle = '#a0522d';
          ctx.fillStyle = '#a0522d';
          ctx.setLineDash([5, 4]);
          ctx.font = (11 * devicePixelRatio) + 'px system-ui';
          for (const v of getInterventions()) {
            const x = Math.round(u.valToPos(v.atStep - 0.5, 'x', true));
            if (x < u.bbox.left || x > u.bbox.left + u.bbox.width) {
              continue;
            }
            ctx.beginPath();
            ctx.moveTo(x, u.bbox.top);
            ctx.lineTo(x, u.bbox.top + u.bbox.height);
            ctx.stroke();
            ctx.fillText('#' + v.number, x + 3, u.bbox.top + 12 * devicePixelRatio);
          }
          ctx.restore();
        }]
      }
    };
  }

  /**
   * The names of the series that belong on a right-hand axis: where the largest values of the series,
   * in order, jump twentyfold or more, those above the widest jump (none when no jump is that wide); a
   * series of zeros so far stays on the left.
   */
  function rightAxisOf(names, columns) {
    // a series of zeros so far has no size yet: it stays on the left
    const peaks = names.map((name, i) => ({
      name, peak: Math.max(0, ...columns[i].filter(v => v != null).map(v => Math.abs(v)))
    })).filter(p => p.peak > 0).sort((a, b) => a.peak - b.peak);
    let widest = 0;
    let at = -1;
    for (let i = 1; i < peaks.length; i++) {
      const jump = peaks[i].peak / peaks[i - 1].peak;
      if (jump > widest) {
        widest = jump;
        at = i;
      }
    }
    return widest >= 20 ? peaks.slice(at).map(p => p.name) : [];
  }

  /**
   * A chart of named series over steps, in {@code element}: {@code update(xs, columns)} redraws it with
   * a column of values per name; {@code fixedRight} names series always on the right axis (else the
   * sizes of the values choose).
   */
  function stepChart(element, title, names, getInterventions, fixedRight) {
    let chart = null;
    let right = null;

    function build(rightNames) {
      if (chart) {
        chart.destroy();
      }
      right = rightNames;
      const width = Math.max(320, element.clientWidth || 640);
      const series = [{ label: 'step' }];
      names.forEach((name, i) => series.push({
        label: right.includes(name) ? name + RIGHT : name, stroke: PALETTE[i % PALETTE.length], width: 1.5,
        scale: right.includes(name) ? 'right' : 'y'
      }));
      // steps are whole numbers: no tick between two steps
      const axes = [{ incrs: [1, 2, 5, 10, 20, 50, 100, 200, 500, 1000, 2000, 5000] }, { scale: 'y', size: 60 }];
      if (right.length > 0) {
        axes.push({ scale: 'right', side: 1, size: 70, grid: { show: false } });
      }
      chart = new uPlot({
        title, width, height: 220, series, axes,
        scales: { x: { time: false } },
        plugins: [interventionMarks(getInterventions)]
      }, [[], ...names.map(() => [])], element);
    }

    return {
      update(xs, columns) {
        const wanted = fixedRight || rightAxisOf(names, columns);
        if (!chart || wanted.join('\n') !== right.join('\n')) {
          build(wanted);
        }
        chart.setData([xs, ...columns]);
      },
      redraw() {
        if (chart) {
          chart.redraw(false, false);
        }
      },
      /** The series on the right-hand axis. */
      right: () => right || []
    };
  }

  return { stepChart, rightAxisOf };
})();
