/** A tiny toast store (toasts show top right, 5 s by default). */
export type ToastKind = 'info' | 'success' | 'warning' | 'error';

export interface Toast {
  id: number;
  kind: ToastKind;
  message: string;
  duration: number;
}

export const TOAST_DEFAULT_MS = 5_000;

let toasts: Toast[] = [];
let nextId = 1;
const listeners = new Set<() => void>();

function emit() {
  for (const l of listeners) l();
}

export function showToast(message: string, kind: ToastKind = 'info', duration = TOAST_DEFAULT_MS): number {
  // The same message twice in a row (e.g. two guards firing) shows once.
  const dup = toasts.find((t) => t.message === message && t.kind === kind);
  if (dup) return dup.id;
  const id = nextId++;
  toasts = [...toasts, { id, kind, message, duration }];
  emit();
  return id;
}

export function dismissToast(id: number): void {
  toasts = toasts.filter((t) => t.id !== id);
  emit();
}

export const toast = {
  info: (m: string, d?: number) => showToast(m, 'info', d),
  success: (m: string, d?: number) => showToast(m, 'success', d),
  warning: (m: string, d?: number) => showToast(m, 'warning', d),
  error: (m: string, d?: number) => showToast(m, 'error', d),
};

export function subscribeToasts(fn: () => void): () => void {
  listeners.add(fn);
  return () => listeners.delete(fn);
}

export function getToasts(): Toast[] {
  return toasts;
}

export function clearToasts(): void {
  toasts = [];
  emit();
}
