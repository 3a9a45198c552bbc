// needs: nothing
/* pypto-ir-trace viewer: going to a pass by its number (IRTraceGoTo). `g` or `:` empties the
 * filter box for a number (Enter opens that pass, viewer_sidebar.js goToTyped finds it); Escape
 * or the go-to gives back what the box held. viewer.js creates it with the state's owner. */
const IRTraceGoTo = (() => {
  'use strict';

  /** @type {(id: string) => any} (see viewer_dom.js) */
  const $ = (id) => document.getElementById(id);

  /** ctx: the state's owner's `set` (viewer_state.js), the sidebar, and the viewer's updateHash. */
  function create({ set, sidebar, updateHash }) {
    let filterBeforeGoTo = null;   // the filter box's text when `g` / `:` emptied it for a pass number

    /** `g` or `:`: the filter box takes a pass number (Enter goes there); what it held comes back after. */
    function startGoTo() {
      const box = $('filter-text');
      if (filterBeforeGoTo === null) filterBeforeGoTo = box.value;
      box.value = ':';
      set({ query: ':' });
      box.focus();
      sidebar.applyFilters();
    }

    /** Leave a go-to started by `g` / `:`: the filter box shows its own text again. */
    function leaveGoTo() {
      if (filterBeforeGoTo === null) return;
      const box = $('filter-text');
      box.value = filterBeforeGoTo;
      set({ query: filterBeforeGoTo.trim().toLowerCase() });
      filterBeforeGoTo = null;
      sidebar.applyFilters();
      updateHash();
    }

    /** Enter in the filter box holding a pass number: open that pass, its row focused. */
    function goToTyped(event) {
      const target = sidebar.goToTyped();
      if (target === undefined) return;
      event.preventDefault();
      leaveGoTo();
      sidebar.focusPass(target);
    }

    return { startGoTo, leaveGoTo, goToTyped };
  }

  return { create };
})();
