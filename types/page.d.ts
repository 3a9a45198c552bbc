// What the report page's scripts use that TypeScript's bundled lib does not declare yet (checked by
// `npm run check-js`; see tsconfig.json). Declarations only: nothing here reaches the page.

interface Uint8ArrayConstructor {
  /** Chromium's native base64 decoding; viewer.js tests for it and falls back to atob. */
  fromBase64?(text: string): Uint8Array<ArrayBuffer>;
}

interface Window {
  /** The viewer's timing hooks for benchmarks/browser_bench.py (viewer.js). */
  __irTrace?: unknown;
}
