import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Spinner } from '../../../components/Spinner';
import type { Reminder } from '../../../lib/types';

/**
 * The pending tab: a spinner until the list is known, the failure when there is none to show, an
 * empty state (pointing to the completed ones when there are some), or the rows.
 */
export function ActiveReminders({
  list,
  loading,
  failed,
  completedCount,
  row,
  onShowCompleted,
  onCreate,
  empty,
}: {
  list: readonly Reminder[];
  /** loading, with no list to show yet */
  loading: boolean;
  /** failed, with no list to show */
  failed: boolean;
  completedCount: number;
  row: (r: Reminder) => ReactNode;
  onShowCompleted: () => void;
  onCreate: () => void;
  /** the empty state of a filter (a search that finds none has no "create" button) */
  empty?: ReactNode;
}) {
  const { t } = useTranslation('reminders');
  if (loading) return <Spinner />;
  if (failed) {
    return (
      <p className="field-error" role="alert">
        {t('errors.loadFailed')}
      </p>
    );
  }
  if (list.length === 0 && empty) return <div className="empty-state card">{empty}</div>;
  if (list.length === 0) {
    return (
      <div className="empty-state card">
        {completedCount > 0 ? (
          <>
            <p>{t('nothingPending', { count: completedCount })}</p>
            <button type="button" className="button link" onClick={onShowCompleted}>
              {t('showCompleted')}
            </button>
          </>
        ) : (
          <p>{t('emptyActive')}</p>
        )}
        <button type="button" className="button primary" onClick={onCreate}>
          {t('dashboard.createFirst')}
        </button>
      </div>
    );
  }
  return <ul className="reminder-list">{list.map(row)}</ul>;
}
