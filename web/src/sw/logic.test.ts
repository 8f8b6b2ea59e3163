import { describe, expect, it } from 'vitest';
import type { PushMessage } from '../lib/types';
import { ackRequest, actionRequest, buildNotification, clickTarget, isApiRequest, parsePushPayload, pickClient } from './logic';

const ORIGIN = 'https://hibiki.example';

describe('parsePushPayload', () => {
  it('reads a full reminder payload', () => {
    const p = parsePushPayload(
      JSON.stringify({ type: 'reminder', reminder_id: 'r1', log_id: 'l1', action_token: 'tok', title: '薬', body: '飲む', url: '/reminders', tag: 'r1', lang: 'ja', late: true }),
    );
    expect(p).toEqual({ type: 'reminder', reminder_id: 'r1', log_id: 'l1', action_token: 'tok', title: '薬', body: '飲む', url: '/reminders', tag: 'r1', lang: 'ja', late: true });
  });
  it('reads the declarative payload the server sends', () => {
    const declarative = {
      web_push: 8030,
      mutable: true,
      app_badge: 2,
      notification: {
        title: '会議（遅延）',
        body: '資料を持参',
        navigate: 'https://hibiki.example/reminders?reminder=r1',
        tag: 'r1',
        lang: 'ja',
        silent: false,
        require_interaction: true,
        data: { type: 'reminder', reminder_id: 'r1', log_id: 'l1', action_token: 'tok', kind: 'snooze', late: true },
        actions: [{ action: 'complete', title: '完了', navigate: 'https://hibiki.example/reminders?reminder=r1&log=l1&do=complete' }],
      },
    } satisfies PushMessage;
    const p = parsePushPayload(JSON.stringify(declarative));
    expect(p).toEqual({
      type: 'reminder',
      reminder_id: 'r1',
      log_id: 'l1',
      action_token: 'tok',
      title: '会議（遅延）',
      body: '資料を持参',
      url: 'https://hibiki.example/reminders?reminder=r1',
      tag: 'r1',
      lang: 'ja',
      late: true,
      late_in_title: true,
      kind: 'snooze',
      badge: 2,
    });
    // The title already says late: it is not said twice.
    expect(buildNotification(p).title).toBe('会議（遅延）');
    expect(buildNotification(p).options.actions).toHaveLength(2);
    const test = parsePushPayload({ web_push: 8030, notification: { title: 'Test notification', body: 'b', navigate: 'https://h/en/', tag: 'hibiki-test', lang: 'en', data: { type: 'test' } }, mutable: true });
    expect(test).toMatchObject({ type: 'test', title: 'Test notification', lang: 'en', url: 'https://h/en/' });
    expect(test.badge).toBeUndefined();
    expect(buildNotification(test).options.actions).toBeUndefined();
  });
  it('falls back safely on junk so a notification is still shown', () => {
    expect(parsePushPayload('not json', 'en')).toMatchObject({ type: 'reminder', title: 'Hibiki', body: 'not json', lang: 'en', url: '/en/reminders' });
    expect(parsePushPayload(null)).toMatchObject({ title: 'Hibiki', body: 'リマインダーの時間です', lang: 'ja' });
    expect(parsePushPayload({ type: 'test', title: 5, lang: 'fr' })).toMatchObject({ type: 'test', title: 'Hibiki', lang: 'ja' });
  });
});

describe('buildNotification', () => {
  it('adds Complete/Snooze actions, audible, sticky, tagged by reminder', () => {
    const n = buildNotification(parsePushPayload({ reminder_id: 'r1', log_id: 'l1', title: 'T', body: 'B', lang: 'en' }));
    expect(n.title).toBe('T');
    expect(n.options).toMatchObject({ body: 'B', tag: 'r1', silent: false, requireInteraction: true });
    expect(n.options.actions).toEqual([
      { action: 'complete', title: 'Complete' },
      { action: 'snooze', title: 'Snooze' },
    ]);
  });
  it('has no actions for tests, missing ids or platforms without actions', () => {
    expect(buildNotification(parsePushPayload({ type: 'test', title: 'x' })).options.actions).toBeUndefined();
    expect(buildNotification(parsePushPayload({ reminder_id: 'r' })).options.actions).toBeUndefined();
    expect(buildNotification(parsePushPayload({ reminder_id: 'r', log_id: 'l' }), false).options.actions).toBeUndefined();
  });
  it('marks late deliveries', () => {
    expect(buildNotification(parsePushPayload({ title: '会議', late: true, lang: 'ja' })).title).toBe('会議（遅延）');
  });
});

