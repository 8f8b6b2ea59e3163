import { useTranslation } from 'react-i18next';
import { StatusDot } from '../../shared/health/HealthChecklist';
import type { HealthFacts } from '../../shared/health/useHealth';
import { diagnosticRows } from './diagnostics';

const D = 'guide.diagnostics';

/** One row per check: notification permission, push subscription, service worker, server connection. */
export function DiagnosticsList({ facts }: { facts: HealthFacts }) {
  const { t } = useTranslation(['info', 'device']);
  const text = (group: 'values' | 'advice', key: string) => (key.startsWith('device:') ? t(key) : t(`${D}.${group}.${key}`));
  return (
    <ul className="health-list diagnostics">
      {diagnosticRows(facts).map((row) => (
        <li key={row.id} data-check={row.id} data-device-state={row.id === 'subscription' ? facts.device : undefined}>
          <StatusDot status={row.status} />
          <span className="health-name">{t(`${D}.rows.${row.id}`)}</span>
          <span className="health-value">{text('values', row.value)}</span>
          {row.advice && <p className="hint">{text('advice', row.advice)}</p>}
        </li>
      ))}
    </ul>
  );
}
