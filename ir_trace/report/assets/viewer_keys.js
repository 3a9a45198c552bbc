// needs: viewer_dom.js
/* pypto-ir-trace viewer, the keys (IRTraceKeys), before the controls (viewer.js).
 * Single keys (j / k, ] / [, /, f, n / N, v, ?, Esc), the keys typed into the text boxes, and the
 * Tab order's shortcuts: the skip link to the code, and the buttons inside a code pane (folds,
 * "moved" notes, long-line chips), one stop away from their pane rather than one Tab stop each:
 * Enter in a focused pane moves to the first in sight, ↓ / ↑ walk them, Esc goes back to the pane.
 * The sidebar's rows of checkboxes and buttons are toolbars (WAI-ARIA): one Tab stop each, ← / →
 * (Home / End) move inside, so the panes are a few Tabs from the page's start. */
const IRTraceKeys = (() => {
  'use strict';

  const { $ } = IRTraceDom;
  // Every button drawn inside code rows (each with tabIndex -1 where it is built): folds, "moved"
  // notes, and the chips of folded or cut long lines.
  const PANE_BUTTONS = '.fold-btn, .note.move, button.chip';

  function isTyping(target) {
    if (!target || !target.tagName) return false;
    if (target.isContentEditable || target.tagName === 'TEXTAREA') return true;
    return target.tagName === 'INPUT' && !['checkbox', 'radio', 'button', 'submit', 'reset'].includes(target.type);
  }

  const isPane = (node) => Boolean(node && node.classList && node.classList.contains('scroller'));

  /** The code panes in view, in reading order (the Unified layout hides the Before pane). */
  function visiblePanes() {
    return [$('scroll-before'), $('scroll-after')].filter((pane) => pane.offsetParent !== null);
  }

  /** The skip link: focus the first code pane without scrolling the page or the pane. */
  function skipToCode() {
    if (!$('changes').hidden) { $('changes').focus({ preventScroll: true }); return; }   // run against run, Changes
    const [first] = visiblePanes();
    if (first) first.focus({ preventScroll: true });
  }

  /** The fold and "moved" buttons of a pane that are at least partly in sight, top to bottom. */
  function buttonsInSight(pane) {
    const box = pane.getBoundingClientRect();
    return [...pane.querySelectorAll(PANE_BUTTONS)].filter((button) => {
      const r = button.getBoundingClientRect();
      return r.bottom > box.top && r.top < box.bottom;
    }).sort((x, y) => x.getBoundingClientRect().top - y.getBoundingClientRect().top);
  }

  /** Keys on a focused pane or on a button inside one; true when handled. */
  function onPaneKey(event) {
    const target = event.target, pane = target.closest && target.closest('.scroller');
    if (!pane) return false;
    if (isPane(target)) {
      if (event.key !== 'Enter') return false;
      const [first] = buttonsInSight(pane);
      if (first) { event.preventDefault(); first.focus(); }
      return Boolean(first);
    }
    if (!target.matches(PANE_BUTTONS)) return false;
    if (event.key === 'Escape') { event.preventDefault(); pane.focus({ preventScroll: true }); return true; }
    const delta = event.key === 'ArrowDown' ? 1 : event.key === 'ArrowUp' ? -1 : 0;
    if (!delta) return false;
    event.preventDefault();
    const list = buttonsInSight(pane), next = list[list.indexOf(target) + delta];
    if (next) next.focus();
    return true;
  }

  /* ---------- toolbars: one Tab stop, the arrow keys move inside ---------- */

  // What a toolbar's arrow keys walk; text boxes inside one keep their own Tab stop and arrows.
  const TOOL_ITEMS = 'button, input[type="checkbox"]';

  /** The items a key can move to: enabled and not hidden (a hidden label hides its checkbox). */
  function toolItems(toolbar) {
    return [...toolbar.querySelectorAll(TOOL_ITEMS)].filter((item) => !item.disabled && !item.closest('[hidden]'));
  }

  /** Exactly one item in the Tab order: `current` if given, else the one that was, else the first. */
  function settleToolbar(toolbar, current) {
    const items = toolItems(toolbar);
    const stop = items.includes(current) ? current : items.find((item) => item.tabIndex === 0) || items[0];
    for (const item of toolbar.querySelectorAll(TOOL_ITEMS)) item.tabIndex = item === stop ? 0 : -1;
  }

  function onToolbarKey(event, toolbar) {
    const items = toolItems(toolbar), at = items.indexOf(event.target);
    if (at < 0 || event.ctrlKey || event.metaKey || event.altKey) return;
    const moves = { ArrowRight: at + 1, ArrowLeft: at - 1, Home: 0, End: items.length - 1 };
    if (!(event.key in moves)) return;
    event.preventDefault();
    const next = items[Math.max(0, Math.min(items.length - 1, moves[event.key]))];
    settleToolbar(toolbar, next);
    next.focus();
  }

  /** Every role="toolbar" of the page. Items shown, hidden or enabled later (the locations toggle,
   *  the function filter, the CONCISE tag) keep the toolbar reachable: it settles again then. */
  function wireToolbars() {
    for (const toolbar of document.querySelectorAll('[role="toolbar"]')) {
      settleToolbar(toolbar);
      toolbar.addEventListener('keydown', (event) => onToolbarKey(event, toolbar));
      toolbar.addEventListener('focusin', (event) => { if (/** @type {Element} */ (event.target).matches(TOOL_ITEMS)) settleToolbar(toolbar, event.target); });
      new MutationObserver(() => settleToolbar(toolbar))
        .observe(toolbar, { subtree: true, attributes: true, attributeFilter: ['hidden', 'disabled'] });
    }
  }

  /** The document's keydown handler. `actions`: { helpOpen(), openHelp(), closeHelp(), noPass(),
   *  stepPass(d), settlePass(), stepChange(d), stepFind(d), focusFilter(), focusFind(), startGoTo(), following(),
   *  followToFind(), stopFollowing(), onFieldKey(event), toggleWholeWord() }. */
  const PASS_STEPS = new Set(['j', 'k', 'ArrowDown', 'ArrowUp']);

  function createKeys(actions) {
    return function onKeyDown(event) {
      if (event.altKey && !event.ctrlKey && !event.metaKey && !actions.helpOpen()) {
        // Alt+key is named by the key's place (on a Mac, Alt turns `w` into another character); it
        // acts in the Find box too, as the option belongs to the box.
        switch (`Alt+${event.code.replace(/^Key/, '')}`) {
          case 'Alt+W': event.preventDefault(); actions.toggleWholeWord(); break;
          default:
        }
        return;
      }
      if (event.ctrlKey || event.metaKey || event.altKey) return;
      if (actions.helpOpen()) {
        // Modal: Close is its only control, so focus stays there.
        if (event.key === 'Escape' || event.key === '?') { event.preventDefault(); actions.closeHelp(); }
        else if (event.key === 'Tab') { event.preventDefault(); $('help-close').focus(); }
        return;
      }
      if (isTyping(event.target)) { actions.onFieldKey(event); return; }
      if (actions.noPass() && event.key !== '?') return;
      if (!PASS_STEPS.has(event.key)) actions.settlePass();   // any other key acts on the pass stepped to
      if (onPaneKey(event)) return;
      // The arrow keys keep their own meaning where they have one: a focused code pane scrolls (the
      // browser's smooth scrolling), a focused select (`Function` just picked) changes its option.
      // `j` / `k` still switch passes there.
      const ownsArrows = event.target.tagName === 'SELECT' || isPane(event.target);
      if (ownsArrows && (event.key === 'ArrowDown' || event.key === 'ArrowUp')) return;
      switch (event.key) {
        case 'j': case 'ArrowDown': event.preventDefault(); actions.stepPass(1); break;
        case 'k': case 'ArrowUp': event.preventDefault(); actions.stepPass(-1); break;
        case ']': event.preventDefault(); actions.stepChange(1); break;
        case '[': event.preventDefault(); actions.stepChange(-1); break;
        case 'n': event.preventDefault(); actions.stepFind(1); break;
        case 'N': event.preventDefault(); actions.stepFind(-1); break;
        case '?': event.preventDefault(); actions.openHelp(); break;
        case '/': event.preventDefault(); actions.focusFilter(); break;
        case 'g': case ':': event.preventDefault(); actions.startGoTo(); break;
        case 'f': event.preventDefault(); actions.focusFind(); break;
        case 'v': if (actions.following()) { event.preventDefault(); actions.followToFind(); } break;
        case 'Escape': if (actions.following()) { event.preventDefault(); actions.stopFollowing(); } break;
        default:
      }
    };
  }

  return { createKeys, isTyping, skipToCode, wireToolbars };
})();
