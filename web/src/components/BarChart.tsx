/**
 * A small stacked bar chart as inline SVG (no chart library): one bar per time bucket, series
 * stacked bottom up. The SVG stretches to its container's width (preserveAspectRatio="none",
 * strokes non-scaling); every text is HTML around it, so nothing gets distorted at 320 px.
 *
 * Accessibility: the SVG is `role="img"` with `summary` as its accessible name, and the data is
 * also a real table inside a <details> ("show as table"). Colours come from CSS variables
 * (charts.css), so dark mode follows the app's palette.
 */
import { useId } from 'react';
import { layoutBars, type BucketRow } from './chartData';
import './charts.css';

export interface ChartSeries<K extends string> {
  key: K;
  label: string;
  /** CSS class of its bars and legend swatch (chart-sent, chart-failed, chart-lateness) */
  className: string;
}

export interface BarChartProps<K extends string> {
  /** visible heading of the chart */
  title: string;
  /** what the chart shows, in a sentence: the SVG's accessible name */
  summary: string;
  rows: readonly BucketRow<K>[];
  series: readonly ChartSeries<K>[];
  /** length of one bucket (labels the end of the last one and the table's ranges) */
  bucketMs: number;
  formatValue: (n: number) => string;
  formatTime: (ms: number) => string;
  /** "Show as table" */
  tableToggle: string;
  /** heading of the table's time column */
  timeHeading: string;
  /** shown over the plot when no bucket has a value > 0 */
  emptyText: string;
}

const NO_VALUE = '—';

export function BarChart<K extends string>(props: BarChartProps<K>) {
  const { title, summary, rows, series, bucketMs, formatValue, formatTime } = props;
  const titleId = useId();
  const keys = series.map((s) => s.key);
  const layout = layoutBars(rows, keys);
  const classOf = Object.fromEntries(series.map((s) => [s.key, s.className])) as Record<K, string>;
  const labelOf = Object.fromEntries(series.map((s) => [s.key, s.label])) as Record<K, string>;
  const n = rows.length;
  const first = rows[0];
  const last = rows[n - 1];
  const middle = n >= 4 && n % 2 === 0 ? rows[n / 2] : undefined;
  const range = (start: number) => `${formatTime(start)}–${formatTime(start + bucketMs)}`;
  const cell = (v: number | null) => (v === null ? NO_VALUE : formatValue(v));

  return (
    <figure className="chart" aria-labelledby={titleId}>
      <figcaption className="chart-head">
        <span className="chart-title" id={titleId}>
          {title}
        </span>
        <span className="chart-legend" aria-hidden="true">
          {series.map((s) => (
            <span key={s.key}>
              <span className={`chart-swatch ${s.className}`} />
              {s.label}
            </span>
          ))}
        </span>
      </figcaption>
      <div className="chart-plot">
        <span className="chart-ymax" aria-hidden="true">
          {layout.empty ? '' : formatValue(layout.max)}
        </span>
        <svg
          className="chart-svg"
          role="img"
          aria-label={summary}
          viewBox={`0 0 ${Math.max(layout.width, 1)} ${layout.height}`}
          preserveAspectRatio="none"
          focusable="false"
        >
          <line className="chart-grid" x1={0} x2={layout.width} y1={0.5} y2={0.5} vectorEffect="non-scaling-stroke" />
          <line className="chart-grid" x1={0} x2={layout.width} y1={layout.height / 2} y2={layout.height / 2} vectorEffect="non-scaling-stroke" />
          {layout.bars.map((bar, i) => (
            <g key={i} className="chart-bucket">
              <title>
                {`${range(bar.start)}: ${series.map((s) => `${s.label} ${cell(rows[i]!.values[s.key])}`).join(', ')}`}
              </title>
              {/* an invisible full-height target, so the tooltip also shows over short bars */}
              <rect className="chart-hit" x={i * (layout.width / n)} y={0} width={layout.width / n} height={layout.height} />
              {bar.segments.map((seg) => (
                <rect key={seg.key} className={`chart-bar ${classOf[seg.key]}`} x={bar.x} y={seg.y} width={bar.width} height={seg.height} />
              ))}
            </g>
          ))}
          <line className="chart-axis" x1={0} x2={layout.width} y1={layout.height - 0.5} y2={layout.height - 0.5} vectorEffect="non-scaling-stroke" />
        </svg>
        {layout.empty && <p className="chart-empty">{props.emptyText}</p>}
      </div>
      {first && last && (
        <div className="chart-x" aria-hidden="true">
          <span>{formatTime(first.start)}</span>
          {middle && <span>{formatTime(middle.start)}</span>}
          <span>{formatTime(last.start + bucketMs)}</span>
        </div>
      )}
      <details className="chart-table">
        <summary>{props.tableToggle}</summary>
        <div className="table-wrap">
          <table>
            <caption className="sr-only">{title}</caption>
            <thead>
              <tr>
                <th scope="col">{props.timeHeading}</th>
                {series.map((s) => (
                  <th scope="col" key={s.key} className="num">
                    {labelOf[s.key]}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {rows.map((r, i) => (
                <tr key={i}>
                  <th scope="row">{range(r.start)}</th>
                  {series.map((s) => (
                    <td key={s.key} className="num">
                      {cell(r.values[s.key])}
                    </td>
                  ))}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </details>
    </figure>
  );
}
