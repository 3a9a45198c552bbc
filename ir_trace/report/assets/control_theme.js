// needs: viewer_controls.js, viewer_panels.js
/* pypto-ir-trace viewer control: the Theme button (#theme-toggle), light or dark. The stored choice,
 * else the system's preference, applies on every page, the report without passes too. */
IRTraceControls.register({
  name: 'theme',
  start({ settings }) {
    const prefersDark = window.matchMedia && window.matchMedia('(prefers-color-scheme: dark)').matches;
    const stored = settings.get('theme');
    IRTracePanels.setTheme(['light', 'dark'].includes(stored) ? stored : prefersDark ? 'dark' : 'light');
    document.getElementById('theme-toggle').addEventListener('click', () => {
      const theme = document.documentElement.dataset.theme === 'dark' ? 'light' : 'dark';
      IRTracePanels.setTheme(theme);
      settings.set('theme', theme);
    });
  },
});
