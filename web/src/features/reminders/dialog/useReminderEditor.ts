import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { toast } from '../../../components/toast';
import type { Reminder, ReminderInput } from '../../../lib/types';
import { deviceZone } from '../../../lib/zoneIds';
import { markGuideStep } from '../../../shared/guideProgress';
import type { QuickAddPrefill } from '../../../shared/navState';
import { clearQuickAddDraft } from '../../../shared/quickAddDraft';
import { formFromQuickAdd, withQuickAddRecurrence } from './quickAddForm';
import { changedFields, emptyForm, formFromReminder, formToInput, type ReminderForm } from '../reminderLogic';
import { useReminderMutations } from '../useReminders';

interface EditorState {
  open: boolean;
  /** the reminder being edited; null when creating */
  editing: Reminder | null;
  initial: ReminderForm;
  /** quick add's parse the form was filled from */
  quick?: QuickAddPrefill;
}

/**
 * The create/edit dialog's state: what it opens with (an empty form in `defaultTz` and the list
 * `newListId`, quick add's phrase, or a reminder) and what Save does (an edit sends only the
 * changed fields).
 */
export function useReminderEditor(defaultTz: string, newListId = '') {
  const { t } = useTranslation('reminders');
  const { create, update } = useReminderMutations();
  const [dialog, setDialog] = useState<EditorState>(() => ({
    open: false,
    editing: null,
    initial: emptyForm(deviceZone(), Date.now()),
  }));

  const openCreate = () => setDialog({ open: true, editing: null, initial: emptyForm(defaultTz, Date.now(), newListId) });
  const openQuickAdd = (p: QuickAddPrefill) =>
    setDialog({ open: true, editing: null, initial: { ...formFromQuickAdd(p, Date.now()), listId: newListId }, quick: p });
  const openEdit = (r: Reminder) => setDialog({ open: true, editing: r, initial: formFromReminder(r, defaultTz) });
  const close = () => setDialog((d) => ({ ...d, open: false }));

  async function save(input: ReminderInput) {
    if (dialog.editing) {
      await update(dialog.editing.id, changedFields(formToInput(dialog.initial), input));
      toast.success(navigator.onLine ? t('toast.updated') : t('toast.queued'));
    } else {
      await create(dialog.quick ? withQuickAddRecurrence(input, dialog.initial, dialog.quick) : input);
      // The phrase it came from has done its work: the quick-add box empties.
      if (dialog.quick) clearQuickAddDraft();
      markGuideStep('create');
      toast.success(navigator.onLine ? t('toast.created') : t('toast.queued'));
    }
  }

  return { dialog, openCreate, openQuickAdd, openEdit, close, save };
}
