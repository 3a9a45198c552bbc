/* pypto-ir-trace viewer, part 0: DOM helpers every other part uses (IRTraceDom).
 * `el` builds an element, `$` finds one by id, `spoken` is text for screen readers only. Text is
 * only ever set with textContent: snapshot text is data, never markup. */
const IRTraceDom = (() => {
  'use strict';

  /** A new `tag` element with an optional class name and text. */
  function el(tag, className, text) {
    const node = document.createElement(tag);
    if (className) node.className = className;
    if (text != null) node.textContent = text;
    return node;
  }

  const $ = (id) => document.getElementById(id);

  /** Text read by screen readers, not shown (and not copied with a selection: see .sr-only). */
  function spoken(text) {
    return el('span', 'sr-only', text);
  }

  return { el, $, spoken };
})();
