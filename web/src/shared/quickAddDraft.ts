import { useSyncExternalStore } from 'react';
import { onSignOut } from '../lib/authStore';

/**
 * The phrase in the quick-add box, kept outside the box: Enter opens the create dialog (on the
 * reminders page, so the box it came from may be another one) and the phrase stays until the
 * reminder it made is saved. Closing the dialog (Escape, Cancel) leaves it there to edit again.
 */
let draft = '';
/** A link shared to the app (the share target): it goes into the reminder's description. */
let note = '';
const listeners = new Set<() => void>();

export function setQuickAddDraft(text: string, withNote?: string): void {
  // An emptied box lets go of the shared link too.
  const nextNote = withNote ?? (text.trim() === '' ? '' : note);
  if (text === draft && nextNote === note) return;
  draft = text;
  note = nextNote;
  for (const l of listeners) l();
}

/** The shared link kept with the phrase ('' when none). */
export function getQuickAddNote(): string {
  return note;
}

/** The reminder quick add opened with has been saved: the box empties. */
export function clearQuickAddDraft(): void {
  setQuickAddDraft('', '');
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
