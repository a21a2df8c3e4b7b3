import type { ComponentChildren } from 'preact';

/**
 * The Overview's charts, hand-made SVG: no library to load (a few hundred bytes instead of
 * uPlot's ~20 KB or Chart.js's ~70 KB gzipped), no inline style or script (the CSP's
 * `style-src 'self'` holds: only SVG attributes and the stylesheet's classes), and the numbers
 * live in HTML tables, where a screen reader reads them and every number is a link.
 */

/** A number that links to the list it counts ("—" where the service could not count it). */
export function Count({ value, href, label }: { value: number | undefined; href: string; label: string }) {
  if (value === undefined)
    return (
      <span>
        —<span class="visually-hidden"> ({label}: not available)</span>
      </span>
    );
  return (
    <a href={href} aria-label={`${value} ${label}`}>
      {value}
    </a>
  );
}

export interface BarRow {
  key: string;
  /** The row's name: a link where it drills further. */
  name: ComponentChildren;
  values: { value: number; href: string; label: string }[];
}

/**
 * Horizontal bars as a table: one row a group, its numbers (links) in cells, and a bar per
 * number drawn beside them, scaled to the largest value of the chart. The bars are decoration
 * (`aria-hidden`): the cells say the same.
 */
export function BarTable({
  caption,
  head,
  series,
  rows,
  tones = [],
}: {
  caption: string;
  head: string;
  series: string[];
  rows: BarRow[];
  /** Each series' colour (a `series-<n>` class), where not its position. */
  tones?: number[];
}) {
  const max = Math.max(1, ...rows.flatMap((row) => row.values.map((v) => v.value)));
  return (
    <table class="chart">
      <caption class="visually-hidden">{caption}</caption>
      <thead>
        <tr>
          <th scope="col">{head}</th>
          {series.map((name) => (
            <th scope="col" class="num" key={name}>
              {name}
            </th>
          ))}
          <th scope="col" class="bar-col">
            <span class="visually-hidden">Bars</span>
          </th>
        </tr>
      </thead>
      <tbody>
        {rows.map((row) => (
          <tr key={row.key}>
            <th scope="row">{row.name}</th>
            {row.values.map((v) => (
              <td class="num" key={v.label}>
                <Count value={v.value} href={v.href} label={v.label} />
              </td>
            ))}
            <td class="bar-col">
              <svg
                class="bars"
                viewBox={`0 0 100 ${row.values.length * 8}`}
                preserveAspectRatio="none"
                aria-hidden="true"
                focusable="false"
              >
                {row.values.map((v, i) => (
                  <rect
                    key={v.label}
                    class={`series-${tones[i] ?? i}`}
                    x="0"
                    y={i * 8 + 1}
                    height="6"
                    width={Math.max(v.value > 0 ? 0.5 : 0, (100 * v.value) / max)}
                  />
                ))}
              </svg>
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

export interface WeekPoint {
  label: string;
  raised: number;
  closed: number;
  open: number | null;
}

const W = 640;
const H = 220;
const PAD = { left: 36, right: 36, top: 10, bottom: 26 };

/**
 * Raised and closed per week as paired columns, with open at each week's end as a line on its
 * own scale (right axis). Decoration for sighted readers: the table beside it holds the numbers.
 */
export function WeekChart({ points, summary }: { points: WeekPoint[]; summary: string }) {
  const plotW = W - PAD.left - PAD.right;
  const plotH = H - PAD.top - PAD.bottom;
  const maxFlow = Math.max(1, ...points.flatMap((p) => [p.raised, p.closed]));
  const opens = points.map((p) => p.open).filter((v): v is number => v !== null);
  const maxOpen = Math.max(1, ...opens);
  const slot = plotW / Math.max(1, points.length);
  const bar = Math.max(2, slot * 0.32);
  const y = (v: number, max: number) => PAD.top + plotH - (plotH * v) / max;
  const line = points
    .map((p, i) =>
      p.open === null ? null : `${(PAD.left + slot * (i + 0.5)).toFixed(1)},${y(p.open, maxOpen).toFixed(1)}`,
    )
    .filter(Boolean)
    .join(' ');
  return (
    <svg class="week-chart" viewBox={`0 0 ${W} ${H}`} role="img" aria-label={summary} focusable="false">
      <line class="axis" x1={PAD.left} x2={W - PAD.right} y1={PAD.top + plotH} y2={PAD.top + plotH} />
      <text class="tick" x={PAD.left - 4} y={PAD.top + 8} text-anchor="end">
        {maxFlow}
      </text>
      <text class="tick" x={PAD.left - 4} y={PAD.top + plotH} text-anchor="end">
        0
      </text>
      {opens.length ? (
        <text class="tick open-tick" x={W - PAD.right + 4} y={PAD.top + 8}>
          {maxOpen}
        </text>
      ) : null}
      {points.map((p, i) => {
        const x = PAD.left + slot * i + slot / 2;
        return (
          <g key={p.label}>
            <rect
              class="series-0"
              x={x - bar}
              y={y(p.raised, maxFlow)}
              width={bar}
              height={PAD.top + plotH - y(p.raised, maxFlow)}
            />
            <rect
              class="series-2"
              x={x}
              y={y(p.closed, maxFlow)}
              width={bar}
              height={PAD.top + plotH - y(p.closed, maxFlow)}
            />
            {i % 2 === 0 ? (
              <text class="tick" x={x} y={H - 8} text-anchor="middle">
                {p.label}
              </text>
            ) : null}
          </g>
        );
      })}
      {line ? <polyline class="open-line" points={line} fill="none" /> : null}
      {points.map((p, i) =>
        p.open === null ? null : (
          <circle key={`o${p.label}`} class="open-dot" cx={PAD.left + slot * (i + 0.5)} cy={y(p.open, maxOpen)} r="4" />
        ),
      )}
    </svg>
  );
}
