/**
 * The guide's system diagnostics (product spec section 4): notification permission and push
 * subscription are separate checks, then the service worker and the server connection with
 * the spec's messages. Texts: info `guide.diagnostics.rows|values|advice.<key>`, or, for a value or
 * advice given as `device:…`, that key of the device's one vocabulary.
 */
import { deviceCheck } from '../../shared/device/deviceState';
import type { CheckStatus } from '../../shared/health/healthLogic';
import type { HealthFacts } from '../../shared/health/useHealth';

export type DiagnosticId = 'permission' | 'subscription' | 'serviceWorker' | 'connection';

export interface DiagnosticRow {
  id: DiagnosticId;
  status: CheckStatus;
  /** what was found */
  value: string;
  /** what to do, when something is wrong */
  advice?: string;
}

function permissionRow(f: HealthFacts): DiagnosticRow {
  const id = 'permission';
  if (!f.supported) return { id, status: 'error', value: 'unsupported', advice: 'unsupported' };
  switch (f.permission) {
    case undefined:
      return { id, status: 'checking', value: 'checking' };
    case 'granted':
      return { id, status: 'healthy', value: 'granted' };
    case 'denied':
      return { id, status: 'error', value: 'denied', advice: 'denied' };
    default:
      return { id, status: 'warning', value: 'default', advice: 'default' };
  }
}

/**
 * The push subscription, said as this device's state (namespace `device`, `state.<state>`): the
 * same words as the dashboard and the header. `value` and `advice` here are device keys.
 */
function subscriptionRow(f: HealthFacts): DiagnosticRow {
  const id = 'subscription';
  const state = f.device;
  return {
    id,
    status: deviceCheck(state),
    value: `device:state.${state}.label`,
    advice: state === 'receiving' || state === 'checking' ? undefined : `device:state.${state}.summary`,
  };
}

function serviceWorkerRow(f: HealthFacts): DiagnosticRow {
  const id = 'serviceWorker';
  switch (f.serviceWorker) {
    case 'checking':
      return { id, status: 'checking', value: 'checking' };
    case 'active':
      return { id, status: 'healthy', value: 'swActive' };
    case 'registered':
      return { id, status: 'warning', value: 'swWaiting', advice: 'swReload' };
    case 'not-registered':
      return { id, status: 'warning', value: 'swMissing', advice: 'swReload' };
    case 'unsupported':
      return { id, status: 'error', value: 'unsupported', advice: 'swUnsupported' };
  }
}

function connectionRow(f: HealthFacts): DiagnosticRow {
  const id = 'connection';
  switch (f.connection) {
    case 'checking':
      return { id, status: 'checking', value: 'checking' };
    case 'connected':
      return { id, status: 'healthy', value: 'connected' };
    case 'offline':
      return { id, status: 'error', value: 'offline', advice: 'offline' };
    default:
      // serverIssue, unableToCheck, checkFailed
      return { id, status: 'warning', value: f.connection, advice: f.connection };
  }
}

export function diagnosticRows(f: HealthFacts): DiagnosticRow[] {
  return [permissionRow(f), subscriptionRow(f), serviceWorkerRow(f), connectionRow(f)];
}
