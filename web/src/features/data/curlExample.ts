/**
 * The first thing to try with a new token, as a terminal command with the real token and this
 * page's origin: its reminders (or lists) when it can read, else making a reminder (titled in
 * the person's language) when it can only write.
 */
import type { Scope } from './dataApi';

export type CurlExample = { kind: 'readReminders' | 'readLists' | 'writeReminder' | 'writeList'; command: string };

/** `title` is the example reminder's or list's name, in the person's language; `sendAt` an ISO instant. */
export function curlExample(token: string, origin: string, scopes: readonly Scope[], title: string, sendAt: string): CurlExample {
  const auth = `-H "Authorization: Bearer ${token}"`;
  if (scopes.includes('reminders:read')) return { kind: 'readReminders', command: `curl ${auth} ${origin}/api/reminders` };
  if (scopes.includes('lists:read')) return { kind: 'readLists', command: `curl ${auth} ${origin}/api/lists` };
  const json = `-H "Content-Type: application/json"`;
  if (scopes.includes('reminders:write')) {
    const body = JSON.stringify({ title, send_at: sendAt });
    return { kind: 'writeReminder', command: `curl -X POST ${auth} ${json} -d '${body}' ${origin}/api/reminders` };
  }
  return { kind: 'writeList', command: `curl -X POST ${auth} ${json} -d '${JSON.stringify({ name: title })}' ${origin}/api/lists` };
}
