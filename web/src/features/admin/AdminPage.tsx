import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import useSWR from 'swr';
import { BarChart } from '../../components/BarChart';
import { peak, totals } from '../../components/chartData';
import { Figures, type Figure } from '../../components/Figures';
import { JsonTable } from '../../components/JsonTable';
import { LangLink } from '../../components/LangLink';
import { Spinner } from '../../components/Spinner';
import { api, isApiError } from '../../lib/api';
import { swrKeys } from '../../lib/swrKeys';
import { useLang } from '../../lib/useLang';
import { OperatorSetupNotice } from '../../shared/OperatorSetupNotice';
import { ADMIN_BUCKET_MS, metricFormat, readAdminStats } from '../../shared/statusData';
import { AdminOnly } from './AdminOnly';

/** /admin and /admin/dashboard, for admins only (AdminOnly). */
export default function AdminPage() {
  return (
    <AdminOnly>
      <AdminDashboard />
    </AdminOnly>
  );
}

function AdminDashboard() {
  const { t } = useTranslation('admin');
  const { data, error, isLoading } = useSWR(swrKeys.adminStats(), () => api.admin.stats());
  // The server has the last word on who is an admin: refused, the page shows no admin links.
  const forbidden = isApiError(error, 'FORBIDDEN');
  return (
    <div>
      <h1>{t('title')}</h1>
      {!forbidden && (
        <nav className="row">
          <LangLink to="/admin/users">{t('users')}</LangLink>
          <LangLink to="/test-email">{t('testEmail.title')}</LangLink>
          <LangLink to="/status">{t('status')}</LangLink>
        </nav>
      )}
      {!forbidden && <OperatorSetupNotice />}
      {isLoading ? (
        <Spinner />
      ) : error ? (
        <p className="field-error" role="alert">
          {forbidden ? t('forbidden') : t('loadFailed')}
        </p>
      ) : data ? (
        <section className="card admin-stats">
          <h2>{t('stats')}</h2>
          <AdminStatsView raw={data} />
        </section>
      ) : null}
    </div>
  );
}

const NONE = '—';

/** The figures as cards and, when the server sends timeline_24h, deliveries and failures per hour. */
export function AdminStatsView({ raw }: { raw: unknown }) {
  const { t } = useTranslation('admin');
  const lang = useLang();
  const view = useMemo(() => readAdminStats(raw), [raw]);
  const f = useMemo(() => metricFormat(lang), [lang]);
  const count = (n: number | null) => (n === null ? NONE : f.count(n));
  const items: Figure[] = [
    { id: 'users', label: t('figures.users'), value: count(view.users) },
    { id: 'activeReminders', label: t('figures.activeReminders'), value: count(view.activeReminders) },
    { id: 'deliveries24h', label: t('figures.deliveries24h'), value: count(view.deliveries24h) },
    { id: 'failures24h', label: t('figures.failures24h'), value: count(view.failures24h), tone: view.failures24h ? 'danger' : undefined },
    view.queueDepth === null
      ? { id: 'queueDepth', label: t('figures.queueDepth'), value: t('figures.unknown'), tone: 'muted' }
      : { id: 'queueDepth', label: t('figures.queueDepth'), value: count(view.queueDepth) },
  ];
  const rows = view.timeline ?? [];
  const sum = totals(rows, ['sent', 'failed']);
  const busiest = peak(rows, (r) => (r.values.sent ?? 0) + (r.values.failed ?? 0));
  const summary = busiest
    ? t('charts.summary', { sent: f.count(sum.sent), failed: f.count(sum.failed), peakTime: f.time(busiest.start), peak: f.count(busiest.value) })
    : t('charts.summaryEmpty');
  return (
    <>
      <Figures items={items} />
      {rows.length > 0 && <h3 className="subheading">{t('charts.heading')}</h3>}
      {rows.length > 0 && (
        <BarChart
          title={t('charts.title')}
          summary={summary}
          rows={rows}
          series={[
            { key: 'sent', label: t('charts.sent'), className: 'chart-sent' },
            { key: 'failed', label: t('charts.failed'), className: 'chart-failed' },
          ]}
          bucketMs={ADMIN_BUCKET_MS}
          formatValue={f.count}
          formatTime={f.time}
          tableToggle={t('charts.showTable')}
          timeHeading={t('charts.time')}
          emptyText={t('charts.empty')}
        />
      )}
      {Object.keys(view.extra).length > 0 && (
        <>
          <h3 className="subheading">{t('other')}</h3>
          <JsonTable data={view.extra} />
        </>
      )}
    </>
  );
}
