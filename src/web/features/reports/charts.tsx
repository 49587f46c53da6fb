import type { ReactNode } from 'react';
import { REPORTS_TEXT, SPREAD_BUCKETS, shortDay, weekdayName } from '../../../contracts/reports.ts';
import type { Report } from '../../../contracts/reports.schemas.ts';
import { figurePath, type RangeOf } from './links.ts';
import { INK, INK_SOFT, OKABE_ITO, RULE } from './palette.ts';
import { type LinearScale, linePath, scaleBand, scaleLinear } from './scales.ts';

/**
 * The report's charts: SVG that React draws from a few scales of our own (scales.ts: d3's
 * arithmetic, without visx and d3, decision 159), on the server and the same on the client, so
 * they are whole without JavaScript and in print. Each chart is a picture with a title and a
 * description for screen readers (an inner `<svg role="img">`); beside it, a layer of links over
 * every bar, point and cell opens that figure's tickets with a pointer. The links are hidden from
 * screen readers and out of the tab order: the figures' table under each chart carries the same
 * links for the keyboard and for screen readers, and an image may not hold links itself.
 */

export const WIDTH = 760;
export const FONT = 13;

/** A link over one mark: where it goes and what it is (shown as a tooltip on hover). */
interface Hit {
  key: string;
  href: string;
  label: string;
  x: number;
  y: number;
  width: number;
  height: number;
}

/** A group of marks moved to its place (the chart's margins). */
export function Group({ left = 0, top = 0, children }: { left?: number; top?: number; children: ReactNode }) {
  return <g transform={`translate(${left}, ${top})`}>{children}</g>;
}

export function Chart({
  id,
  title,
  description,
  height,
  hits,
  children,
}: {
  id: string;
  title: string;
  description: string;
  height: number;
  hits: Hit[];
  children: ReactNode;
}) {
  return (
    <svg className="chart__svg" viewBox={`0 0 ${WIDTH} ${height}`} data-chart={id}>
      <svg role="img" aria-labelledby={`${id}-title ${id}-desc`} width={WIDTH} height={height}>
        <title id={`${id}-title`}>{title}</title>
        <desc id={`${id}-desc`}>{description}</desc>
        {children}
      </svg>
      <g className="chart__links" aria-hidden="true">
        {hits.map((hit) => (
          <a key={hit.key} href={hit.href} tabIndex={-1} className="chart__link">
            <title>{hit.label}</title>
            <rect
              x={hit.x}
              y={hit.y}
              width={Math.max(hit.width, 1)}
              height={Math.max(hit.height, 1)}
              fill="transparent"
            />
          </a>
        ))}
      </g>
    </svg>
  );
}

/** Whole-number ticks of a count axis (at most `count` of them). */
export const countTicks = (scale: LinearScale, count = 4) =>
  scale.ticks(count).filter((tick) => Number.isInteger(tick));

export function CountAxis({
  scale,
  width,
  ticks,
  format = String,
}: {
  scale: LinearScale;
  width: number;
  ticks: number[];
  format?: (tick: number) => string;
}) {
  return (
    <g className="chart__axis">
      {ticks.map((tick) => (
        <g key={tick}>
          <line x1={0} x2={width} y1={scale(tick)} y2={scale(tick)} stroke={RULE} />
          <text x={-8} y={scale(tick)} dy="0.32em" textAnchor="end" fontSize={FONT} fill={INK_SOFT}>
            {format(tick)}
          </text>
        </g>
      ))}
    </g>
  );
}

export const plural = (n: number, one: string, many = `${one}s`) =>
  `${n.toLocaleString('en-NZ')} ${n === 1 ? one : many}`;

// --- First-response spread ------------------------------------------------------------------------

