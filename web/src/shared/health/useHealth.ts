import { useCallback, useEffect, useState } from 'react';
import { api } from '../../lib/api';
import { usePushState } from '../../lib/push/usePushState';
import { useOnline } from '../../lib/useOnline';
import { deviceCheck, deviceState, type DeviceState } from '../device/deviceState';
import {
  HEALTH_PROBE_INTERVAL_MS,
  HEALTH_PROBE_TIMEOUT_MS,
  connectionHealth,
  connectionState,
  probeFailure,
  overallHealth,
  serviceWorkerHealth,
  type HealthChecks,
  type CheckStatus,
  type ConnectionState,
  type ProbeResult,
  type ServiceWorkerState,
} from './healthLogic';

export async function readServiceWorkerState(): Promise<ServiceWorkerState> {
  // Not `'serviceWorker' in navigator`: some private windows have the property, undefined.
  const sw = (navigator as { serviceWorker?: ServiceWorkerContainer }).serviceWorker;
  if (!sw) return 'unsupported';
  try {
    const reg = await sw.getRegistration();
    if (!reg) return 'not-registered';
    return reg.active ? 'active' : 'registered';
  } catch {
    return 'not-registered';
  }
}

/** What the checks are made of, for the guide's diagnostics (one row per fact). */
export interface HealthFacts {
  /** this device's state, in the one vocabulary (shared/device/deviceState) */
  device: DeviceState | 'checking';
  supported: boolean;
  permission: NotificationPermission | undefined;
  subscribed: boolean | undefined;
  lost: boolean;
  serviceWorker: ServiceWorkerState;
  connection: ConnectionState;
}

export interface Health {
  /** this device's state, in the one vocabulary: the notifications check and its words */
  device: DeviceState | 'checking';
  checks: HealthChecks;
  facts: HealthFacts;
  /** a more specific advice text key than `advice.<check>.<status>` */
  advice: Partial<Record<keyof HealthChecks, string>>;
  overall: CheckStatus;
  refresh: () => void;
}

/** The three checks of the health indicator, re-probed every 30 s and when the tab shows. */
export function useHealth(): Health {
  const push = usePushState();
  const refreshPush = push.refresh;
  const online = useOnline();
  const [sw, setSw] = useState<ServiceWorkerState>('checking');
  const [probe, setProbe] = useState<ProbeResult>('pending');

  const refresh = useCallback(() => {
    void readServiceWorkerState().then(setSw);
    refreshPush();
    if (!navigator.onLine) return;
    api.health.probe(HEALTH_PROBE_TIMEOUT_MS).then(
      () => setProbe('ok'),
      (e: unknown) => setProbe(probeFailure(e)),
    );
  }, [refreshPush]);

  useEffect(() => {
    refresh();
    const h = setInterval(refresh, HEALTH_PROBE_INTERVAL_MS);
    const onVisible = () => document.visibilityState === 'visible' && refresh();
    document.addEventListener('visibilitychange', onVisible);
    window.addEventListener('online', refresh);
    navigator.serviceWorker?.addEventListener?.('controllerchange', refresh);
    return () => {
      clearInterval(h);
      document.removeEventListener('visibilitychange', onVisible);
      window.removeEventListener('online', refresh);
      navigator.serviceWorker?.removeEventListener?.('controllerchange', refresh);
    };
  }, [refresh]);

  const device = deviceState(push);
  const checks: HealthChecks = {
    notifications: deviceCheck(device),
    serviceWorker: serviceWorkerHealth(sw),
    connection: connectionHealth(online, probe),
  };
  const connection = connectionState(online, probe);
  const advice: Health['advice'] = {};
  // The spec's connection messages: offline, server connection issue, unable to check, check failed.
  if (connection !== 'checking' && connection !== 'connected') advice.connection = `advice.connection.${connection}`;
  const facts: HealthFacts = {
    device,
    supported: push.supported,
    permission: push.permission,
    subscribed: push.subscribed,
    lost: push.lost,
    serviceWorker: sw,
    connection,
  };
  return { device, checks, facts, advice, overall: overallHealth(checks), refresh };
}
