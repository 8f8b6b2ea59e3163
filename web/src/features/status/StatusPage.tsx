import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import useSWR from 'swr';
import { BarChart } from '../../components/BarChart';
import { latest, peak, totals } from '../../components/chartData';
import { Figures, type Figure } from '../../components/Figures';
import { JsonTable } from '../../components/JsonTable';
import { Spinner } from '../../components/Spinner';
import { api } from '../../lib/api';
import { useAuth } from '../../lib/authStore';
import { formatDay } from '../../lib/format';
import { swrKeys } from '../../lib/swrKeys';
import { useLang } from '../../lib/useLang';
import { useNow } from '../../lib/useNow';
import { HealthChecklist, StatusDot } from '../../shared/health/HealthChecklist';
import { OperatorSetupNotice } from '../../shared/OperatorSetupNotice';
import { useHealth } from '../../shared/health/useHealth';
import { STATUS_BUCKET_MS, metricFormat, readServerStatus, type StatusView } from '../../shared/statusData';
import { fetchHealthDetails, serverHealthRows } from './serverHealth';

const NONE = '—';

/** System health of this device (notifications, service worker, connection) and the server's metrics summary. */
export default function StatusPage() {
  const { t } = useTranslation('status');
  const th = useTranslation('health').t;
  const health = useHealth();
  const server = useSWR(swrKeys.serverStatus(), () => api.health.status(), { refreshInterval: 30_000 });
  const parts = useSWR(swrKeys.healthDetails(), () => fetchHealthDetails(api.health.details), { refreshInterval: 30_000 });
  // The operator learns here (and on the admin page) which operator details are missing.
  const { isAdmin } = useAuth();
  return (
    <div className="narrow">
      <h1>{t('title')}</h1>
      {isAdmin && <OperatorSetupNotice />}
      <section className="card">
        <div className="row between">
          <h2>
            <StatusDot status={health.overall} /> {t('device')}: {th(`status.${health.overall}`)}
          </h2>
          <button
            type="button"
            className="button secondary small"
            onClick={() => {
              health.refresh();
              void server.mutate();
              void parts.mutate();
            }}
          >
            {th('refresh')}
          </button>
        </div>
        <HealthChecklist checks={health.checks} device={health.device} />
      </section>
      <section className="card server-status">
        <h2>{t('server')}</h2>
        <h3 className="subheading">{t('health.title')}</h3>
        <ul className="health-list server-health">
          {serverHealthRows(parts.data).map((row) => (
            <li key={row.id} data-check={row.id}>
              <StatusDot status={parts.isLoading ? 'checking' : row.status} />
              <span className="health-name">{t(`health.${row.id}`)}</span>
              <span className="health-value">{parts.isLoading ? th('status.checking') : t(`health.values.${row.value}`)}</span>
            </li>
          ))}
        </ul>
        {server.isLoading ? (
          <Spinner />
        ) : server.error ? (
          <p className="field-error" role="alert">
            {t('serverUnavailable')}
          </p>
        ) : server.data ? (
          <ServerStatus raw={server.data} />
        ) : null}
      </section>
    </div>
  );
}