export function SpreadChart({ report, range }: { report: Report; range: RangeOf }) {
  const height = 260;
  const margin = { top: 24, right: 12, bottom: 36, left: 44 };
  const innerWidth = WIDTH - margin.left - margin.right;
  const innerHeight = height - margin.top - margin.bottom;
  const x = scaleBand<string>({ domain: SPREAD_BUCKETS.map((b) => b.key), range: [0, innerWidth], padding: 0.3 });
  const max = Math.max(1, ...report.spread.map((s) => s.count));
  const y = scaleLinear({ domain: [0, max], range: [innerHeight, 0], nice: true });
  const bars = SPREAD_BUCKETS.map((bucket) => {
    const count = report.spread.find((s) => s.bucket === bucket.key)?.count ?? 0;
    return { bucket, count, x: x(bucket.key) ?? 0, y: y(count) };
  });
  const description = `${REPORTS_TEXT.spreadAxis}: ${bars.map((b) => `${b.bucket.label}, ${plural(b.count, 'ticket')}`).join('; ')}.`;
  return (
    <Chart
      id="chart-spread"
      title={REPORTS_TEXT.spreadTitle}
      description={description}
      height={height}
      hits={bars.map((b) => ({
        key: b.bucket.key,
        href: figurePath(range, { figure: 'spread', bucket: b.bucket.key }),
        label: `${b.bucket.label}: ${plural(b.count, 'ticket')}`,
        x: margin.left + b.x,
        y: margin.top,
        width: x.bandwidth(),
        height: innerHeight,
      }))}
    >
      <Group left={margin.left} top={margin.top}>
        <CountAxis scale={y} width={innerWidth} ticks={countTicks(y)} />
        {bars.map((b) => (
          <g key={b.bucket.key}>
            <rect
              x={b.x}
              y={b.y}
              width={x.bandwidth()}
              height={innerHeight - b.y}
              fill={OKABE_ITO.blue}
              className="chart__bar"
            />
            <text
              x={b.x + x.bandwidth() / 2}
              y={b.y - 6}
              textAnchor="middle"
              fontSize={FONT}
              fontWeight={600}
              fill={INK}
            >
              {b.count}
            </text>
            <text x={b.x + x.bandwidth() / 2} y={innerHeight + 22} textAnchor="middle" fontSize={FONT} fill={INK_SOFT}>
              {b.bucket.label}
            </text>
          </g>
        ))}
      </Group>
    </Chart>
  );
}

// --- Created, closed and open per day ---------------------------------------------------------------

export function DaysChart({ report, range }: { report: Report; range: RangeOf }) {
  // Two panels on one day axis: the day's created and closed bars, and under them the backlog
  // line, each on its own scale (a backlog of 40 would flatten bars of 3), and no link over another.
  const margin = { top: 16, right: 12, bottom: 40, left: 44 };
  const barsHeight = 200;
  const gap = 28;
  const lineHeight = 110;
  const height = margin.top + barsHeight + gap + lineHeight + margin.bottom;
  const innerWidth = WIDTH - margin.left - margin.right;
  const lineTop = barsHeight + gap;
  const days = report.days;
  const x = scaleBand<string>({ domain: days.map((d) => d.day), range: [0, innerWidth], padding: 0.2 });
  const y = scaleLinear({
    domain: [0, Math.max(1, ...days.flatMap((d) => [d.created, d.closed]))],
    range: [barsHeight, 0],
    nice: true,
  });
  const yLine = scaleLinear({
    domain: [0, Math.max(1, ...days.map((d) => d.backlog))],
    range: [lineHeight, 0],
    nice: true,
  });
  const half = x.bandwidth() / 2;
  const step = x.step();
  const every = Math.max(1, Math.ceil(days.length / 10));
  const centre = (day: string) => (x(day) ?? 0) + x.bandwidth() / 2;
  const hits: Hit[] = days.flatMap((d) => {
    const left = margin.left + (x(d.day) ?? 0);
    const words = shortDay(d.day);
    return [
      {
        key: `created-${d.day}`,
        href: figurePath(range, { figure: 'created-day', day: d.day }),
        label: `${words}: ${d.created} ${REPORTS_TEXT.created.toLowerCase()}`,
        x: left,
        y: margin.top,
        width: half,
        height: barsHeight,
      },
      {
        key: `closed-${d.day}`,
        href: figurePath(range, { figure: 'closed-day', day: d.day }),
        label: `${words}: ${d.closed} ${REPORTS_TEXT.closed.toLowerCase()}`,
        x: left + half,
        y: margin.top,
        width: half,
        height: barsHeight,
      },
      {
        key: `backlog-${d.day}`,
        href: figurePath(range, { figure: 'backlog-day', day: d.day }),
        label: `${words}: ${d.backlog} ${REPORTS_TEXT.backlog.toLowerCase()}`,
        x: margin.left + centre(d.day) - step / 2,
        y: margin.top + lineTop,
        width: step,
        height: lineHeight,
      },
    ];
  });
  const totals = {
    created: days.reduce((sum, d) => sum + d.created, 0),
    closed: days.reduce((sum, d) => sum + d.closed, 0),
  };
  const last = days.at(-1);
  const description =
    `${plural(totals.created, 'ticket')} created and ${totals.closed} closed over ${plural(days.length, 'day')}` +
    `${last ? `; ${last.backlog} open at the end of ${shortDay(last.day)}` : ''}. The table below lists each day.`;
  return (
    <Chart id="chart-days" title={REPORTS_TEXT.daysTitle} description={description} height={height} hits={hits}>
      <Group left={margin.left} top={margin.top}>
        <CountAxis scale={y} width={innerWidth} ticks={countTicks(y)} />
        {days.map((d) => (
          <g key={d.day}>
            <rect
              x={x(d.day) ?? 0}
              y={y(d.created)}
              width={half}
              height={barsHeight - y(d.created)}
              fill={OKABE_ITO.blue}
            />
            <rect
              x={(x(d.day) ?? 0) + half}
              y={y(d.closed)}
              width={half}
              height={barsHeight - y(d.closed)}
              fill={OKABE_ITO.vermillion}
            />
          </g>
        ))}
      </Group>
      <Group left={margin.left} top={margin.top + lineTop}>
        <CountAxis scale={yLine} width={innerWidth} ticks={countTicks(yLine, 3)} />
        <text x={0} y={-8} fontSize={FONT} fill={INK_SOFT}>
          {REPORTS_TEXT.backlog}
        </text>
        <path
          d={linePath(days.map((d) => [centre(d.day), yLine(d.backlog)]))}
          fill="none"
          strokeLinecap="round"
          stroke={OKABE_ITO.black}
          strokeWidth={2}
        />
        {days.map((d) => (
          <circle
            key={d.day}
            cx={centre(d.day)}
            cy={yLine(d.backlog)}
            r={3.5}
            fill={OKABE_ITO.black}
            stroke="#ffffff"
            strokeWidth={1}
          />
        ))}
        {days.map((d, i) =>
          i % every === 0 ? (
            <text key={d.day} x={centre(d.day)} y={lineHeight + 22} textAnchor="middle" fontSize={FONT} fill={INK_SOFT}>
              {shortDay(d.day)}
            </text>
          ) : null,
        )}
      </Group>
    </Chart>
  );
}

