// needs: nothing
/* pypto-ir-trace viewer: the registry of controls (IRTraceControls).
 * A control is its markup in report.html.j2 and one script, control_<name>.js, that registers itself
 * here; viewer.js's needs name every control_*.js (ir_trace/report/scripts.py inlines each before
 * viewer.js), and the viewer starts and wires whatever registered. A control reads the viewer's state
 * and changes it through `set` (viewer_state.js); no other file learns of it. */
const IRTraceControls = (() => {
  'use strict';

  /** @type {ViewerControl[]} */
  const registered = [];

  /** @param {ViewerControl} control */
  function register(control) {
    if (registered.some((c) => c.name === control.name)) throw new Error(`two controls are named ${control.name}`);
    registered.push(control);
  }

  /** Every control's start: on every page, before the report's passes (if any) are shown. */
  function startAll(/** @type {ViewerControlContext} */ viewer) {
    for (const control of registered) if (control.start) control.start(viewer);
  }

  /** Every control's wiring: once the report has a pass to show. */
  function wireAll(/** @type {ViewerControlContext} */ viewer) {
    for (const control of registered) if (control.wire) control.wire(viewer);
  }

  return { register, startAll, wireAll, names: () => registered.map((c) => c.name) };
})();
