import { describe, expect, it } from 'vitest';
import { subscriptionPlan } from './pushClient';

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