// --- Busiest hours ------------------------------------------------------------------------------------

/** Four steps of the blue by share of the busiest hour (0 for none): text stays readable on each. */
export const heatLevel = (count: number, max: number) =>
  count === 0 ? 0 : count / max <= 0.25 ? 1 : count / max <= 0.5 ? 2 : count / max <= 0.75 ? 3 : 4;
const LEVEL_OPACITY = [0, 0.15, 0.3, 0.5, 1] as const;
/** The white line between the heatmap's cells. */
const HEAT_GAP = 2;

interface HourBin {
  weekday: number;
  hour: number;
  count: number;
}

export function HoursHeatmap({ report, range }: { report: Report; range: RangeOf }) {
  const cell = 28;
  const margin = { top: 8, right: 8, bottom: 28, left: 52 };
  const height = margin.top + cell * 7 + margin.bottom;
  const columns = Array.from({ length: 24 }, (_, hour) => ({
    hour,
    bins: Array.from(
      { length: 7 },
      (_, row): HourBin =>
        report.hours.find((h) => h.weekday === row + 1 && h.hour === hour) ?? { weekday: row + 1, hour, count: 0 },
    ),
  }));
  const max = Math.max(1, ...report.hours.map((h) => h.count));
  const busiest = [...report.hours].sort((a, b) => b.count - a.count)[0];
  const description =
    busiest && busiest.count > 0
      ? `New tickets by weekday (rows) and hour (columns). The busiest hour: ${weekdayName(busiest.weekday)}s ${REPORTS_TEXT.hourSpan(busiest.hour)}, ${plural(busiest.count, 'ticket')}. The table below lists every hour with tickets.`
      : 'No new tickets in these days.';
  const hits: Hit[] = columns.flatMap((column) =>
    column.bins.map((bin) => ({
      key: `${bin.weekday}-${bin.hour}`,
      href: figurePath(range, { figure: 'hour', weekday: bin.weekday, hour: bin.hour }),
      label: `${weekdayName(bin.weekday)} ${REPORTS_TEXT.hourSpan(bin.hour)}: ${plural(bin.count, 'ticket')}`,
      x: margin.left + bin.hour * cell,
      y: margin.top + (bin.weekday - 1) * cell,
      width: cell,
      height: cell,
    })),
  );
  return (
    <Chart id="chart-hours" title={REPORTS_TEXT.hoursTitle} description={description} height={height} hits={hits}>
      <Group left={margin.left} top={margin.top}>
        {columns.flatMap((column, i) =>
          column.bins.map((bin, row) => {
            // A cell is its place less a gap: the gap on its right and above it.
            const c = { x: i * cell, y: row * cell + HEAT_GAP, width: cell - HEAT_GAP, height: cell - HEAT_GAP };
            const count = bin.count;
            const level = heatLevel(count, max);
            return (
              <g key={`${row}-${i}`}>
                <rect
                  x={c.x}
                  y={c.y}
                  width={c.width}
                  height={c.height}
                  fill={level === 0 ? '#ffffff' : OKABE_ITO.blue}
                  fillOpacity={level === 0 ? 1 : LEVEL_OPACITY[level]}
                  stroke={RULE}
                  strokeWidth={level === 0 ? 1 : 0}
                />
                {count > 0 ? (
                  <text
                    x={c.x + c.width / 2}
                    y={c.y + c.height / 2}
                    dy="0.35em"
                    textAnchor="middle"
                    fontSize={12}
                    fontWeight={600}
                    fill={level === 4 ? '#ffffff' : INK}
                  >
                    {count}
                  </text>
                ) : null}
              </g>
            );
          }),
        )}
        {Array.from({ length: 7 }, (_, row) => (
          <text key={row} x={-8} y={row * cell + cell / 2} dy="0.35em" textAnchor="end" fontSize={FONT} fill={INK_SOFT}>
            {weekdayName(row + 1).slice(0, 3)}
          </text>
        ))}
        {columns
          .filter((column) => column.hour % 3 === 0)
          .map((column) => (
            <text
              key={column.hour}
              x={column.hour * cell + cell / 2}
              y={7 * cell + 18}
              textAnchor="middle"
              fontSize={FONT}
              fill={INK_SOFT}
            >
              {REPORTS_TEXT.hourLabel(column.hour)}
            </text>
          ))}
      </Group>
    </Chart>
  );
}

