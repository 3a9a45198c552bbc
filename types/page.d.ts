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

/** The viewer's state (viewer_state.js owns it): read-only everywhere, changed only through ViewerStateOwner. */
interface ViewerState {
  readonly sel: number;
  readonly fn: string;
  readonly layout: string;
  readonly wrap: boolean;
  readonly indentBlocks: boolean;
  readonly expandAll: boolean;
  readonly showChanged: boolean;
  readonly showNoop: boolean;
  readonly fnOnly: boolean;
  readonly query: string;
  readonly from: number;
  readonly runView: string;
  readonly ignore: { modes: string[]; regex: string | null } | null;
  readonly expanded: ReadonlySet<number>;
  readonly behaviours: ReadonlySet<string>;
}

/** The plain fields of the state, as `set` takes them. */
type ViewerStatePatch = { -readonly [K in Exclude<keyof ViewerState, 'expanded' | 'behaviours'>]: ViewerState[K] };

/** What IRTraceState.createState returns: the state and the only ways to change it. */
interface ViewerStateOwner {
  state: ViewerState;
  set(patch: Partial<ViewerStatePatch>): void;
  openFold(start: number): void;
  closeFolds(): void;
  pressBehaviour(key: string, on: boolean): void;
  setBehaviours(keys: Iterable<string>): void;
}

/** What viewer.js hands a control of the registry (viewer_controls.js) when it starts and wires it. */
interface ViewerControlContext {
  readonly state: ViewerState;
  set(patch: Partial<ViewerStatePatch>): void;
  /** Fold again and repaint the current pass (keepScroll: stay where the panes are scrolled). */
  refreshDisplay(keepScroll: boolean): void;
  /** Settings kept in localStorage (viewer_panels.js). */
  settings: { get(key: string): string | null; set(key: string, value: string): void };
}

/** A control (control_*.js): `start` runs on every page, `wire` once the report has a pass to show. */
interface ViewerControl {
  name: string;
  start?(viewer: ViewerControlContext): void;
  wire?(viewer: ViewerControlContext): void;
}
