import { useState } from 'react';
import { useNow } from '../../../lib/useNow';
import { pickedTime, thisEvening, tomorrowMorning, type SnoozeClock } from './snoozeUntil';

/** A snooze menu choice: minutes ('10'), or until this evening, tomorrow morning or a picked time. */
export type SnoozeChoice = `${number}` | 'evening' | 'morning' | 'pick';

/** The snooze request's `snooze_minutes` or `snooze_until`. */
export type SnoozeBody = { snooze_minutes: number } | { snooze_until: string };

/**
 * The details' snooze menu: the choice (the default minutes at first), the picked time and why
 * it will not do, and the clock that decides whether "this evening" is still on offer.
 */
export function useSnoozeChoice(snoozeMinutes: number, clock: SnoozeClock) {
  const [chosen, setChosen] = useState<SnoozeChoice>(`${snoozeMinutes}`);
  const [picked, setPicked] = useState('');
  const [pickError, setPickError] = useState<string | null>(null);
  const now = useNow(30_000);
  const evening = thisEvening(now, clock.timezone, clock.eveningTime);
  // "This evening" leaves the menu once the evening has come: fall back to the default minutes.
  const choice: SnoozeChoice = chosen === 'evening' && !evening ? `${snoozeMinutes}` : chosen;

  /** The request's body, or null after showing why the picked time will not do. */
  function body(): SnoozeBody | null {
    const at = Date.now();
    if (choice === 'evening') return { snooze_until: thisEvening(at, clock.timezone, clock.eveningTime) ?? '' };
    if (choice === 'morning') return { snooze_until: tomorrowMorning(at, clock.timezone, clock.morningTime) };
    if (choice === 'pick') {
      const p = pickedTime(picked, at, clock.timezone);
      setPickError('error' in p ? p.error : null);
      return 'error' in p ? null : { snooze_until: p.until };
    }
    return { snooze_minutes: Number(choice) };
  }

  return {
    choice,
    choose: (c: SnoozeChoice) => {
      setChosen(c);
      setPickError(null);
    },
    picked,
    pick: (value: string) => {
      setPicked(value);
      setPickError(null);
    },
    pickError,
    now,
    evening,
    body,
  };
}

export type SnoozeState = ReturnType<typeof useSnoozeChoice>;
