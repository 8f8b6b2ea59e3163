// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { deviceState } from '../../shared/device/deviceState';
import type { HealthFacts } from '../../shared/health/useHealth';
import deviceEn from '../../locales/en/device.json';
import deviceJa from '../../locales/ja/device.json';
import en from '../../locales/en/info.json';
import ja from '../../locales/ja/info.json';
import { diagnosticRows, type DiagnosticRow } from './diagnostics';

const ALL_GOOD: HealthFacts = { device: 'receiving', supported: true, permission: 'granted', subscribed: true, lost: false, serviceWorker: 'active', connection: 'connected' };
/** The facts, with the device state the one function decides from them (never remembered as enabled unless said). */
const withDevice = (f: Omit<HealthFacts, 'device'>, everEnabled = false): HealthFacts => ({ ...f, device: deviceState({ ...f, serverFailing: false, everEnabled }) });
const row = (facts: Partial<HealthFacts>, id: DiagnosticRow['id'], everEnabled = false) => {
  const { device: _, ...rest } = { ...ALL_GOOD, ...facts };
  return diagnosticRows(withDevice(rest, everEnabled)).find((r) => r.id === id)!;
};

describe('diagnostics rows', () => {
  it('permission and subscription are separate rows, then the worker and the connection', () => {
    expect(diagnosticRows(ALL_GOOD)).toEqual([
      { id: 'permission', status: 'healthy', value: 'granted' },
      { id: 'subscription', status: 'healthy', value: 'device:state.receiving.label' },
      { id: 'serviceWorker', status: 'healthy', value: 'swActive' },
      { id: 'connection', status: 'healthy', value: 'connected' },
    ]);
  });

  it('allowed but never subscribed: the permission row is fine and the subscription row says "not set up", never "stopped"', () => {
    expect(row({ subscribed: false }, 'permission').status).toBe('healthy');
    const notSetUp = { id: 'subscription', status: 'warning', value: 'device:state.neverSetUp.label', advice: 'device:state.neverSetUp.summary' };
    expect(row({ subscribed: false }, 'subscription')).toEqual(notSetUp);
    // the start-up subscribe failed on a device that never received: still not set up
    expect(row({ subscribed: false, lost: true }, 'subscription')).toEqual(notSetUp);
    // it received here before: now it stopped
    expect(row({ subscribed: false, lost: true }, 'subscription', true)).toMatchObject({ status: 'warning', value: 'device:state.stopped.label' });
  });

  it('the permission row tells not asked from blocked; the subscription waits for the permission', () => {
    expect(row({ permission: 'default', subscribed: false }, 'permission')).toMatchObject({ status: 'warning', value: 'default' });
    expect(row({ permission: 'denied', subscribed: false }, 'permission')).toMatchObject({ status: 'error', value: 'denied' });
    expect(row({ permission: 'denied', subscribed: false }, 'subscription')).toMatchObject({ status: 'error', value: 'device:state.blocked.label' });
    expect(row({ permission: 'default', subscribed: false }, 'subscription')).toMatchObject({ status: 'warning', value: 'device:state.neverSetUp.label' });
    expect(row({ supported: false, permission: undefined }, 'permission')).toMatchObject({ status: 'error', value: 'unsupported' });
    expect(row({ permission: undefined, subscribed: undefined }, 'subscription').status).toBe('checking');
  });

  it('the service worker row', () => {
    expect(row({ serviceWorker: 'registered' }, 'serviceWorker')).toMatchObject({ status: 'warning', value: 'swWaiting' });
    expect(row({ serviceWorker: 'not-registered' }, 'serviceWorker')).toMatchObject({ status: 'warning', value: 'swMissing' });
    expect(row({ serviceWorker: 'unsupported' }, 'serviceWorker')).toMatchObject({ status: 'error' });
  });

  it("the connection row gives the spec's four messages", () => {
    expect(row({ connection: 'offline' }, 'connection')).toMatchObject({ status: 'error', value: 'offline', advice: 'offline' });
    expect(row({ connection: 'serverIssue' }, 'connection')).toMatchObject({ status: 'warning', value: 'serverIssue' });
    expect(row({ connection: 'unableToCheck' }, 'connection')).toMatchObject({ status: 'warning', value: 'unableToCheck' });
    expect(row({ connection: 'checkFailed' }, 'connection')).toMatchObject({ status: 'warning', value: 'checkFailed' });
    expect(en.guide.diagnostics.values).toMatchObject({
      offline: 'Offline',
      serverIssue: 'Server connection issue',
      unableToCheck: 'Unable to check server connection',
      checkFailed: 'Check failed',
    });
    expect(ja.guide.diagnostics.values).toMatchObject({
      offline: 'オフライン',
      serverIssue: 'サーバー接続に問題があります',
      unableToCheck: 'サーバー接続を確認できません',
      checkFailed: '確認に失敗しました',
    });
  });

  it('every value and advice a row can give has its text', () => {
    const facts: HealthFacts[] = [];
    for (const permission of [undefined, 'default', 'granted', 'denied'] as const)
      for (const subscribed of [undefined, true, false])
        for (const serviceWorker of ['checking', 'unsupported', 'not-registered', 'registered', 'active'] as const)
          for (const connection of ['checking', 'connected', 'offline', 'serverIssue', 'unableToCheck', 'checkFailed'] as const)
            for (const supported of [true, false]) facts.push(withDevice({ supported, permission, subscribed, lost: subscribed === true, serviceWorker, connection }));
    for (const f of facts)
      for (const r of diagnosticRows(f))
        for (const [dict, device] of [
          [en, deviceEn],
          [ja, deviceJa],
        ] as const) {
          const d = dict.guide.diagnostics as { rows: Record<string, string>; values: Record<string, string>; advice: Record<string, string> };
          const text = (group: Record<string, string>, key: string) => {
            if (!key.startsWith('device:')) return group[key];
            const [, state, part] = key.slice('device:'.length).split('.');
            return (device.state as Record<string, Record<string, string>>)[state!]?.[part!];
          };
          expect(d.rows[r.id]).toBeTruthy();
          expect(text(d.values, r.value), r.value).toBeTruthy();
          if (r.advice) expect(text(d.advice, r.advice), r.advice).toBeTruthy();
        }
  });
});
