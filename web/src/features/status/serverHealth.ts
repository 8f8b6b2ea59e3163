/**
 * The server's own health (GET /api/health `checks`) as rows for the status page: the
 * database (ok / down) and email (sent through SMTP, or only kept in the server's outbox).
 * A 503 still carries the checks (the database is down); no answer at all reads "unable to check".
 */
import { isApiError } from '../../lib/api';
import type { HealthDetails } from '../../lib/types';
import type { CheckStatus } from '../../shared/health/healthLogic';

export type ServerPart = 'database' | 'mail';

export interface ServerHealthRow {
  id: ServerPart;
  status: CheckStatus;
  /** text key under status `health.values` */
  value: 'ok' | 'down' | 'smtp' | 'outbox' | 'unknown';
}

const PARTS: Record<ServerPart, Record<string, Omit<ServerHealthRow, 'id'>>> = {
  database: { ok: { status: 'healthy', value: 'ok' }, down: { status: 'error', value: 'down' } },
  mail: { smtp: { status: 'healthy', value: 'smtp' }, outbox: { status: 'warning', value: 'outbox' } },
};

/** GET /api/health as any server version may answer it: a check may be missing or unknown. */
type HealthAnswer = Omit<Partial<HealthDetails>, 'checks'> & { checks?: Partial<Record<keyof HealthDetails['checks'], unknown>> };

export function serverHealthRows(details: HealthAnswer | undefined): ServerHealthRow[] {
  return (Object.keys(PARTS) as ServerPart[]).map((id) => {
    const raw = details?.checks?.[id];
    const known = typeof raw === 'string' ? PARTS[id][raw] : undefined;
    return { id, ...(known ?? { status: 'warning', value: 'unknown' }) };
  });
}

/** GET /api/health, reading the checks of a 503 answer too. */
export async function fetchHealthDetails(get: () => Promise<HealthDetails>): Promise<HealthDetails> {
  try {
    return await get();
  } catch (e) {
    const body = isApiError(e) && e.status === 503 ? (e.data as { data?: HealthDetails } | undefined) : undefined;
    if (body?.data?.checks) return body.data;
    throw e;
  }
}
