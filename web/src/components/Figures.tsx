/** A grid of labelled figures ("cards"): the numbers of the status and admin pages. */
import type { ReactNode } from 'react';
import './charts.css';

export interface Figure {
  /** stable key */
  id: string;
  label: string;
  value: ReactNode;
  /** a second, smaller line under the value */
  detail?: ReactNode;
  /** colours the value: a failure count above 0, an unknown queue depth */
  tone?: 'danger' | 'muted';
}

export function Figures({ items, label }: { items: readonly Figure[]; label?: string }) {
  return (
    <dl className="figures" aria-label={label}>
      {items.map((f) => (
        <div key={f.id} className="figure" data-figure={f.id}>
          <dt>{f.label}</dt>
          <dd className={f.tone ? `figure-value ${f.tone}` : 'figure-value'}>{f.value}</dd>
          {f.detail !== undefined && <dd className="figure-detail">{f.detail}</dd>}
        </div>
      ))}
    </dl>
  );
}
