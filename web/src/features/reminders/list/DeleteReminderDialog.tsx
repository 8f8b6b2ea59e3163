import { useTranslation } from 'react-i18next';
import { ConfirmDialog } from '../../../components/Dialog';
import { focusMainHeading } from '../../../components/focus';
import { toast } from '../../../components/toast';
import type { Reminder } from '../../../lib/types';
import { useReminderMutations } from '../useReminders';

/** Asks before deleting `reminder` (open while it is set); deleting needs the connection. */
export function DeleteReminderDialog({ reminder, online, onClose }: { reminder: Reminder | null; online: boolean; onClose: () => void }) {
  const { t } = useTranslation('reminders');
  const { remove } = useReminderMutations();

  async function doDelete(r: Reminder) {
    onClose();
    try {
      await remove(r.id);
      toast.success(t('toast.deleted'));
    } catch {
      toast.error(t('errors.deleteFailed'));
    }
    // The row's Delete button, where the dialog put focus back, is gone with the row.
    if (document.activeElement === document.body || !document.activeElement?.isConnected) focusMainHeading();
  }

  return (
    <ConfirmDialog
      open={reminder !== null}
      title={t('deleteConfirm.title')}
      cancel={t('dialog.cancel')}
      confirm={t('delete')}
      onConfirm={() => reminder && void doDelete(reminder)}
      onClose={onClose}
      disabled={!online}
    >
      <p>{t('deleteConfirm.text', { title: reminder?.title ?? '' })}</p>
    </ConfirmDialog>
  );
}
