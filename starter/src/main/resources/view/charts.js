// The simulation's per-step charts (uPlot): its variables, and LLM calls, tokens and failed agent steps
// per step; interventions drawn as dashed lines at the boundary before the step they apply from.
'use strict';

const PALETTE = ['#1f77b4', '#d62728', '#2ca02c', '#ff7f0e', '#9467bd', '#8c564b', '#e377c2', '#17becf'];

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

/** A chart of named series over steps, in {@code element}; {@code update(rows)} redraws it. */
function stepChart(element, title, names, getInterventions, rightAxis) {
  const width = Math.max(320, element.clientWidth || 640);
  const series = [{ label: 'step' }];
  names.forEach((name, i) => series.push({
    label: name, stroke: PALETTE[i % PALETTE.length], width: 1.5,
    scale: rightAxis && rightAxis.includes(name) ? 'right' : 'y'
  }));
  // steps are whole numbers: no tick between two steps
  const axes = [{ incrs: [1, 2, 5, 10, 20, 50, 100, 200, 500, 1000, 2000, 5000] }, { scale: 'y', size: 60 }];
  if (rightAxis) {
    axes.push({ scale: 'right', side: 1, size: 70, grid: { show: false } });
  }
  const chart = new uPlot({
    title, width, height: 220, series, axes,
    scales: { x: { time: false } },
    plugins: [interventionMarks(getInterventions)]
  }, [[], ...names.map(() => [])], element);
  return {
    update(xs, columns) {
      chart.setData([xs, ...columns]);
    },
    redraw() {
      chart.redraw(false, false);
    }
  };
}
