import { isApiError } from '../../lib/api';

/**
 * Health indicator (product spec section 4). Each check is checking | healthy | warning | error;
 * the overall status is the worst of the three in the order checking, error, warning, healthy.
 */
export type CheckStatus = 'checking' | 'healthy' | 'warning' | 'error';

export interface HealthChecks {
  notifications: CheckStatus;
  serviceWorker: CheckStatus;
  connection: CheckStatus;
}

/** Lower rank = "worse" (wins the reduction). */
const SEVERITY: Record<CheckStatus, number> = { checking: 0, error: 1, warning: 2, healthy: 3 };

export function overallHealth(checks: HealthChecks): CheckStatus {
  const all: CheckStatus[] = [checks.notifications, checks.serviceWorker, checks.connection];
  return all.reduce((worst, s) => (SEVERITY[s] < SEVERITY[worst] ? s : worst), 'healthy');
}

// The notifications check is this device's state (shared/device/deviceState: deviceCheck): healthy
// when receiving, error when blocked or unsupported, otherwise warning.

export type ServiceWorkerState = 'checking' | 'unsupported' | 'not-registered' | 'registered' | 'active';

/** healthy when active; warning if registered but not active; error if unsupported. */
export function serviceWorkerHealth(state: ServiceWorkerState): CheckStatus {
  switch (state) {
    case 'checking':
      return 'checking';
    case 'active':
      return 'healthy';
    case 'unsupported':
      return 'error';
    case 'registered':
    case 'not-registered':
      return 'warning';
  }
}

/**
 * The last HEAD /api/health: answered (`ok`), answered with an error or not reached although
 * the device is online (`server`), no answer within the timeout (`timeout`), or the check
 * itself broke (`failed`).
 */
export type ProbeResult = 'pending' | 'ok' | 'server' | 'timeout' | 'failed';

/** error when offline; healthy when the health probe succeeds; otherwise warning. */
export function connectionHealth(online: boolean, probe: ProbeResult): CheckStatus {
  if (!online) return 'error';
  if (probe === 'ok') return 'healthy';
  if (probe === 'pending') return 'checking';
  return 'warning';
}

/** The spec's diagnostics messages (product spec section 8), one per connection state. */
export type ConnectionState = 'checking' | 'connected' | 'offline' | 'serverIssue' | 'unableToCheck' | 'checkFailed';

export function connectionState(online: boolean, probe: ProbeResult): ConnectionState {
  if (!online) return 'offline';
  switch (probe) {
    case 'pending':
      return 'checking';
    case 'ok':
      return 'connected';
    case 'server':
      return 'serverIssue';
    case 'timeout':
      return 'unableToCheck';
    case 'failed':
      return 'checkFailed';
  }
}

/** How a failed probe ended: an HTTP error or an unreachable server, a timeout, or something else. */
export function probeFailure(e: unknown): Exclude<ProbeResult, 'pending' | 'ok'> {
  if (isApiError(e, 'TIMEOUT')) return 'timeout';
  return isApiError(e) ? 'server' : 'failed';
}

/** Health probe constants (spec section 7/9): HEAD /api/health, 5 s timeout, every 30 s. */
export const HEALTH_PROBE_TIMEOUT_MS = 5_000;
export const HEALTH_PROBE_INTERVAL_MS = 30_000;