/** The figures and, when the server sends timeline_1h, the two per-5-minute charts. */
export function ServerStatus({ raw }: { raw: unknown }) {
  const { t } = useTranslation('status');
  const lang = useLang();
  const now = useNow(5_000);
  const view = useMemo(() => readServerStatus(raw), [raw]);
  const f = useMemo(() => metricFormat(lang), [lang]);
  const count = (n: number | null) => (n === null ? NONE : f.count(n));
  const duration = (n: number | null) => (n === null ? NONE : f.duration(n));
  const { lateness: l, deliveries5m: d5, deliveries1h: d1 } = view;

  const items: Figure[] = [
    view.lastTick === null
      ? { id: 'lastTick', label: t('figures.lastTick'), value: t('figures.notReported'), tone: 'muted' }
      : { id: 'lastTick', label: t('figures.lastTick'), value: f.timeSeconds(view.lastTick), detail: f.ago(view.lastTick, now) },
    view.queueDepth === null
      ? { id: 'queueDepth', label: t('figures.queueDepth'), value: t('figures.unknown'), tone: 'muted' }
      : { id: 'queueDepth', label: t('figures.queueDepth'), value: count(view.queueDepth) },
    { id: 'sent5m', label: t('figures.sent5m'), value: count(d5.sent) },
    { id: 'failed5m', label: t('figures.failed5m'), value: count(d5.failed), tone: d5.failed ? 'danger' : undefined },
    { id: 'sent1h', label: t('figures.sent1h'), value: count(d1.sent) },
    { id: 'failed1h', label: t('figures.failed1h'), value: count(d1.failed), tone: d1.failed ? 'danger' : undefined },
    { id: 'p50', label: t('figures.p50'), value: duration(l.p50) },
    { id: 'p95', label: t('figures.p95'), value: duration(l.p95) },
    { id: 'p99', label: t('figures.p99'), value: duration(l.p99) },
    { id: 'max', label: t('figures.max'), value: duration(l.max) },
  ];
  if (view.holidaysUntil && view.holidays) {
    // The shipped Japanese holiday table: schedules stop seeing holidays after its last date.
    const until = formatDay(view.holidaysUntil, { lang, now, weekday: false });
    items.push({
      id: 'holidays',
      label: t('figures.holidays'),
      value: until,
      detail: t(`figures.holidays_${view.holidays}`),
      tone: view.holidays === 'ok' ? undefined : 'danger',
    });
  }

  return (
    <>
      <Figures items={items} />
      {view.channels.length > 0 && (
        <>
          <h3 className="subheading">{t('channels.title')}</h3>
          <ul className="health-list channel-health">
            {view.channels.map((c) => (
              <li key={c.kind} data-channel={c.kind}>
                {c.status === 'ok' || c.status === 'failing' ? (
                  <StatusDot status={c.status === 'ok' ? 'healthy' : 'error'} />
                ) : (
                  // Off or idle is not a warning: no colour.
                  <span className="dot" aria-hidden="true" />
                )}
                <span className="health-name">{t(`channels.kinds.${c.kind}`)}</span>
                <span className="health-value">
                  {t(`channels.states.${c.status}`)}
                  {c.sent + c.failed > 0 ? ` · ${t('channels.counts', { sent: f.count(c.sent), failed: f.count(c.failed) })}` : ''}
                </span>
              </li>
            ))}
          </ul>
        </>
      )}
      {view.timeline && view.timeline.length > 0 && <StatusCharts view={view} />}
      {Object.keys(view.extra).length > 0 && (
        <>
          <h3 className="subheading">{t('other')}</h3>
          <JsonTable data={view.extra} />
        </>
      )}
    </>
  );
}

function StatusCharts({ view }: { view: StatusView }) {
  const { t } = useTranslation('status');
  const lang = useLang();
  const f = useMemo(() => metricFormat(lang), [lang]);
  const rows = view.timeline ?? [];

  const sum = totals(rows, ['sent', 'failed']);
  const busiest = peak(rows, (r) => (r.values.sent ?? 0) + (r.values.failed ?? 0));
  const deliveriesSummary = busiest
    ? t('charts.deliveriesSummary', { sent: f.count(sum.sent), failed: f.count(sum.failed), peakTime: f.time(busiest.start), peak: f.count(busiest.value) })
    : t('charts.deliveriesSummaryEmpty');

  const worst = peak(rows, (r) => r.values.lateness_p99_ms);
  const last = latest(rows, 'lateness_p99_ms');
  const latenessSummary = worst && last
    ? t('charts.latenessSummary', { max: f.duration(worst.value), peakTime: f.time(worst.start), latest: f.duration(last.value), latestTime: f.time(last.start) })
    : last
      ? t('charts.latenessSummaryZero')
      : t('charts.latenessSummaryEmpty');

  const common = { bucketMs: STATUS_BUCKET_MS, formatTime: f.time, tableToggle: t('charts.showTable'), timeHeading: t('charts.time') };
  return (
    <>
      <h3 className="subheading">{t('charts.heading')}</h3>
      <div className="charts two">
        <BarChart
          {...common}
          title={t('charts.deliveriesTitle')}
          summary={deliveriesSummary}
          rows={rows}
          series={[
            { key: 'sent', label: t('charts.sent'), className: 'chart-sent' },
            { key: 'failed', label: t('charts.failed'), className: 'chart-failed' },
          ]}
          formatValue={f.count}
          emptyText={t('charts.deliveriesEmpty')}
        />
        <BarChart
          {...common}
          title={t('charts.latenessTitle')}
          summary={latenessSummary}
          rows={rows}
          series={[{ key: 'lateness_p99_ms', label: t('charts.lateness'), className: 'chart-lateness' }]}
          formatValue={f.duration}
          emptyText={last ? t('charts.latenessZero') : t('charts.deliveriesEmpty')}
        />
      </div>
    </>
  );
}
