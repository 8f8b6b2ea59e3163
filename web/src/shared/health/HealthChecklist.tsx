import { useTranslation } from 'react-i18next';
import type { CheckStatus, HealthChecks } from './healthLogic';

export function StatusDot({ status }: { status: CheckStatus }) {
  return <span className={`dot dot-${status}`} aria-hidden="true" />;
}

export function HealthChecklist({ checks, advice = {} }: { checks: HealthChecks; advice?: Partial<Record<keyof HealthChecks, string>> }) {
  const { t } = useTranslation('health');
  return (
    <ul className="health-list">
      {(Object.keys(checks) as (keyof HealthChecks)[]).map((k) => (
        <li key={k}>
          <StatusDot status={checks[k]} />
          <span className="health-name">{t(`checks.${k}`)}</span>
          <span className="health-value">{t(`status.${checks[k]}`)}</span>
          {checks[k] !== 'healthy' && checks[k] !== 'checking' && <p className="hint">{t(advice[k] ?? `advice.${k}.${checks[k]}`)}</p>}
        </li>
      ))}
    </ul>
  );
}
