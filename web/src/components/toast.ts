/**
 * A tiny toast store (5 s by default), one toast at a time (decisions.md "Toasts": at most one
 * at a time, a newer one replaces it). A toast belongs to the page (pathname) it was shown on and
 * goes when the route changes, except one that announces the navigation it comes with ("signed
 * in", "account deleted"): that one survives exactly one route change.
 */
export type ToastKind = 'info' | 'success' | 'warning' | 'error';

export interface Toast {
  id: number;
  kind: ToastKind;
  message: string;
  duration: number;
  /** the pathname it belongs to */
  path: string;
  /** it announces a navigation that is about to happen: keep it over the next route change */
  survivesNavigation: boolean;
  /** a button beside the message (Undo): pressing it runs `run` and dismisses the toast */
  action?: ToastAction;
}

export interface ToastAction {
  label: string;
  run: () => void;
}

export interface ToastOptions {
  duration?: number;
  survivesNavigation?: boolean;
  action?: ToastAction;
}

export const TOAST_DEFAULT_MS = 5_000;
/** A toast with a button stays longer: the person has to read it and reach the button. */
export const TOAST_ACTION_MS = 10_000;

let toasts: Toast[] = [];
let nextId = 1;
const listeners = new Set<() => void>();

function emit() {
  for (const l of listeners) l();
}

/** The route's pathname, kept by the Toaster (routeChanged). */
let routePath = typeof location === 'undefined' ? '' : location.pathname;

export function showToast(message: string, kind: ToastKind = 'info', options: ToastOptions | number = {}): number {
  const opts: ToastOptions = typeof options === 'number' ? { duration: options } : options;
  const { action, survivesNavigation = false } = opts;
  const duration = opts.duration ?? (action ? TOAST_ACTION_MS : TOAST_DEFAULT_MS);
  // The same message twice in a row (e.g. two guards firing) shows once.
  const shown = toasts[0];
  if (shown && shown.message === message && shown.kind === kind && !action && !shown.action) return shown.id;
  const id = nextId++;
  // One at a time: a newer toast replaces the one shown (and counts its own duration).
  toasts = [{ id, kind, message, duration, path: routePath, survivesNavigation, action }];
  emit();
  return id;
}

export function dismissToast(id: number): void {
  toasts = toasts.filter((t) => t.id !== id);
  emit();
}

export const toast = {
  info: (m: string, o?: ToastOptions | number) => showToast(m, 'info', o),
  success: (m: string, o?: ToastOptions | number) => showToast(m, 'success', o),
  warning: (m: string, o?: ToastOptions | number) => showToast(m, 'warning', o),
  error: (m: string, o?: ToastOptions | number) => showToast(m, 'error', o),
};

/**
 * The route is now `pathname`: toasts of other pages go, except those announcing this very
 * navigation, which now belong here (and go with the next one).
 */
export function routeChanged(pathname: string): void {
  routePath = pathname;
  let changed = false;
  const next: Toast[] = [];
  for (const t of toasts) {
    if (t.path !== pathname && !t.survivesNavigation) {
      changed = true;
      continue;
    }
    if (t.path !== pathname || t.survivesNavigation) {
      changed = true;
      next.push({ ...t, path: pathname, survivesNavigation: false });
    } else next.push(t);
  }
  if (!changed) return;
  toasts = next;
  emit();
}

export function subscribeToasts(fn: () => void): () => void {
  listeners.add(fn);
  return () => listeners.delete(fn);
}

/** The toast shown now, as a list of at most one. */
export function getToasts(): Toast[] {
  return toasts;
}

export function clearToasts(): void {
  toasts = [];
  emit();
}
