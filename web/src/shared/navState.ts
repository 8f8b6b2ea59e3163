import type { Recurrence } from '../lib/types';

/** Navigation state key: the reminders page opens its create dialog 100 ms after arriving. */
export const OPEN_CREATE_DIALOG = 'openCreateDialog';
export const OPEN_CREATE_DELAY_MS = 100;

/**
 * Navigation state key: quick add's parsed phrase, which the create dialog opens with (for
 * confirmation; nothing is saved until the person presses Save). Sent with OPEN_CREATE_DIALOG.
 */
export const QUICK_ADD_PREFILL = 'quickAddPrefill';

export interface QuickAddPrefill {
  title: string;
  /** RFC 3339 with offset; null when the phrase named no time (the dialog's default applies) */
  send_at: string | null;
  timezone: string;
  recurrence: Recurrence;
  /** a link shared to the app with the phrase (the share target): the reminder's description */
  description?: string;
}
