import { afterEach, describe, expect, it, vi } from 'vitest';
import { isShownTest, waitForShownTest } from './shownSignal';

afterEach(() => vi.useRealTimers());

describe('waiting for the test notification to be shown', () => {
  it('knows the shown test from other messages', () => {
    expect(isShownTest({ type: 'PUSH_RECEIVED', payload: { type: 'test' } })).toBe(true);
    expect(isShownTest({ type: 'PUSH_RECEIVED', payload: { type: 'reminder' } })).toBe(false);
    expect(isShownTest({ type: 'NAVIGATE_FROM_NOTIFICATION' })).toBe(false);
    expect(isShownTest(null)).toBe(false);
  });
  it('resolves true when the service worker says it was shown', async () => {
    const target = new EventTarget();
    const waiting = waitForShownTest(10_000, target);
    target.dispatchEvent(new MessageEvent('message', { data: { type: 'PUSH_RECEIVED', payload: { type: 'reminder' } } }));
    target.dispatchEvent(new MessageEvent('message', { data: { type: 'PUSH_RECEIVED', payload: { type: 'test' } } }));
    await expect(waiting).resolves.toBe(true);
  });
  it('resolves false when nothing is shown within the time', async () => {
    vi.useFakeTimers();
    const target = new EventTarget();
    const waiting = waitForShownTest(10_000, target);
    vi.advanceTimersByTime(9_999);
    target.dispatchEvent(new MessageEvent('message', { data: { type: 'PUSH_RECEIVED', payload: { type: 'reminder' } } }));
    vi.advanceTimersByTime(1);
    await expect(waiting).resolves.toBe(false);
  });
});
