/**
 * Error reporting is off unless the server says a DSN is configured (`GET /api/site`). Until
 * that answer, uncaught errors wait in a short buffer; with reporting off they are dropped and
 * the reporter's chunk is never fetched.
 */
import { api } from '../api';
import { getAuthState } from '../authStore';

const BUFFER_LIMIT = 20;

export function startErrorReporting(): void {
  const earlier: unknown[] = [];
  const keep = (e: unknown) => {
    if (earlier.length < BUFFER_LIMIT) earlier.push(e);
  };
  const onError = (e: ErrorEvent) => keep(e.error ?? e.message);
  const onRejection = (e: PromiseRejectionEvent) => keep(e.reason);
  addEventListener('error', onError);
  addEventListener('unhandledrejection', onRejection);
  const stopBuffering = () => {
    removeEventListener('error', onError);
    removeEventListener('unhandledrejection', onRejection);
  };

  void api.health
    .site()
    .then(async (site) => {
      stopBuffering();
      if (!site.error_reporting) return;
      const { startReporter } = await import('./reporter');
      startReporter(site.error_reporting, () => getAuthState().user?.email ?? null, earlier);
    })
    // Unreachable server: no reporting this time (the app keeps working).
    .catch(stopBuffering);
}
