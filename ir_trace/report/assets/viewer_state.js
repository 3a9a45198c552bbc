// needs: nothing
/* pypto-ir-trace viewer: the viewer's state (IRTraceState), owned here.
 * createState(initial) returns the state and the only ways to change it: `set(patch)` for the plain
 * fields and named actions for the two sets (the folds opened, the Behaviour filters pressed). Every
 * other part reads `state`: it is a frozen object of getters, so an assignment anywhere else throws,
 * and types/page.d.ts types it read-only, so `npm run check-js` refuses one before the page runs. */
const IRTraceState = (() => {
  'use strict';

  /** The fields and their values before settings or a link change them. */
  const FIELDS = {
    sel: -1,              // entry shown (-1 = none yet)
    fn: '',               // '' = whole file, else the function selected; kept where a pass lacks it
    layout: 'side',       // 'side', 'stacked' or 'unified'
    wrap: false,
    indentBlocks: false,  // a changed indentation highlighted as a block, not a mark
    expandAll: false,     // a setting: it stays on across passes
    showChanged: true,
    showNoop: true,
    fnOnly: false,        // Only passes that change this function
    query: '',            // the filter box's text, trimmed and lower-cased
    from: -1,             // Compare with: before snapshot position (-1 = the previous one)
    runView: 'ab',        // run against run: 'ab', 'a' (run A's own pass), 'b' or 'change' (the two side by side)
    ignore: null,         // ignore modes { modes, regex } while any is on
  };

  /** @param {Partial<ViewerStatePatch>} initial @returns {ViewerStateOwner} */
  function createState(initial = {}) {
    const own = { ...FIELDS };
    const expanded = new Set();     // fold starts opened by a click, for the current view only
    const behaviours = new Set();   // run against run: the Behaviour filters pressed (none: every pass)
    const state = {};
    for (const key of Object.keys(own)) Object.defineProperty(state, key, { get: () => own[key], enumerable: true });
    Object.defineProperty(state, 'expanded', { value: expanded, enumerable: true });
    Object.defineProperty(state, 'behaviours', { value: behaviours, enumerable: true });
    Object.freeze(state);

    /** Change plain fields; a name that is no field is a mistake, not a new field. */
    function set(patch) {
      for (const key of Object.keys(patch)) {
        if (!Object.hasOwn(own, key)) throw new TypeError(`the viewer's state has no field ${key}`);
        own[key] = patch[key];
      }
    }
    set(initial);

    return {
      state: /** @type {ViewerState} */ (/** @type {unknown} */ (state)),
      set,
      openFold: (start) => { expanded.add(start); },
      closeFolds: () => { expanded.clear(); },
      pressBehaviour: (key, on) => { if (on) behaviours.add(key); else behaviours.delete(key); },
      setBehaviours: (keys) => { behaviours.clear(); for (const key of keys) behaviours.add(key); },
    };
  }

  return { FIELDS, createState };
})();
