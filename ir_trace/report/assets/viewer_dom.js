// needs: nothing
/* pypto-ir-trace viewer: DOM helpers every other part uses (IRTraceDom).
 * `el` builds an element, `$` finds one by id, `spoken` is text for screen readers only, `unspoken`
 * text for the eyes only, `rowSpeech` what a code row says, `onActivate` a click that survives a redraw. Text is
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

  /** A page element by id; `any`, as whether it is an input, a select or a details is the template's.
   *  @type {(id: string) => any} */
  const $ = (id) => document.getElementById(id);

  /** Text read by screen readers, not shown (and not copied with a selection: see .sr-only). */
  function spoken(text) {
    return el('span', 'sr-only', text);
  }

  /** Text shown but not read by screen readers (what a spoken text already says). */
  function unspoken(text) {
    const node = el('span', '', text);
    node.setAttribute('aria-hidden', 'true');
    return node;
  }

  const SPOKEN_CHANGE_MAX = 200;   // characters of a changed line's changed text read out

  /** What a screen reader hears of a code row (its line number and +/− are hidden from it; a
   *  warning marker is read as itself): before the code "+ added line 12: " or "− deleted line 12: ",
   *  after it the changed characters of a changed line, which the page shows by colour and underline. */
  function rowSpeech(kind, number, text, ranges) {
    const what = kind === 'del' ? '\u2212 deleted line' : kind === 'ins' ? '+ added line' : 'line';
    const head = spoken(`${what} ${number}: `);
    if (!kind || !ranges || !ranges.length) return { head, tail: null };
    let changed = ranges.map(([s, e]) => text.slice(Math.max(0, s), e).trim()).filter(Boolean).map((part) => `\u201c${part}\u201d`).join(', ');
    if (!changed) return { head, tail: null };
    if (changed.length > SPOKEN_CHANGE_MAX) changed = `${changed.slice(0, SPOKEN_CHANGE_MAX)}\u2026`;
    return { head, tail: spoken(` \u2014 changed: ${changed}`) };
  }

  /** Call `handler(element, event)` when an element matching `selector` in `container` is clicked, or released
   *  on when the one pressed was drawn again in its place meanwhile (rows rebuilt as a pass settles): a press on
   *  an element removed before the release makes no click. Drawn again: the same data attributes. */
  function onActivate(container, selector, handler) {
    let pressed = null;
    container.addEventListener('pointerdown', (event) => { pressed = event.target.closest(selector); });
    container.addEventListener('pointerup', (event) => {
      const found = event.target.closest(selector);
      if (found && pressed && !pressed.isConnected && sameData(found, pressed)) handler(found, event);
      pressed = null;
    });
    container.addEventListener('click', (event) => {
      const found = event.target.closest(selector);
      if (found) handler(found, event);
    });
  }

  const sameData = (x, y) => JSON.stringify({ ...x.dataset }) === JSON.stringify({ ...y.dataset });

  return { el, $, spoken, unspoken, rowSpeech, onActivate };
})();
