/**
 * The error reporter, loaded only when the operator set HIBIKI_ERROR_REPORTING_DSN (its own
 * chunk: nobody else downloads it). Sentry's browser SDK with the spec's sample rates; every
 * event passes `scrubEvent` on its way out, and replays mask all text and block media.
 */
import * as Sentry from '@sentry/browser';
import type { ErrorReporting } from '../types';
import { maskEmails, scrubEvent, type ReportEvent } from './scrub';

export function startReporter(config: ErrorReporting, userEmail: () => string | null, earlier: unknown[]): void {
  Sentry.init({
    dsn: config.dsn,
    // The client app version (spec §9).
    release: 'hibiki-web@2.0.0',
    // Collect no user info, cookies, headers or bodies to begin with; scrubEvent checks again.
    dataCollection: { userInfo: false, cookies: false, httpHeaders: false, httpBodies: [], urlQueryParams: false },
    tracesSampleRate: config.traces_sample_rate,
    // No trace headers on our own API calls: the server does not read them.
    tracePropagationTargets: [],
    replaysSessionSampleRate: config.replays_session_sample_rate,
    replaysOnErrorSampleRate: config.replays_on_error_sample_rate,
    integrations: [
      Sentry.browserTracingIntegration(),
      // No compression worker: the CSP allows workers from this origin only.
      Sentry.replayIntegration({ maskAllText: true, maskAllInputs: true, blockAllMedia: true, useCompression: false }),
    ],
    beforeSend(event) {
      const email = userEmail();
      if (email) event.user = { email: maskEmails(email) };
      return scrubEvent(event as unknown as ReportEvent) as unknown as typeof event | null;
    },
    beforeSendTransaction(event) {
      return scrubEvent(event as unknown as ReportEvent) as unknown as typeof event | null;
    },
    beforeBreadcrumb(crumb) {
      return scrubEvent(crumb as unknown as ReportEvent) as unknown as typeof crumb | null;
    },
  });
  for (const e of earlier) Sentry.captureException(e);
}
