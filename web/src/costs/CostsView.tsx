// The Costs view (?view=costs): cost and active time per day, per project and per plan (GET /api/costs),
// each as a chart and as a table with the same numbers, and the plans that cost the most, each linking
// to its Outcome tab; over all time or the days the person picks (UTC dates, both ends included).
import { useEffect, useState } from 'react';
import { api, describeError, isAbort } from '../api/client';
import type { CostsBody } from '../api/types';
import { formatDuration, formatUsd } from '../outcome/OutcomePanel';
import { followInApp } from '../state/inAppLink';
import { DEFAULT_STATE, serializeUrlState } from '../state/url';
import { formatCount } from '../ui/format';
import { CostChart } from './CostChart';
import './costs.css';

type By = 'day' | 'project' | 'plan';
const TOP_PLANS = 10;

/** The days shown: `YYYY-MM-DD` bounds, '' for none. */
interface Range {
  after: string;
  before: string;
}

const ALL_TIME: Range = { after: '', before: '' };

/** The last `days` days, today (UTC) included. */
function lastDays(days: number): Range {
  const day = (ms: number) => new Date(ms).toISOString().slice(0, 10);
  return { after: day(Date.now() - (days - 1) * 86_400_000), before: '' };
}

interface Loaded {
  status: 'loading' | 'ready' | 'error';
  error: unknown;
  by: Partial<Record<By, CostsBody>>;
}

function useCosts(retry: number, { after, before }: Range): Loaded {
  const [state, setState] = useState<Loaded>({ status: 'loading', error: null, by: {} });
  useEffect(() => {
    const ctrl = new AbortController();
    setState({ status: 'loading', error: null, by: {} });
    Promise.all((['day', 'project', 'plan'] as const).map((by) => api.costs(by, { after, before }, ctrl.signal)))
      .then(([day, project, plan]) => setState({ status: 'ready', error: null, by: { day, project, plan } }))
      .catch((error: unknown) => {
        if (!isAbort(error)) setState({ status: 'error', error, by: {} });
      });
    return () => ctrl.abort();
  }, [retry, after, before]);
  return state;
}

/** From and to dates, and the usual spans in one click. */
function RangePicker({ range, onChange }: { range: Range; onChange: (range: Range) => void }) {
  const presets: [string, Range][] = [['All time', ALL_TIME], ['Last 7 days', lastDays(7)], ['Last 30 days', lastDays(30)]];
  return (
    <form className="costs-range" aria-label="Days shown" onSubmit={(e) => e.preventDefault()}>
      <label>
        From <input type="date" value={range.after} max={range.before || undefined} onChange={(e) => onChange({ ...range, after: e.currentTarget.value })} />
      </label>
      <label>
        To <input type="date" value={range.before} min={range.after || undefined} onChange={(e) => onChange({ ...range, before: e.currentTarget.value })} />
      </label>
      {presets.map(([label, preset]) => (
        <button key={label} type="button" aria-pressed={preset.after === range.after && preset.before === range.before} onClick={() => onChange(preset)}>
          {label}
        </button>
      ))}
    </form>
  );
}

function CostTable({ body, caption, keyLabel, top }: { body: CostsBody; caption: string; keyLabel: string; top?: number }) {
  const rows = top ? body.rows.slice(0, top) : body.rows;
  return (
    <div className="cost-table-wrap">
      <table className="cost-table" data-by={body.by}>
        <caption>{caption}</caption>
        <thead>
          <tr>
            <th scope="col">{keyLabel}</th>
            <th scope="col">Cost</th>
            <th scope="col">Active time</th>
            <th scope="col">Sessions</th>
          </tr>
        </thead>
        <tbody>
          {rows.map((r) => (
            <tr key={r.key} data-key={r.key}>
              <th scope="row">
                {body.by === 'plan' && r.key !== '(none)' ? (
                  <a href={serializeUrlState({ ...DEFAULT_STATE, plan: r.key, planTab: 'outcome' })} onClick={followInApp}>
                    {r.key}
                  </a>
                ) : (
                  r.key
                )}
              </th>
              <td className="num cost-usd" data-usd={r.costUsd}>{formatUsd(r.costUsd)}</td>
              <td className="num cost-active" data-ms={r.activeMs}>{formatDuration(r.activeMs)}</td>
              <td className="num">{formatCount(r.sessions)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

export function CostsView({ dark }: { dark: boolean }) {
  const [retry, setRetry] = useState(0);
  const [range, setRange] = useState<Range>(ALL_TIME);
  const costs = useCosts(retry, range);
  if (costs.status !== 'ready') {
    return (
      <main id="main" className="costs-view">
        <RangePicker range={range} onChange={setRange} />
        {costs.status === 'error' ? (
          <div className="state-panel error">
            <h2>Could not load the costs</h2>
            <p>{describeError(costs.error)}</p>
            <button type="button" onClick={() => setRetry((n) => n + 1)}>Retry</button>
          </div>
        ) : (
          <div className="state-panel loading" aria-busy="true">Adding up the costs…</div>
        )}
      </main>
    );
  }
  const { day, project, plan } = costs.by as Record<By, CostsBody>;
  return (
    <main id="main" className="costs-view" aria-label="Costs">
      <header className="costs-header">
        <h1>Costs</h1>
        <RangePicker range={range} onChange={setRange} />
        <p className="costs-total" data-testid="costs-total">
          {formatUsd(day.totalUsd)} in all, {formatDuration(day.rows.reduce((n, r) => n + r.activeMs, 0))} active
        </p>
        <p className="muted costs-note">
          Tokens priced with the package's table of Anthropic's published API prices as of {day.pricesAsOf}; what you pay on a
          subscription differs.
          {day.unpricedTokens > 0 && ` ${formatCount(day.unpricedTokens)} tokens of models the table does not know are not priced.`}
        </p>
      </header>
      {day.rows.length === 0 ? (
        <p className="state-panel empty">{range.after || range.before ? 'No model answers in these days.' : 'No model answers in the transcripts yet.'}</p>
      ) : (
        <>
          <section className="costs-section" aria-labelledby="costs-day">
            <h2 id="costs-day">Per day</h2>
            <CostChart rows={day.rows} time label="Cost per day" dark={dark} />
            <CostTable body={day} caption="Cost and active time per day (UTC)" keyLabel="Day" />
          </section>
          <section className="costs-section" aria-labelledby="costs-project">
            <h2 id="costs-project">Per project</h2>
            <CostChart rows={project.rows} time={false} label="Cost per project" dark={dark} />
            <CostTable body={project} caption="Cost and active time per project" keyLabel="Project" />
          </section>
          <section className="costs-section" aria-labelledby="costs-plan">
            <h2 id="costs-plan">Top plans by cost</h2>
            <CostChart rows={plan.rows.slice(0, TOP_PLANS)} time={false} label="Cost of the top plans" dark={dark} />
            <CostTable body={plan} caption={`The ${TOP_PLANS} plans that cost the most (the work of their sessions after writing them)`} keyLabel="Plan" top={TOP_PLANS} />
          </section>
        </>
      )}
    </main>
  );
}
