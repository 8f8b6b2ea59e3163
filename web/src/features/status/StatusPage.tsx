import { useTranslation } from 'react-i18next';
import useSWR from 'swr';
import { Spinner } from '../../components/Spinner';
import { api } from '../../lib/api';
import { swrKeys } from '../../lib/swrKeys';
import { JsonTable } from '../admin/AdminPage';
import { HealthChecklist, StatusDot } from '../health/HealthIndicator';
import { useHealth } from '../health/useHealth';

/** System health of this device (notifications, service worker, connection) and the server's metrics summary. */
export default function StatusPage() {
  const { t } = useTranslation('status');
  const th = useTranslation('health').t;
  const health = useHealth();
  const server = useSWR(swrKeys.serverStatus(), () => api.health.status(), { refreshInterval: 30_000 });
  return (
    <div className="narrow">
      <h1>{t('title')}</h1>
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
            }}
          >
            {th('refresh')}
          </button>
        </div>
        <HealthChecklist checks={health.checks} />
      </section>
      <section className="card">
        <h2>{t('server')}</h2>
        {server.isLoading ? (
          <Spinner />
        ) : server.error ? (
          <p className="field-error" role="alert">
            {t('serverUnavailable')}
          </p>
        ) : server.data ? (
          <JsonTable data={server.data} />
        ) : null}
      </section>
    </div>
  );
}
