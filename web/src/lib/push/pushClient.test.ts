import { afterEach, describe, expect, it, vi } from 'vitest';
import { json, mockFetch, ok } from '../../test/renderApp';
import { subscriptionPlan, syncSubscription } from './pushClient';

describe('subscriptionPlan (start-up subscription health)', () => {
  it('is ok when the device has a subscription with the current key that the server knows', () => {
    expect(subscriptionPlan({ endpoint: 'https://push/1', keyMatches: true, serverEndpoints: ['https://push/1'] })).toBe('ok');
    // the server cannot list devices (older server): trust the local subscription
    expect(subscriptionPlan({ endpoint: 'https://push/1', keyMatches: true, serverEndpoints: null })).toBe('ok');
  });
  it('re-subscribes when there is no subscription, the VAPID key changed, or the server lost it', () => {
    expect(subscriptionPlan({ endpoint: null, keyMatches: false, serverEndpoints: [] })).toBe('resubscribe');
    expect(subscriptionPlan({ endpoint: 'https://push/1', keyMatches: false, serverEndpoints: ['https://push/1'] })).toBe('resubscribe');
    expect(subscriptionPlan({ endpoint: 'https://push/1', keyMatches: true, serverEndpoints: ['https://push/2'] })).toBe('resubscribe');
  });
});

describe('syncSubscription (app start): repairs a lost subscription, never one the person turned off', () => {
  const VAPID = 'B' + 'A'.repeat(86);
  afterEach(() => {
    vi.unstubAllGlobals();
    delete (navigator as { serviceWorker?: unknown }).serviceWorker;
    localStorage.clear();
  });

  /** Permission granted, no subscription in this browser, the server knowing none. */
  function noSubscriptionHere() {
    const subscription = {
      endpoint: 'https://push.example/1',
      options: { applicationServerKey: null },
      toJSON: () => ({ endpoint: 'https://push.example/1', keys: { p256dh: 'p', auth: 'a' } }),
      getKey: () => null,
      unsubscribe: async () => true,
    };
    const pushManager = { getSubscription: async () => null, subscribe: vi.fn(async () => subscription) };
    const registration = { active: {}, pushManager };
    vi.stubGlobal('Notification', { permission: 'granted', requestPermission: vi.fn() });
    vi.stubGlobal('PushManager', function PushManager() {});
    Object.defineProperty(navigator, 'serviceWorker', {
      configurable: true,
      value: Object.assign(new EventTarget(), { ready: Promise.resolve(registration), getRegistration: async () => registration }),
    });
    mockFetch({
      'GET /api/notifications/vapid-public-key': () => ok({ public_key: VAPID }),
      'GET /api/notifications/subscriptions': () => ok([]),
      'POST /api/notifications': () => json(201, { success: true, data: { id: 'd1' } }),
    });
    return pushManager;
  }

  it('turned off here by the person: it stays off, and nothing is subscribed behind them', async () => {
    const pushManager = noSubscriptionHere();
    localStorage.setItem('hibiki.pushTurnedOff', '1');
    expect(await syncSubscription()).toBe(false);
    expect(pushManager.subscribe).not.toHaveBeenCalled();
  });

  it('lost since (or permission granted and never subscribed): it is subscribed', async () => {
    const pushManager = noSubscriptionHere();
    expect(await syncSubscription()).toBe(true);
    expect(pushManager.subscribe).toHaveBeenCalledTimes(1);
  });
});
