/**
 * What `kdd dev` (server/dev.ts) tells the open site after each build: the status file it writes
 * next to the bundle, and the page marker that says a page is served by `kdd dev`. Shared by the
 * dev loop and the site's listener (dev-reload.ts); no DOM, no Node.
 */

/** Status file in the served folder. */
export const DEV_STATUS_FILE = 'kdd-dev.json';
/** `<meta name="kdd-dev">` in the served index.html: only such pages poll (a published site never asks for the file). */
export const DEV_MARKER = '<meta name="kdd-dev" content="kdd-dev.json" />';

export interface DevStatus {
  /** Increases with every build outcome. */
  generation: number;
  /** `ok`: `bundle` is live. `broken`: the last edit was not published (see `warnings` / `error`). */
  state: 'ok' | 'broken';
  /** The bundle being served. */
  bundle: string | null;
  /** Files re-indexed by the last build. */
  changed: string[];
  /** The new warnings that kept the last build from being published, or the warnings of the live one. */
  warnings: { code: string; file: string; message: string }[];
  error: string | null;
}
