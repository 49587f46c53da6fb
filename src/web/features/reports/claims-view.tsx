import { reportsApi } from '../../../contracts/api/reports.ts';
import { CLAIM_KINDS, CLAIM_OUTCOME_TEXT, formatNzd } from '../../../contracts/claims.ts';
import { pathOf } from '../../../contracts/endpoint.ts';
import { CLAIM_REPORT_TEXT } from '../../../contracts/report-claims.ts';
import { percentWords } from '../../../contracts/reports.ts';
import type { Report } from '../../../contracts/reports.schemas.ts';
import { Chart, CountAxis, countTicks, FONT, Group, plural, WIDTH } from './charts.tsx';
import { figurePath, type RangeOf, rangeQuery } from './links.ts';
import { INK, INK_SOFT, OKABE_ITO } from './palette.ts';
import { scaleBand, scaleLinear } from './scales.ts';
import { FigureLink, FiguresTable } from './report-view.tsx';

/**
 * The report's claims (contracts/report-claims.ts): claims by what happened as a chart with its
 * table, and cards for the first decisions, the amounts and the working days to a first decision.
 * Every count opens its claims' tickets.
 */

const TEXT = CLAIM_REPORT_TEXT;

export function ClaimKindsChart({ report, range }: { report: Report; range: RangeOf }) {
  const height = 240;
  const margin = { top: 24, right: 12, bottom: 36, left: 44 };
  const innerWidth = WIDTH - margin.left - margin.right;
  const innerHeight = height - margin.top - margin.bottom;
  const x = scaleBand<string>({ domain: CLAIM_KINDS.map((k) => k.value), range: [0, innerWidth], padding: 0.3 });
  const y = scaleLinear({
    domain: [0, Math.max(1, ...report.claims.kinds.map((k) => k.count))],
    range: [innerHeight, 0],
    nice: true,
  });
  const bars = CLAIM_KINDS.map((kind) => {
    const count = report.claims.kinds.find((k) => k.kind === kind.value)?.count ?? 0;
    return { kind, count, x: x(kind.value) ?? 0, y: y(count) };
  });
  const description = `${TEXT.kindsAxis}: ${bars.map((b) => `${b.kind.label}, ${plural(b.count, 'claim')}`).join('; ')}.`;
  return (
    <Chart
      id="chart-claims"
      title={TEXT.kindsTitle}
      description={description}
      height={height}
      hits={bars.map((b) => ({
        key: b.kind.value,
        href: figurePath(range, { figure: 'claim-kind', claimKind: b.kind.value }),
        label: `${b.kind.label}: ${plural(b.count, 'claim')}`,
        x: margin.left + b.x,
        y: margin.top,
        width: x.bandwidth(),
        height: innerHeight,
      }))}
    >
      <Group left={margin.left} top={margin.top}>
        <CountAxis scale={y} width={innerWidth} ticks={countTicks(y)} />
        {bars.map((b) => (
          <g key={b.kind.value}>
            <rect
              x={b.x}
              y={b.y}
              width={x.bandwidth()}
              height={innerHeight - b.y}
              fill={OKABE_ITO.vermillion}
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
              {b.kind.label}
            </text>
          </g>
        ))}
      </Group>
    </Chart>
  );
}

export function ClaimKindsTable({ report, range }: { report: Report; range: RangeOf }) {
  return (
    <FiguresTable caption={TEXT.kindsTitle} columns={[TEXT.kindsAxis, TEXT.claimsColumn]}>
      {CLAIM_KINDS.map((kind) => (
        <tr key={kind.value}>
          <th scope="row">{kind.label}</th>
          <td className="report-table__number">
            <FigureLink range={range} params={{ figure: 'claim-kind', claimKind: kind.value }}>
              {report.claims.kinds.find((k) => k.kind === kind.value)?.count ?? 0}
            </FigureLink>
          </td>
        </tr>
      ))}
    </FiguresTable>
  );
}

/** The first decisions' shares, the amounts and the working days to a first decision. */
export function ClaimCards({ report, range }: { report: Report; range: RangeOf }) {
  const claims = report.claims;
  return (
    <div className="report-cards">
      <section className="report-card" aria-labelledby="card-claim-decisions">
        <h3 id="card-claim-decisions">{TEXT.decidedTitle}</h3>
        <p className="report-card__about">{TEXT.decidedHint}</p>
        <dl className="report-card__figures">
          {claims.outcomes.map((o) => (
            <div key={o.outcome}>
              <dt>{CLAIM_OUTCOME_TEXT[o.outcome]}</dt>
              <dd>
                <FigureLink range={range} params={{ figure: 'claim-outcome', claimOutcome: o.outcome }}>
                  <strong className="report-card__big">
                    {percentWords(claims.decided === 0 ? null : o.count / claims.decided)}
                  </strong>
                </FigureLink>
                <br />
                {TEXT.shareOf(o.count, claims.decided)}
              </dd>
            </div>
          ))}
        </dl>
        <p className="report-card__count">
          <FigureLink range={range} params={{ figure: 'claims-decided' }}>
            {TEXT.decidedOf(claims.decided, claims.made)}
          </FigureLink>
        </p>
      </section>
      <section className="report-card" aria-labelledby="card-claim-amounts">
        <h3 id="card-claim-amounts">{TEXT.amountsTitle}</h3>
        <dl className="report-card__figures">
          <div>
            <dt>{TEXT.paid}</dt>
            <dd>
              <strong className="report-card__big">{formatNzd(claims.paidCents)}</strong>
              <br />
              {TEXT.paidHint}
            </dd>
          </div>
          <div>
            <dt>{TEXT.claimed}</dt>
            <dd>
              <strong className="report-card__big">{formatNzd(claims.claimedCents)}</strong>
              <br />
              {TEXT.claimedHint}
            </dd>
          </div>
        </dl>
      </section>
      <section className="report-card" aria-labelledby="card-claim-days">
        <h3 id="card-claim-days">{TEXT.timeTitle}</h3>
        <p className="report-card__about">{TEXT.timeHint}</p>
        <dl className="report-card__figures">
          <div>
            <dt>{TEXT.median}</dt>
            <dd>
              <strong className="report-card__big">{TEXT.days(claims.medianDecisionDays)}</strong>
            </dd>
          </div>
          <div>
            <dt>{TEXT.p90}</dt>
            <dd>
              <strong className="report-card__big">{TEXT.days(claims.p90DecisionDays)}</strong>
            </dd>
          </div>
        </dl>
      </section>
    </div>
  );
}

/** How many claims were made (opening their tickets), and the claims' CSV. */
export function ClaimsMade({ report, range }: { report: Report; range: RangeOf }) {
  return (
    <p className="report-range__csv">
      <FigureLink range={range} params={{ figure: 'claims' }}>
        {TEXT.made(report.claims.made)}
      </FigureLink>{' '}
      <a className="button button--ghost" href={pathOf(reportsApi.claimsCsv, { query: rangeQuery(range) })} download>
        {TEXT.downloadCsv}
      </a>{' '}
      <span className="report-range__csv-about">{TEXT.csvAbout}</span>
    </p>
  );
}
