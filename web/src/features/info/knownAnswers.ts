/**
 * What the troubleshooting wizard need not ask: the answers this device gives by itself (its
 * platform, whether it runs as the installed app, the permission, the device's state, the
 * service worker). A question whose fact is still being read is asked.
 */
import type { HealthFacts } from '../../shared/health/useHealth';
import type { KnownAnswers } from './troubleshootFlow';

export function knownAnswers(f: Pick<HealthFacts, 'device' | 'permission' | 'supported' | 'serviceWorker'>, ios: boolean, standalone: boolean): KnownAnswers {
  const known: KnownAnswers = { iosDevice: ios ? 'yes' : 'no' };
  if (ios) known.homeScreen = standalone ? 'yes' : 'no';
  if (!f.supported) known.permission = 'unsupported';
  else if (f.permission === 'granted') known.permission = 'allowed';
  else if (f.permission === 'denied') known.permission = 'blocked';
  else if (f.permission === 'default') known.permission = 'notAsked';
  if (f.device === 'receiving') known.subscribed = 'yes';
  else if (f.device === 'neverSetUp') known.subscribed = 'no';
  else if (f.device === 'stopped') known.subscribed = 'stopped';
  if (f.serviceWorker === 'active') known.serviceWorker = 'yes';
  else if (f.serviceWorker === 'registered' || f.serviceWorker === 'not-registered' || f.serviceWorker === 'unsupported') known.serviceWorker = 'no';
  return known;
}
