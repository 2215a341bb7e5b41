/**
 * Live reload under `kdd dev`: follows the status file the dev loop writes after every build. A new
 * live bundle reloads the page (the worker then loads it); a broken edit shows its warnings in a
 * banner while the page keeps answering from the last good bundle. Pages without the dev marker
 * (every published site) do nothing and send no request.
 */
import { h } from './dom.js';
import { DEV_STATUS_FILE, type DevStatus } from '../../formats/dev-status.js';

const POLL_MS = 250;

export function followDevStatus(base: string): void {
  if (!document.querySelector('meta[name="kdd-dev"]')) return;
  const url = new URL(DEV_STATUS_FILE, base).href;
  let seen: DevStatus | null = null;
  const tick = async (): Promise<void> => {
    try {
      const response = await fetch(url, { cache: 'no-store' });
      const status = (await response.json()) as DevStatus;
      if (seen && status.generation !== seen.generation && status.state === 'ok' && status.bundle !== seen.bundle) {
        location.reload();
        return;
      }
      if (!seen || status.generation !== seen.generation) showBanner(status);
      seen = status;
    } catch {
      // The dev server is restarting or gone: keep the page, try again later.
    }
    setTimeout(() => void tick(), POLL_MS);
  };
  void tick();
}

function showBanner(status: DevStatus): void {
  document.getElementById('kdd-dev-banner')?.remove();
  if (status.state === 'ok') return;
  const lines = status.error ? [status.error] : status.warnings.map((warning) => `${warning.code}: ${warning.message}`);
  const banner = h(
    'div',
    { id: 'kdd-dev-banner', role: 'alert', style: 'position:fixed;left:0;right:0;bottom:0;z-index:10;padding:.6em 1em;background:#fff3cd;color:#5c4400;border-top:2px solid #e0a800;font:14px/1.4 system-ui,sans-serif' },
    h('strong', {}, `Last edit not published — still showing ${status.bundle ?? 'the previous bundle'}`),
    h('ul', { style: 'margin:.3em 0 0;padding-left:1.2em' }, ...lines.map((line) => h('li', {}, line))),
  );
  document.body.append(banner);
}
