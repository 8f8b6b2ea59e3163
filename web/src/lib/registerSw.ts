/** Registers /sw.js at startup (after load, so it never competes with the first paint). */
export function registerServiceWorker(): void {
  // Not `'serviceWorker' in navigator`: some private windows have the property, undefined.
  const sw = (navigator as { serviceWorker?: ServiceWorkerContainer }).serviceWorker;
  if (!sw || import.meta.env.DEV) return;
  const register = () => {
    sw.register('/sw.js', { scope: '/' }).catch((e: unknown) => {
      console.warn('Service worker registration failed', e);
    });
  };
  if (document.readyState === 'complete') register();
  else window.addEventListener('load', register, { once: true });
}
