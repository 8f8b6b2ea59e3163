import { useSyncExternalStore } from 'react';
import { onSignOut } from '../lib/authStore';

/**
 * The phrase in the quick-add box, kept outside the box: Enter opens the create dialog (on the
 * reminders page, so the box it came from may be another one) and the phrase stays until the
 * reminder it made is saved. Closing the dialog (Escape, Cancel) leaves it there to edit again.
 */
let draft = '';
const listeners = new Set<() => void>();

export function setQuickAddDraft(text: string): void {
  if (text === draft) return;
  draft = text;
  for (const l of listeners) l();
}

/** The reminder quick add opened with has been saved: the box empties. */
export function clearQuickAddDraft(): void {
  setQuickAddDraft('');
}

export function useQuickAddDraft(): string {
  return useSyncExternalStore(
    (fn) => {
      listeners.add(fn);
      return () => listeners.delete(fn);
    },
    () => draft,
  );
}

// A phrase is one person's: signing out takes it away, so the next account never sees it.
onSignOut(() => clearQuickAddDraft());
