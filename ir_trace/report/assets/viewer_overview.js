// needs: viewer_dom.js, viewer_model.js
/* pypto-ir-trace viewer: the overview chart (IRTraceOverview).
 * One canvas of every entry, drawn from the model: lines edited per pass (or the selected function's
 * own change), warnings and trace boundaries; a slider for the keyboard and the mouse. Changes only
 * the selection (through `select`). */
const IRTraceOverview = (() => {
  'use strict';

  const { shortName } = IRTraceModel;
  const { el, $ } = IRTraceDom;

  /** The chart of a model; `state` is the viewer's, `select(k)` shows entry k, `warningBadge(k)` is
   *  entry k's warning badge in the sidebar (or null), read out with its bar.
   *  @param {ViewerState} state (read only: viewer_state.js owns it) */
  function createOverview(model, state, select, warningBadge) {
    const { entries, runs, firstEntry, lastEntry, fnChange } = model;

    // One canvas drawn from the entries: it fits its pane at any pass count (a column of the chart
    // holds several passes once they outnumber its pixels) and never widens the page. It is a
    // slider for the keyboard: ← / → one pass, PgUp / PgDn a tenth of the pipeline, Home / End.
    const BAR_MAX = 24;            // px: a short pipeline's bars stay bars, left-aligned
    let chart = null;              // the canvas
    let palette = null;            // CSS colour name -> value in the current theme
    let heights = [], kinds = [];  // by entry k: bar height (0..1), and what it shows

    const logged = [], traceStart = [];   // by entry k: the pass wrote a log; a trace starts there

    function buildOverview() {
      for (let k = firstEntry; k <= lastEntry; k++) {
        logged[k] = Boolean(runs[entries[k].log.run].passes[entries[k].log.pos].log);
        traceStart[k] = k > firstEntry && entries[k].run !== entries[k - 1].run;
      }
      chart = el('canvas', 'overview-chart');
      chart.tabIndex = 0;
      chart.setAttribute('role', 'slider');
      chart.setAttribute('aria-label', 'Overview chart: lines edited at each step (arrow keys or click to pick one)');
      chart.setAttribute('aria-valuemin', String(firstEntry));
      chart.setAttribute('aria-valuemax', String(lastEntry));
      chart.addEventListener('click', (event) => select(entryAtX(event.offsetX)));
      chart.addEventListener('mousemove', (event) => { chart.title = barTitle(entryAtX(event.offsetX)); });
      chart.addEventListener('keydown', onChartKey);
      $('overview').appendChild(chart);
      new ResizeObserver(() => drawOverview()).observe(chart);
      new MutationObserver(() => { palette = null; drawOverview(); }).observe(document.documentElement, { attributes: true, attributeFilter: ['data-theme'] });
      paintOverview();
    }

    function onChartKey(event) {
      const page = Math.max(1, Math.round((lastEntry - firstEntry + 1) / 10));
      const moves = { ArrowRight: 1, ArrowLeft: -1, PageDown: page, PageUp: -page };
      let target;
      if (event.key === 'Home') target = firstEntry;
      else if (event.key === 'End') target = lastEntry;
      else if (event.key in moves) target = Math.min(lastEntry, Math.max(firstEntry, state.sel + moves[event.key]));
      else return;
      event.preventDefault();
      event.stopPropagation();   // the page's own ↑ / ↓ / Home keys are not the chart's
      if (target !== state.sel) select(target);
    }

    /** Bar heights: lines changed per pass (log-scaled), or the selected function's own change. */
    function paintOverview() {
      const key = state.fn, value = [];
      let max = 1;
      for (let k = firstEntry; k <= lastEntry; k++) {
        const e = entries[k];
        const s = key ? fnChange(k, key) : null;
        value[k] = key ? (s ? s.ins + s.del : 0) : e.changed ? (e.inserted || 0) + (e.deleted || 0) : 0;
        const fnKind = s ? (s.created ? 'created' : s.removed ? 'removed' : 'fn') : '';
        const only = !key && e.match && e.match.status.startsWith('only');
        kinds[k] = only ? 'only' : key ? fnKind || 'noop' : e.changed ? 'changed' : 'noop';
        max = Math.max(max, value[k]);
      }
      const scale = Math.log1p(max);
      for (let k = firstEntry; k <= lastEntry; k++) {
        const kind = kinds[k];
        heights[k] = kind === 'only' ? 1 : kind === 'noop' ? 0 : Math.max(0.12, Math.log1p(value[k]) / scale);
      }
      drawOverview();
    }

    /** Columns of the chart: how many, their width, and the entries each holds. */
    function columns() {
      const n = lastEntry - firstEntry + 1, width = Math.max(1, chart.clientWidth);
      const count = Math.max(1, Math.min(n, Math.floor(width)));
      return { n, count, width: Math.min(BAR_MAX, width / count) };
    }

    /** The entries of column c: [first, last]. */
    function columnEntries(c, { n, count }) {
      return [firstEntry + Math.floor((c * n) / count), firstEntry + Math.floor(((c + 1) * n) / count) - 1];
    }

    /** The entry a column stands for: the one with the tallest bar (the selection if it is there). */
    function columnEntry(c, layout) {
      const [first, last] = columnEntries(c, layout);
      if (state.sel >= first && state.sel <= last) return state.sel;
      let best = first;
      for (let k = first + 1; k <= last; k++) if (heights[k] > heights[best]) best = k;
      return best;
    }

    function entryAtX(x) {
      const layout = columns();
      return columnEntry(Math.min(layout.count - 1, Math.max(0, Math.floor(x / layout.width))), layout);
    }

    const KIND_COLOUR = { changed: '--bar-changed', fn: '--bar-changed', only: '--bar-changed', noop: '--bar', created: '--ins-fg', removed: '--del-fg' };
    const KIND_RANK = { noop: 0, changed: 1, fn: 1, only: 2, removed: 3, created: 4 };

    let drawPending = false;

    /** Draw at the next frame, once however many changes asked: reading the chart's width
     *  before then would force a layout of the page in the middle of building it. */
    function drawOverview() {
      if (drawPending) return;
      drawPending = true;
      requestAnimationFrame(() => { drawPending = false; drawNow(); });
    }

    function drawNow() {
      if (!chart || !chart.clientWidth) return;
      if (!palette) {   // read once per theme: asking for a style at every pass switch restyled the page
        const css = getComputedStyle(chart);
        palette = new Map(['--bar-changed', '--bar', '--bar-select', '--ins-fg', '--del-fg', '--bg-select', '--border', '--accent', '--warn-border']
          .map((name) => [name, css.getPropertyValue(name).trim()]));
      }
      const colour = (name) => palette.get(name);
      const ratio = window.devicePixelRatio || 1, w = chart.clientWidth, h = chart.clientHeight;
      if (chart.width !== Math.round(w * ratio)) chart.width = Math.round(w * ratio);
      if (chart.height !== Math.round(h * ratio)) chart.height = Math.round(h * ratio);
      const g = chart.getContext('2d');
      g.setTransform(ratio, 0, 0, ratio, 0, 0);
      g.clearRect(0, 0, w, h);
      const layout = columns(), gap = layout.width >= 3 ? 1 : 0;
      for (let c = 0; c < layout.count; c++) {
        const [first, last] = columnEntries(c, layout), x = c * layout.width;
        let tall = 0, kind = 'noop', warn = false, boundary = false;
        for (let k = first; k <= last; k++) {
          tall = Math.max(tall, heights[k]);
          if (KIND_RANK[kinds[k]] > KIND_RANK[kind]) kind = kinds[k];
          warn = warn || logged[k];
          boundary = boundary || traceStart[k];
        }
        const selected = state.sel >= first && state.sel <= last;
        if (selected) { g.fillStyle = colour('--bg-select'); g.fillRect(x, 0, Math.max(2, layout.width), h); }
        if (boundary) { g.fillStyle = colour('--border'); g.fillRect(x, 0, 1, h); }
        const barH = tall ? Math.max(3, tall * (h - 5)) : 2;
        g.fillStyle = colour(selected ? '--bar-select' : KIND_COLOUR[kind]);
        g.globalAlpha = kind === 'only' ? 0.5 : 1;
        g.fillRect(x + (boundary && gap ? 1 : 0), h - barH, Math.max(selected ? 2 : 1, layout.width - gap), barH);
        g.globalAlpha = 1;
        // A column a pixel or two wide: the selection is a full-height line, or it would be lost.
        if (selected && layout.width < 4) { g.fillStyle = colour('--accent'); g.fillRect(Math.max(0, x - 1), 0, 2, h); }
        if (warn) { g.fillStyle = colour('--warn-border'); g.fillRect(x + Math.max(0, layout.width / 2 - 2), 0, Math.min(4, Math.max(1, layout.width)), 3); }
      }
    }

    /** What the bar of entry k says on hover and to a screen reader. */
    function barTitle(k) {
      const e = entries[k], key = state.fn, warn = warningBadge(k);
      let title = `${e.label || e.index} ${e.name}: `;
      if (key) {
        const s = fnChange(k, key), mark = s ? (s.created ? 'created' : s.removed ? 'removed' : '') : '';
        title += s ? `${shortName(key)} +${s.ins} \u2212${s.del}${mark ? ` (${mark})` : ''}` : `${shortName(key)} unchanged`;
      } else {
        title += e.inserted !== null ? `+${e.inserted} \u2212${e.deleted}` : e.badges.map((b) => b[1]).join(', ');
      }
      return title + (warn ? `, ${warn.text}` : '');
    }

    /** Entry k is the selection: its bar is drawn selected, the slider's value follows. */
    function markSelected(k) {
      chart.setAttribute('aria-valuenow', String(k));
      chart.setAttribute('aria-valuetext', barTitle(k));
      drawOverview();
    }

    return { build: buildOverview, paint: paintOverview, markSelected };
  }

  return { createOverview };
})();
