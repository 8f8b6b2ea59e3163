/** Navigation state key: the reminders page opens its create dialog 100 ms after arriving. */
export const OPEN_CREATE_DIALOG = 'openCreateDialog';
export const OPEN_CREATE_DELAY_MS = 100;
