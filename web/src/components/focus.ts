/** Focus helpers shared by the dialog, the menus and the pages. */

const TABBABLE = [
  'a[href]',
  'area[href]',
  'button:not([disabled])',
  'input:not([disabled]):not([type="hidden"])',
  'select:not([disabled])',
  'textarea:not([disabled])',
  'summary',
  'iframe',
  '[contenteditable="true"]',
  '[tabindex]:not([tabindex="-1"])',
].join(',');

/** The elements Tab reaches inside `root`, in document order (hidden ones left out). */
export function tabbables(root: HTMLElement): HTMLElement[] {
  return [...root.querySelectorAll<HTMLElement>(TABBABLE)].filter((el) => el.tabIndex >= 0 && shown(el));
}

/** Rendered and not inert (jsdom has no layout: there only `hidden` counts). */
function shown(el: HTMLElement): boolean {
  if (el.closest('[inert], [hidden]')) return false;
  return typeof el.checkVisibility === 'function' ? el.checkVisibility() : true;
}

/** Keeps Tab and Shift+Tab inside `root`: past the last element comes the first, and back. */
export function trapTab(e: KeyboardEvent, root: HTMLElement): void {
  const items = tabbables(root);
  if (items.length === 0) {
    e.preventDefault();
    return;
  }
  const active = document.activeElement as HTMLElement | null;
  const at = active ? items.indexOf(active) : -1;
  if (e.shiftKey ? at <= 0 : at === items.length - 1 || (at === -1 && !root.contains(active))) {
    // Shift+Tab from the first element or the heading wraps to the end; Tab from the last, to the start.
    e.preventDefault();
    (e.shiftKey ? items[items.length - 1]! : items[0]!).focus();
  }
}

/**
 * Puts focus back on `el` when it is still on the page; otherwise on the page's main heading
 * (made focusable for this), so focus never drops to <body>.
 */
export function restoreFocus(el: Element | null): void {
  if (el instanceof HTMLElement && el !== document.body && el.isConnected && shown(el)) {
    el.focus();
    if (document.activeElement === el) return;
  }
  focusMainHeading();
}

export function focusMainHeading(): void {
  const heading = document.querySelector<HTMLElement>('main h1');
  if (heading) {
    if (!heading.hasAttribute('tabindex')) heading.setAttribute('tabindex', '-1');
    heading.focus();
    return;
  }
  document.getElementById('main')?.focus();
}

/** True while an input method is composing: its Escape and Enter belong to the IME. */
export function composing(e: KeyboardEvent): boolean {
  return e.isComposing || e.keyCode === 229;
}
