/**
 * A bar chart drawn as SVG on the server (ADR 066): no chart library, no script, the same markup
 * with or without JavaScript. The picture is one image to a screen reader (role="img"), named by its
 * title and described by its summary; the numbers themselves are in the table the page shows under
 * it. Bars may be stacked (one segment per series, bottom to top).
 */

export type ChartSeries = { label: string };
export type ChartBar = { label: string; values: readonly number[] };

/** The drawing's size in its own units; it scales to the width of its box. */
export const CHART_WIDTH = 640;
export const CHART_HEIGHT = 240;
const TOP = 16;
const BOTTOM = 40;
const LEFT = 48;
const RIGHT = 8;
/** The plot's height: a bar of the largest value is this tall. */
export const PLOT_HEIGHT = CHART_HEIGHT - TOP - BOTTOM;

/** Fills of the series in turn: dark enough on white for WCAG's 3:1 of graphics. */
const FILLS = ["fill-primary-ink", "fill-ink-muted", "fill-tertiary-ink", "fill-ink"] as const;

/** The height of a value, in the drawing's units, when `max` is the top of the scale. */
export function barHeight(value: number, max: number): number {
  if (max <= 0 || value <= 0) return 0;
  return Math.round((value / max) * PLOT_HEIGHT * 100) / 100;
}

export function ReportChart({
  id,
  title,
  summary,
  bars,
  series,
  formatValue = String,
}: {
  /** Unique on the page: the title's and summary's ids derive from it. */
  id: string;
  title: string;
  /** What the chart shows, in words (its description). */
  summary: string;
  bars: readonly ChartBar[];
  series: readonly ChartSeries[];
  formatValue?: (value: number) => string;
}) {
  const totals = bars.map((bar) => bar.values.reduce((sum, value) => sum + Math.max(0, value), 0));
  const max = Math.max(0, ...totals);
  const baseline = TOP + PLOT_HEIGHT;
  const slot = (CHART_WIDTH - LEFT - RIGHT) / Math.max(1, bars.length);
  const barWidth = Math.max(2, Math.min(48, slot * 0.7));
  // Every label when they fit, else every n-th (the table has them all).
  const labelEvery = Math.max(1, Math.ceil(bars.length / 12));
  return (
    <svg
      viewBox={`0 0 ${CHART_WIDTH} ${CHART_HEIGHT}`}
      width="100%"
      role="img"
      aria-labelledby={`${id}-title ${id}-desc`}
      className="h-auto max-w-full text-ink"
      data-testid={`chart-${id}`}
    >
      <title id={`${id}-title`}>{title}</title>
      <desc id={`${id}-desc`}>{summary}</desc>
      <line x1={LEFT} x2={CHART_WIDTH - RIGHT} y1={baseline} y2={baseline} stroke="currentColor" />
      <text x={LEFT - 6} y={baseline} textAnchor="end" fontSize="12" fill="currentColor">
        {formatValue(0)}
      </text>
      {max > 0 ? (
        <>
          <line
            x1={LEFT}
            x2={CHART_WIDTH - RIGHT}
            y1={TOP}
            y2={TOP}
            stroke="currentColor"
            strokeOpacity="0.25"
            strokeDasharray="4 4"
          />
          <text x={LEFT - 6} y={TOP + 4} textAnchor="end" fontSize="12" fill="currentColor">
            {formatValue(max)}
          </text>
        </>
      ) : null}
      {bars.map((bar, index) => {
        const x = LEFT + slot * index + (slot - barWidth) / 2;
        let top = baseline;
        return (
          <g key={bar.label} data-bar={bar.label}>
            {bar.values.map((value, part) => {
              const height = barHeight(value, max);
              top -= height;
              if (height === 0) return null;
              return (
                <rect
                  // biome-ignore lint/suspicious/noArrayIndexKey: a series' place is its identity.
                  key={part}
                  x={Math.round(x * 100) / 100}
                  y={Math.round(top * 100) / 100}
                  width={Math.round(barWidth * 100) / 100}
                  height={height}
                  className={FILLS[part % FILLS.length]}
                  data-series={series[part]?.label}
                  data-value={value}
                />
              );
            })}
            {index % labelEvery === 0 ? (
              <text
                x={Math.round((x + barWidth / 2) * 100) / 100}
                y={baseline + 16}
                textAnchor="middle"
                fontSize="12"
                fill="currentColor"
              >
                {bar.label}
              </text>
            ) : null}
          </g>
        );
      })}
    </svg>
  );
}

/** The key of a stacked chart's series (hidden from nobody: it is plain text beside the image). */
export function ChartLegend({ series }: { series: readonly ChartSeries[] }) {
  if (series.length < 2) return null;
  return (
    <ul className="flex flex-wrap gap-4 text-sm">
      {series.map((entry, index) => (
        <li key={entry.label} className="flex items-center gap-2">
          <svg width="12" height="12" aria-hidden="true" focusable="false">
            <rect width="12" height="12" className={FILLS[index % FILLS.length]} />
          </svg>
          {entry.label}
        </li>
      ))}
    </ul>
  );
}
