import { useTranslation } from 'react-i18next';
import type { DeviceState } from '../device/deviceState';
import type { CheckStatus, HealthChecks } from './healthLogic';

export function StatusDot({ status }: { status: CheckStatus }) {
  return <span className={`dot dot-${status}`} aria-hidden="true" />;
}

/**
 * The health checks, one row each. With `device`, the notifications row says this device's state
 * in the device's words (namespace `device`), the same as every other screen.
 */
export function HealthChecklist({
  checks,
  advice = {},
  device,
}: {
  checks: HealthChecks;
  advice?: Partial<Record<keyof HealthChecks, string>>;
  device?: DeviceState | 'checking';
}) {
  const { t } = useTranslation(['health', 'device']);
  return (
    <ul className="health-list">
      {(Object.keys(checks) as (keyof HealthChecks)[]).map((k) => {
        const words = k === 'notifications' && device !== undefined;
        return (
          <li key={k} data-check={k} data-device-state={words ? device : undefined}>
            <StatusDot status={checks[k]} />
            <span className="health-name">{t(`checks.${k}`)}</span>
            <span className="health-value">{words ? t(`device:state.${device}.label`) : t(`status.${checks[k]}`)}</span>
            {checks[k] !== 'healthy' && checks[k] !== 'checking' && (
              <p className="hint">{words ? t(`device:state.${device}.summary`) : t(advice[k] ?? `advice.${k}.${checks[k]}`)}</p>
            )}
          </li>
        );
      })}
    </ul>
  );
}
