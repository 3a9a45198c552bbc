/* The text-contrast audit of tests/a11y_support.py, run in the page: a function of the minimum ratio.
 * Each text node's colour against what is painted under it: the background colours (and one-colour
 * gradients, as the gutters use) of its ancestors, composited bottom-up over white. Opacity of the
 * element and its ancestors fades the text. Hidden, screen-reader-only and disabled text is skipped
 * (WCAG exempts inactive controls). Returns the failures: [ratio, text, where, fg, bg]. */
((minimum) => {
  const parse = (c) => {
    const m = c.match(/rgba?\(([^)]*)\)/);
    if (!m) return null;
    const p = m[1].split(/[ ,\/]+/).filter(Boolean).map(Number);
    return [p[0], p[1], p[2], p.length > 3 ? p[3] : 1];
  };
  const over = (top, under) => {
    const a = top[3];
    return [0, 1, 2].map((i) => top[i] * a + under[i] * (1 - a)).concat([1]);
  };
  const lum = ([r, g, b]) => {
    const f = (v) => { v /= 255; return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4; };
    return 0.2126 * f(r) + 0.7152 * f(g) + 0.0722 * f(b);
  };
  const ratio = (x, y) => {
    const [l1, l2] = [lum(x), lum(y)].sort((p, q) => q - p);
    return (l1 + 0.05) / (l2 + 0.05);
  };
  const layersOf = (node) => {
    const layers = [];
    for (let n = node; n && n.nodeType === 1; n = n.parentElement) {
      const cs = getComputedStyle(n);
      const image = cs.backgroundImage;
      if (image && image.startsWith('linear-gradient')) {
        const colours = image.match(/rgba?\([^)]*\)/g) || [];
        if (colours.length && colours.every((c) => c === colours[0])) layers.push(parse(colours[0]));
      }
      const bg = parse(cs.backgroundColor);
      if (bg && bg[3] > 0) layers.push(bg);
      if (layers.length && layers[layers.length - 1][3] === 1) break;
    }
    return layers;
  };
  const background = (node) => {
    let colour = [255, 255, 255, 1];
    for (const layer of layersOf(node).reverse()) colour = over(layer, colour);
    return colour;
  };
  const failures = [];
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let t = walker.nextNode(); t; t = walker.nextNode()) {
    const node = t.parentElement;
    if (!t.textContent.trim() || !node || !node.getClientRects().length) continue;
    if (node.closest('.sr-only, [hidden], :disabled, script, style, title')) continue;
    const cs = getComputedStyle(node);
    if (cs.visibility !== 'visible') continue;
    let alpha = 1;
    for (let n = node; n && n.nodeType === 1; n = n.parentElement) alpha *= Number(getComputedStyle(n).opacity);
    const bg = background(node), fgRaw = parse(cs.color);
    const fg = over([fgRaw[0], fgRaw[1], fgRaw[2], fgRaw[3] * alpha], bg);
    const r = ratio(fg, bg);
    if (r < minimum) {
      const where = node.className ? `${node.tagName.toLowerCase()}.${String(node.className).replace(/ /g, '.')}` : node.tagName.toLowerCase();
      const row = node.closest('.row');
      failures.push([Math.round(r * 100) / 100, t.textContent.slice(0, 40), row ? `${row.className} ${where}` : where,
        fg.slice(0, 3).map(Math.round).join(','), bg.slice(0, 3).map(Math.round).join(',')]);
    }
  }
  return failures;
})
