import { describe, expect, it } from 'vitest';
import { ApiError } from '../../lib/api';
import {
  connectionHealth,
  connectionState,
  probeFailure,
  overallHealth,
  serviceWorkerHealth,
  type CheckStatus,
} from './healthLogic';

describe('overallHealth', () => {
  const all: CheckStatus[] = ['checking', 'healthy', 'warning', 'error'];
  it('is healthy only when all three are healthy', () => {
    expect(overallHealth({ notifications: 'healthy', serviceWorker: 'healthy', connection: 'healthy' })).toBe('healthy');
  });
  it('orders checking > error > warning > healthy', () => {
    expect(overallHealth({ notifications: 'error', serviceWorker: 'checking', connection: 'warning' })).toBe('checking');
    expect(overallHealth({ notifications: 'warning', serviceWorker: 'error', connection: 'healthy' })).toBe('error');
    expect(overallHealth({ notifications: 'healthy', serviceWorker: 'healthy', connection: 'warning' })).toBe('warning');
  });
  it('is symmetric in its inputs (exhaustive)', () => {
    const rank = (s: CheckStatus) => ['checking', 'error', 'warning', 'healthy'].indexOf(s);
    for (const a of all)
      for (const b of all)
        for (const c of all) {
          const expected = [a, b, c].sort((x, y) => rank(x) - rank(y))[0];
          expect(overallHealth({ notifications: a, serviceWorker: b, connection: c })).toBe(expected);
        }
  });
});

describe('serviceWorkerHealth', () => {
  it('maps states', () => {
    expect(serviceWorkerHealth('active')).toBe('healthy');
    expect(serviceWorkerHealth('registered')).toBe('warning');
    expect(serviceWorkerHealth('not-registered')).toBe('warning');
    expect(serviceWorkerHealth('unsupported')).toBe('error');
    expect(serviceWorkerHealth('checking')).toBe('checking');
  });
});

describe('connectionHealth', () => {
  it('maps online state and probe', () => {
    expect(connectionHealth(false, 'ok')).toBe('error');
    expect(connectionHealth(false, 'pending')).toBe('error');
    expect(connectionHealth(true, 'ok')).toBe('healthy');
    expect(connectionHealth(true, 'failed')).toBe('warning');
    expect(connectionHealth(true, 'server')).toBe('warning');
    expect(connectionHealth(true, 'timeout')).toBe('warning');
    expect(connectionHealth(true, 'pending')).toBe('checking');
  });
});

describe('connectionState: the diagnostics messages (spec section 8)', () => {
  it('offline wins; then what the probe found', () => {
    expect(connectionState(false, 'ok')).toBe('offline');
    expect(connectionState(true, 'pending')).toBe('checking');
    expect(connectionState(true, 'ok')).toBe('connected');
    expect(connectionState(true, 'server')).toBe('serverIssue');
    expect(connectionState(true, 'timeout')).toBe('unableToCheck');
    expect(connectionState(true, 'failed')).toBe('checkFailed');
  });

  it('a failed probe: an HTTP error or an unreachable server, a timeout, or the check itself broke', () => {
    expect(probeFailure(new ApiError('HTTP 503', { status: 503, code: 'SERVICE_UNAVAILABLE' }))).toBe('server');
    expect(probeFailure(new ApiError('Network error', { status: 0, code: 'ERR_NETWORK' }))).toBe('server');
    expect(probeFailure(new ApiError('Request timeout', { status: 0, code: 'TIMEOUT' }))).toBe('timeout');
    expect(probeFailure(new TypeError('fetch is not a function'))).toBe('failed');
  });
});