// --- Ratings per week ---------------------------------------------------------------------------------

export function RatingsChart({ report, range }: { report: Report; range: RangeOf }) {
  const height = 240;
  const margin = { top: 24, right: 12, bottom: 36, left: 52 };
  const innerWidth = WIDTH - margin.left - margin.right;
  const innerHeight = height - margin.top - margin.bottom;
  const weeks = report.ratings.weeks;
  const x = scaleBand<string>({ domain: weeks.map((w) => w.week), range: [0, innerWidth], padding: 0.3 });
  const y = scaleLinear({ domain: [0, 1], range: [innerHeight, 0] });
  const every = Math.max(1, Math.ceil(weeks.length / 10));
  const labelled = weeks.length <= 16;
  const description = `${REPORTS_TEXT.ratingsLead} ${weeks
    .map((w) => `Week of ${shortDay(w.week)}: ${w.good} of ${w.total} Good`)
    .join('; ')}.`;
  return (
    <Chart
      id="chart-ratings"
      title={REPORTS_TEXT.ratingsTitle}
      description={description}
      height={height}
      hits={weeks.map((w) => ({
        key: w.week,
        href: figurePath(range, { figure: 'rating-week', day: w.week }),
        label: `Week of ${shortDay(w.week)}: ${w.good} of ${w.total} Good`,
        x: margin.left + (x(w.week) ?? 0),
        y: margin.top,
        width: x.bandwidth(),
        height: innerHeight,
      }))}
    >
      <Group left={margin.left} top={margin.top}>
        <CountAxis scale={y} width={innerWidth} ticks={[0, 0.5, 1]} format={(tick) => `${tick * 100}%`} />
        {weeks.map((w, i) => {
          const share = w.total === 0 ? 0 : w.good / w.total;
          const left = x(w.week) ?? 0;
          return (
            <g key={w.week}>
              <rect
                x={left}
                y={y(share)}
                width={x.bandwidth()}
                height={innerHeight - y(share)}
                fill={OKABE_ITO.bluishGreen}
              />
              {labelled ? (
                <text
                  x={left + x.bandwidth() / 2}
                  y={y(share) - 6}
                  textAnchor="middle"
                  fontSize={FONT}
                  fontWeight={600}
                  fill={INK}
                >
                  {w.good}/{w.total}
                </text>
              ) : null}
              {i % every === 0 ? (
                <text
                  x={left + x.bandwidth() / 2}
                  y={innerHeight + 22}
                  textAnchor="middle"
                  fontSize={FONT}
                  fill={INK_SOFT}
                >
                  {shortDay(w.week)}
                </text>
              ) : null}
            </g>
          );
        })}
      </Group>
    </Chart>
  );
}
