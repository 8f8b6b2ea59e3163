import type { Dates } from '../../../shared/useDates';

/** A row's time, the day above the time (with the zone only when it is not the user's). */
export function When({ at, zone, dates }: { at?: string | null; zone?: string; dates: Dates }) {
  const parts = at ? dates.whenParts(at, zone) : null;
  if (!parts) return null;
  return (
    <>
      <span>{parts.day}</span>
      <span>{parts.time}</span>
    </>
  );
}
