import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import useSWR from 'swr';
import { Spinner } from '../../components/Spinner';
import { api, isApiError } from '../../lib/api';
import { swrKeys } from '../../lib/swrKeys';

export default function AdminUsersPage() {
  const { t } = useTranslation('admin');
  const [page, setPage] = useState(1);
  const { data, error, isLoading } = useSWR(swrKeys.adminUsers(page), () => api.admin.users(page));
  const rows = Array.isArray(data) ? data : (data?.items ?? []);
  return (
    <div>
      <h1>{t('users')}</h1>
      {isLoading ? (
        <Spinner />
      ) : error ? (
        <p className="field-error" role="alert">
          {isApiError(error, 'FORBIDDEN') ? t('forbidden') : t('loadFailed')}
        </p>
      ) : (
        <div className="table-wrap">
          <table>
            <thead>
              <tr>
                <th scope="col">{t('columns.email')}</th>
                <th scope="col">{t('columns.reminders')}</th>
                <th scope="col">{t('columns.lastActivity')}</th>
              </tr>
            </thead>
            <tbody>
              {rows.map((u) => (
                <tr key={u.id}>
                  <td>{u.email}</td>
                  <td>{u.reminder_count ?? '—'}</td>
                  <td>{u.last_activity ?? '—'}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <div className="row">
        <button type="button" className="button secondary small" disabled={page <= 1} onClick={() => setPage((p) => p - 1)}>
          {t('prev')}
        </button>
        <span>{t('page', { n: page })}</span>
        <button type="button" className="button secondary small" onClick={() => setPage((p) => p + 1)} disabled={rows.length === 0}>
          {t('next')}
        </button>
      </div>
    </div>
  );
}