describe('actions and acks', () => {
  it('builds the handle call with the action token', () => {
    expect(actionRequest('snooze', { reminder_id: 'r', log_id: 'l', action_token: 't' })).toEqual({
      url: '/api/reminders?action=handle',
      body: { reminder_id: 'r', log_id: 'l', action: 'snooze', action_token: 't' },
    });
    expect(actionRequest('complete', { reminder_id: 'r' })).toBeNull();
    expect(actionRequest('', { reminder_id: 'r', log_id: 'l' })).toBeNull();
  });
  it('acks only with log id and token', () => {
    expect(ackRequest({ log_id: 'l', action_token: 't' }, 'https://push/1')).toEqual({
      url: '/api/notifications?action=ack',
      body: { log_id: 'l', action_token: 't', endpoint: 'https://push/1' },
    });
    expect(ackRequest({ log_id: 'l' })).toBeNull();
  });
});

describe('click handling', () => {
  it('stays on our origin', () => {
    expect(clickTarget({ url: '/en/reminders', reminder_id: 'r1' }, ORIGIN)).toBe(`${ORIGIN}/en/reminders?reminder=r1`);
    expect(clickTarget({ url: 'https://evil.example/x', lang: 'en' }, ORIGIN)).toBe(`${ORIGIN}/en/reminders`);
    expect(clickTarget(undefined, ORIGIN)).toBe(`${ORIGIN}/reminders`);
  });
  it('prefers a focused window of the app', () => {
    const a = { url: `${ORIGIN}/`, focused: false };
    const b = { url: `${ORIGIN}/reminders`, focused: true };
    const c = { url: 'https://other.example/', focused: true };
    expect(pickClient([a, b, c], ORIGIN)).toBe(b);
    expect(pickClient([a, c], ORIGIN)).toBe(a);
    expect(pickClient([c], ORIGIN)).toBeUndefined();
  });
  it('recognises API requests', () => {
    expect(isApiRequest(new URL(`${ORIGIN}/api/reminders`))).toBe(true);
    expect(isApiRequest(new URL(`${ORIGIN}/apis`))).toBe(false);
    expect(isApiRequest(new URL(`${ORIGIN}/reminders`))).toBe(false);
  });
});

describe('a done push (someone else completed a shared reminder)', () => {
  const done = {
    web_push: 8030,
    mutable: true,
    notification: {
      title: '燃えるゴミ',
      body: 'hanako@example.com さんが完了しました。',
      navigate: `${ORIGIN}/reminders?reminder=r1`,
      tag: 'r1',
      lang: 'ja',
      silent: true,
      require_interaction: false,
      data: { type: 'done', reminder_id: 'r1', by: 'hanako@example.com' },
    },
  } satisfies PushMessage;

  it('is read with its type and who completed it', () => {
    expect(parsePushPayload(JSON.stringify(done))).toEqual({
      type: 'done',
      reminder_id: 'r1',
      title: '燃えるゴミ',
      body: 'hanako@example.com さんが完了しました。',
      url: `${ORIGIN}/reminders?reminder=r1`,
      tag: 'r1',
      lang: 'ja',
      by: 'hanako@example.com',
    });
  });

  it('replaces the notification quietly: same tag, title and body as sent, silent, not sticky, no actions', () => {
    const n = buildNotification(parsePushPayload(JSON.stringify(done)));
    expect(n.title).toBe('燃えるゴミ');
    expect(n.options).toMatchObject({ body: 'hanako@example.com さんが完了しました。', tag: 'r1', silent: true, requireInteraction: false, renotify: false });
    expect(n.options.actions).toBeUndefined();
    // even when late or carrying ids, it stays as sent
    const odd = buildNotification(parsePushPayload({ type: 'done', reminder_id: 'r1', log_id: 'l1', title: 'T', body: 'B', late: true, lang: 'en' }));
    expect(odd.title).toBe('T');
    expect(odd.options.actions).toBeUndefined();
  });

  it('is not acknowledged, and a click opens its navigate URL', () => {
    const p = parsePushPayload(JSON.stringify(done));
    expect(ackRequest(p, 'https://push/1')).toBeNull();
    expect(ackRequest({ ...p, log_id: 'l1', action_token: 't' })).toBeNull();
    expect(actionRequest('', p)).toBeNull();
    expect(clickTarget(p, ORIGIN)).toBe(`${ORIGIN}/reminders?reminder=r1`);
  });

  it('leaves reminder and test pushes as they were', () => {
    const r = buildNotification(parsePushPayload({ type: 'reminder', reminder_id: 'r1', log_id: 'l1', title: 'T', body: 'B', lang: 'en' }));
    expect(r.options).toMatchObject({ silent: false, requireInteraction: true, renotify: true });
    expect(buildNotification(parsePushPayload({ type: 'test', title: 'x' })).options).toMatchObject({ silent: false, requireInteraction: false });
    expect(parsePushPayload({ type: 'other' }).type).toBe('reminder');
  });
});
