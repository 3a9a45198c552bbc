// needs: viewer_controls.js
/* pypto-ir-trace viewer control: "Highlight indentation changes" (#indent-blocks). Off, a change
 * confined to a line's indentation is a thin bar at the indent; on, a highlighted block. Remembered. */
IRTraceControls.register({
  name: 'indent-blocks',
  start({ state }) {
    /** @type {HTMLInputElement} */ (document.getElementById('indent-blocks')).checked = state.indentBlocks;
  },
  wire({ set, settings, refreshDisplay }) {
    const box = /** @type {HTMLInputElement} */ (document.getElementById('indent-blocks'));
    box.addEventListener('change', () => {
      set({ indentBlocks: box.checked });
      settings.set('indentBlocks', box.checked ? '1' : '');
      refreshDisplay(true);
    });
  },
});
