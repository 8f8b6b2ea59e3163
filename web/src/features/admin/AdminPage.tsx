import { useTranslation } from 'react-i18next';
import useSWR from 'swr';
import { LangLink } from '../../components/LangLink';
import { Spinner } from '../../components/Spinner';
import { api, isApiError } from '../../lib/api';
import { swrKeys } from '../../lib/swrKeys';

export function JsonTable({ data }: { data: Record<string, unknown> }) {
  return (
    <dl className="kv">
      {Object.entries(data).map(([k, v]) => (
        <div key={k}>
          <dt>{k}</dt>
          <dd>{typeof v === 'object' && v !== null ? JSON.stringify(v) : String(v)}</dd>
        </div>
      ))}
    </dl>
  );
}

export default function AdminPage() {
  const { t } = useTranslation('admin');
  const { data, error, isLoading } = useSWR(swrKeys.adminStats(), () => api.admin.stats());
  return (
    <div>
      <h1>{t('title')}</h1>
      <nav className="row">
        <LangLink to="/admin/users">{t('users')}</LangLink>
        <LangLink to="/test-email">{t('testEmail.title')}</LangLink>
        <LangLink to="/status">{t('status')}</LangLink>
      </nav>
      {isLoading ? (
        <Spinner />
      ) : error ? (
        <p className="field-error" role="alert">
          {isApiError(error, 'FORBIDDEN') ? t('forbidden') : t('loadFailed')}
        </p>
      ) : data ? (
        <section className="card">
          <h2>{t('stats')}</h2>
          <JsonTable data={data} />
        </section>
      ) : null}
    </div>
  );
}
