/**
 * The open modal dialogs, innermost last. Escape and the focus trap belong to the top one only,
 * and toasts render inside its toast slot so that they never cover it.
 */
export interface OpenDialog {
  id: symbol;
  /** where toasts go while this dialog is on top */
  toastSlot: HTMLElement | null;
}

let stack: readonly OpenDialog[] = [];
const listeners = new Set<() => void>();

function emit(): void {
  for (const l of listeners) l();
}

export function pushDialog(entry: OpenDialog): void {
  stack = [...stack, entry];
  emit();
}

export function removeDialog(id: symbol): void {
  stack = stack.filter((d) => d.id !== id);
  emit();
}

export function isTopDialog(id: symbol): boolean {
  return stack[stack.length - 1]?.id === id;
}

export function topToastSlot(): HTMLElement | null {
  return stack[stack.length - 1]?.toastSlot ?? null;
}

export function anyDialogOpen(): boolean {
  return stack.length > 0;
}

export function subscribeDialogs(fn: () => void): () => void {
  listeners.add(fn);
  return () => listeners.delete(fn);
}
