import { fireEvent, render, screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { statusAllZero, timeline1h, timeline24h } from '../test/metricsFixtures';
import { BarChart, type BarChartProps } from './BarChart';
import { readBuckets } from './chartData';
import { Figures } from './Figures';

const KEYS = ['sent', 'failed', 'lateness_p99_ms'] as const;
type K = (typeof KEYS)[number];
// UTC, so the labels do not depend on the machine's time zone
const hm = new Intl.DateTimeFormat('en-US', { hour: '2-digit', minute: '2-digit', hourCycle: 'h23', timeZone: 'UTC' });

function props(over: Partial<BarChartProps<K>> = {}): BarChartProps<K> {
  return {
    title: 'Sent and failed per 5 minutes',
    summary: '49 sent and 4 failed in the last hour',
    rows: readBuckets(timeline1h, KEYS)!,
    series: [
      { key: 'sent', label: 'Sent', className: 'chart-sent' },
      { key: 'failed', label: 'Failed', className: 'chart-failed' },
    ],
    bucketMs: 5 * 60_000,
    formatValue: (n) => String(n),
    formatTime: (t) => hm.format(t),
    tableToggle: 'Show as table',
    timeHeading: 'Time',
    emptyText: 'No deliveries in the last hour',
    ...over,
  };
}

describe('BarChart', () => {
  it('is one image named by its summary, with bars for every value above 0', () => {
    const { container } = render(<BarChart {...props()} />);
    const img = screen.getByRole('img', { name: '49 sent and 4 failed in the last hour' });
    expect(img.tagName.toLowerCase()).toBe('svg');
    expect(img).toHaveAttribute('viewBox', '0 0 120 100');
    // 9 buckets with sends, 3 of them with failures
    expect(container.querySelectorAll('rect.chart-sent')).toHaveLength(9);
    expect(container.querySelectorAll('rect.chart-failed')).toHaveLength(3);
    expect(container.querySelector('.chart-ymax')).toHaveTextContent('15');
    expect(screen.getByRole('figure', { name: 'Sent and failed per 5 minutes' })).toContainElement(img);
    expect(container.querySelector('.chart-x')).toHaveTextContent(/12:00.*12:30.*13:00/);
    expect(screen.queryByText('No deliveries in the last hour')).not.toBeInTheDocument();
    // a tooltip per bucket
    expect(container.querySelectorAll('svg title')[4]).toHaveTextContent('12:20–12:25: Sent 7, Failed 2');
  });

  it('has the data as a table behind "Show as table"', () => {
    render(<BarChart {...props()} />);
    fireEvent.click(screen.getByText('Show as table'));
    const table = screen.getByRole('table', { name: 'Sent and failed per 5 minutes' });
    expect(within(table).getAllByRole('columnheader').map((c) => c.textContent)).toEqual(['Time', 'Sent', 'Failed']);
    const rows = within(table).getAllByRole('row').slice(1);
    expect(rows).toHaveLength(12);
    expect(rows[0]!.textContent).toBe('12:00–12:05' + '3' + '0');
    expect(rows[11]!.textContent).toBe('12:55–13:00' + '6' + '0');
  });

  it('a single series (lateness): its legend, and "—" for buckets without data', () => {
    const { container } = render(
      <BarChart
        {...props({
          title: 'Lateness p99',
          summary: 'highest 2.5 s',
          series: [{ key: 'lateness_p99_ms', label: 'Lateness p99', className: 'chart-lateness' }],
          formatValue: (n) => `${n} ms`,
        })}
      />,
    );
    expect(container.querySelector('.chart-legend')).toHaveTextContent('Lateness p99');
    expect(container.querySelector('.chart-legend')).toHaveAttribute('aria-hidden', 'true');
    expect(container.querySelectorAll('rect.chart-lateness')).toHaveLength(9);
    expect(container.querySelector('.chart-ymax')).toHaveTextContent('3000 ms');
    const table = screen.getByRole('table', { hidden: true });
    expect(within(table).getAllByRole('row', { hidden: true })[2]!.textContent).toBe('12:05–12:10—');
  });

  it('all zeros: the baseline, no bars, no scale, and the empty text', () => {
    const { container } = render(<BarChart {...props({ rows: readBuckets(statusAllZero.timeline_1h, KEYS)!, summary: 'No deliveries.' })} />);
    expect(screen.getByRole('img', { name: 'No deliveries.' })).toBeInTheDocument();
    expect(container.querySelectorAll('rect.chart-bar')).toHaveLength(0);
    expect(container.querySelector('.chart-ymax')).toHaveTextContent('');
    expect(screen.getByText('No deliveries in the last hour')).toBeInTheDocument();
  });

  it('24 hourly buckets: labels at the start, the middle and the end', () => {
    const rows = readBuckets(timeline24h, ['sent', 'failed'] as const)!;
    const { container } = render(
      <BarChart
        title="Per hour"
        summary="24 hours"
        rows={rows}
        series={[
          { key: 'sent', label: 'Sent', className: 'chart-sent' },
          { key: 'failed', label: 'Failed', className: 'chart-failed' },
        ]}
        bucketMs={3_600_000}
        formatValue={String}
        formatTime={(t) => hm.format(t)}
        tableToggle="Show as table"
        timeHeading="Time"
        emptyText="None"
      />,
    );
    expect(screen.getByRole('img', { name: '24 hours' })).toHaveAttribute('viewBox', '0 0 240 100');
    expect([...container.querySelectorAll('.chart-x span')].map((s) => s.textContent)).toEqual(['13:00', '01:00', '13:00']);
    expect(container.querySelector('.chart-ymax')).toHaveTextContent('150');
  });
});

describe('Figures', () => {
  it('is a description list of label/value pairs with an optional detail', () => {
    render(
      <Figures
        items={[
          { id: 'a', label: 'Queue depth', value: '4' },
          { id: 'b', label: 'Failed (1 h)', value: '2', tone: 'danger', detail: 'since 12:00' },
        ]}
      />,
    );
    const terms = screen.getAllByRole('term').map((t) => t.textContent);
    expect(terms).toEqual(['Queue depth', 'Failed (1 h)']);
    expect(screen.getByText('2')).toHaveClass('figure-value', 'danger');
    expect(screen.getByText('since 12:00')).toHaveClass('figure-detail');
  });
});
