/**
 * "A test says what happened" (decisions.md): the service worker posts PUSH_RECEIVED to every
 * window once it has shown a notification; a test waits for that, 10 s at most.
 */
import { PUSH_RECEIVED } from './inAppAlert';

export const TEST_SHOWN_WITHIN_MS = 10_000;

/** Is this service-worker message the shown test notification? */
export function isShownTest(message: unknown): boolean {
  const m = message as { type?: unknown; payload?: { type?: unknown } } | null;
  return m?.type === PUSH_RECEIVED && m.payload?.type === 'test';
}

/** Resolves true when the test notification was shown on this device, false after `ms`. */
export function waitForShownTest(ms = TEST_SHOWN_WITHIN_MS, target: Pick<EventTarget, 'addEventListener' | 'removeEventListener'> | undefined = navigator.serviceWorker): Promise<boolean> {
  if (!target) return Promise.resolve(false);
  return new Promise((resolve) => {
    const done = (shown: boolean) => {
      clearTimeout(timer);
      target.removeEventListener('message', onMessage);
      resolve(shown);
    };
    const onMessage = (e: Event) => {
      if (isShownTest((e as MessageEvent).data)) done(true);
    };
    const timer = setTimeout(() => done(false), ms);
    target.addEventListener('message', onMessage);
  });
}
