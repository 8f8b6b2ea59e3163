import { useTranslation } from 'react-i18next';
import { StatusDot } from '../health/HealthChecklist';
import { deviceCheck, type DeviceState } from './deviceState';

/** "This device: Not set up", with its dot: the same words on every screen. */
export function DeviceStateLine({ state, summary = false }: { state: DeviceState | 'checking'; summary?: boolean }) {
  const { t } = useTranslation('device');
  return (
    <>
      <p className="device-state" data-testid="device-state" data-device-state={state}>
        <StatusDot status={deviceCheck(state)} />
        <span className="device-state-label">{t('thisDevice', { state: t(`state.${state}.label`) })}</span>
      </p>
      {summary && <p>{t(`state.${state}.summary`)}</p>}
    </>
  );
}
