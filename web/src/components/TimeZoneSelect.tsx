import { useMemo, type SelectHTMLAttributes } from 'react';
import { timeZones } from '../lib/zonedTime';

/**
 * The time zone picker, one for the reminder dialog and the settings: the browser's zones,
 * with the current value kept even when the browser does not list it.
 */
export function TimeZoneSelect({ value, onChange, ...rest }: { value: string; onChange: (zone: string) => void } & Omit<SelectHTMLAttributes<HTMLSelectElement>, 'value' | 'onChange'>) {
  const zones = useMemo(() => timeZones(), []);
  return (
    <select value={value} onChange={(e) => onChange(e.target.value)} {...rest}>
      {!zones.includes(value) && <option value={value}>{value}</option>}
      {zones.map((z) => (
        <option key={z} value={z}>
          {z}
        </option>
      ))}
    </select>
  );
}
