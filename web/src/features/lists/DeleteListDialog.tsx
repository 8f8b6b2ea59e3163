import { useEffect, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ConfirmDialog } from '../../components/Dialog';
import type { List } from '../../lib/types';
import { listErrorText } from './listForm';

/**
 * Asks before deleting `list` (open while it is set), naming how many reminders go with it (the
 * server's `active_reminders`; its completed ones go too, which the text says). Deleting needs the
 * connection; a refusal shows here, in the person's language.
 */
export function DeleteListDialog({
  list,
  online,
  onDelete,
  onClose,
}: {
  list: List | null;
  online: boolean;
  onDelete: (list: List) => Promise<void>;
  onClose: () => void;
}) {
  const { t } = useTranslation(['lists', 'errors']);
  const offlineReason = useId();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    setBusy(false);
    setError(null);
  }, [list]);

  async function confirm(l: List) {
    setBusy(true);
    setError(null);
    try {
      await onDelete(l);
    } catch (e) {
      setError(listErrorText(t, e).message);
      setBusy(false);
    }
  }

  return (
    <ConfirmDialog
      open={list !== null}
      title={t('deleteConfirm.title')}
      cancel={t('deleteConfirm.keep')}
      confirm={busy ? t('deleteConfirm.deleting') : t('deleteConfirm.confirm')}
      onConfirm={() => list && void confirm(list)}
      onClose={onClose}
      disabled={!online || busy}
      describedBy={online ? undefined : offlineReason}
    >
      <p>{t('deleteConfirm.text', { name: list?.name ?? '', count: list?.active_reminders ?? 0 })}</p>
      <p className="hint">{t('deleteConfirm.archived')}</p>
      {!online && (
        <p className="notice" id={offlineReason}>
          {t('manage.offline')}
        </p>
      )}
      {error && (
        <p className="field-error" role="alert">
          {error}
        </p>
      )}
    </ConfirmDialog>
  );
}
