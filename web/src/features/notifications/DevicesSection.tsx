import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import useSWR from 'swr';
import { toast } from '../../components/toast';
import { api } from '../../lib/api';
import { useOnline } from '../../lib/useOnline';
import { currentSubscription, disableNotifications } from '../../lib/push/pushClient';
import { pushStateChanged } from '../../lib/push/usePushState';
import { DeviceStateLine } from '../../shared/device/DeviceStateLine';
import { useDeviceState } from '../../shared/device/useDeviceState';
import { swrKeys } from '../../lib/swrKeys';
import type { Device } from '../../lib/types';
import { useDates } from '../../shared/useDates';
import { EnableNotificationsButton, TestNotificationButton } from './NotificationControls';

/**
 * Settings → Devices: every device of the user with a readable label, when it was added and
 * last showed a notification; this device marked and switchable off and on; any removable.
 */
export function DevicesSection() {
  const { t } = useTranslation('notifications');
  const dates = useDates();
  const { state, push } = useDeviceState();
  const devices = useSWR(swrKeys.subscriptions(), () => api.notifications.subscriptions());
  const [thisEndpoint, setThisEndpoint] = useState<string | null>(null);
  const [busy, setBusy] = useState<string | null>(null);
  // Turning a device off and removing one are the server's: offline they wait, and say so.
  const online = useOnline();
  const describedBy = online ? undefined : 'devices-offline';

  const refreshDevices = devices.mutate;
  useEffect(() => {
    // This device was switched on or off (here, in the header or the notice): read both again.
    void currentSubscription().then((s) => setThisEndpoint(s?.endpoint ?? null), () => setThisEndpoint(null));
    void refreshDevices();
  }, [push.subscribed, refreshDevices]);

  async function remove(d: Device) {
    setBusy(d.id);
    try {
      if (d.endpoint === thisEndpoint) await disableNotifications({ byPerson: true });
      else await api.notifications.removeDevice(d.id);
      toast.success(t('devices.removed'));
    } catch {
      toast.error(t('devices.removeFailed'));
    } finally {
      setBusy(null);
      pushStateChanged();
      await devices.mutate();
    }
  }

  const list = devices.data ?? [];
  const thisOne = list.find((d) => d.endpoint === thisEndpoint);
  return (
    <section className="card devices" aria-labelledby="devices-title">
      <h2 id="devices-title">{t('devices.title')}</h2>
      <DeviceStateLine state={state} summary={state !== 'checking' && state !== 'receiving'} />
      <div className="row">
        {thisOne ? (
          <button type="button" className="button small secondary" disabled={busy !== null || !online} aria-describedby={describedBy} onClick={() => void remove(thisOne)}>
            {t('devices.turnOff')}
          </button>
        ) : (
          <EnableNotificationsButton onEnabled={() => void devices.mutate()} knownFailure={push.lastFailure} />
        )}
        <TestNotificationButton />
      </div>
      {!online && list.length > 0 && (
        <p id="devices-offline" className="hint">
          {t('devices.offline')}
        </p>
      )}
      {devices.error && !devices.data ? (
        <p className="muted">{online ? t('devices.loadFailed') : t('devices.loadLater')}</p>
      ) : list.length === 0 && devices.data ? (
        <p className="muted">{t('devices.none')}</p>
      ) : (
        <ul className="device-list">
          {list.map((d) => (
            <li key={d.id} className="device-item">
              <div>
                <p className="device-label">
                  <strong>{d.label || d.platform || t('devices.unknown')}</strong>
                  {d.endpoint === thisEndpoint && <span className="badge">{t('devices.thisDevice')}</span>}
                  {d.status === 'failing' && <span className="badge warn">{t('devices.failing')}</span>}
                </p>
                <p className="muted small">
                  {t('devices.added', { when: dates.when(d.created_at) })}
                  {' · '}
                  {d.last_shown_at ? t('devices.lastShown', { when: dates.when(d.last_shown_at) }) : t('devices.neverShown')}
                </p>
              </div>
              <button
                type="button"
                className="button small secondary"
                disabled={busy !== null || !online}
                aria-describedby={describedBy}
                onClick={() => void remove(d)}
                aria-label={t('devices.removeNamed', { name: d.label || d.platform || t('devices.unknown') })}
              >
                {t('devices.remove')}
              </button>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
