import { Fragment, useState } from 'react';
import { openLots, type HoldingDto } from '../../api/index.ts';
import { Amount } from '../../components/amount.tsx';
import { useLoader } from '../../hooks/use-loader.ts';
import { useI18n } from '../../i18n/index.ts';

export function HoldingRow({ h }: { h: HoldingDto }) {
  const { t } = useI18n();
  const [open, setOpen] = useState(false);
  const lots = useLoader(
    () => (open ? openLots(h.account_id, h.security_id) : Promise.resolve({ items: [] })),
    [open, h.account_id, h.security_id, h.units],
  );
  const name = `${h.symbol} · ${h.account_name}`;
  return (
    <Fragment>
      <tr data-testid={`holding-${h.symbol}`}>
        <td>
          <button
            type="button"
            className="link-button"
            aria-expanded={open}
            aria-label={t(open ? 'investments.hideLots' : 'investments.showLots', { name })}
            onClick={() => setOpen(!open)}
          >
            {open ? '▾' : '▸'}
          </button>{' '}
          {h.account_name}
        </td>
        <td>{h.symbol}</td>
        <td className="numeric">{h.units}</td>
        <td className="numeric">
          <Amount value={h.cost_basis} currency={h.currency} />
        </td>
        <td className="numeric">{h.price ?? '—'}</td>
        <td className="numeric" data-testid={`market-${h.symbol}`}>
          {h.market_value ? <Amount value={h.market_value} currency={h.currency} /> : t('investments.noPrice')}
        </td>
        <td className="numeric" data-testid={`unrealized-${h.symbol}`}>
          {h.unrealized_gain ? <Amount value={h.unrealized_gain} /> : '—'}
        </td>
        <td className="numeric">{h.return_percent ? `${h.return_percent} %` : '—'}</td>
        <td className="numeric" data-testid={`realized-${h.symbol}`}>
          <Amount value={h.realized_gain} />
        </td>
      </tr>
      {open &&
        lots.data?.items.map((lot) => (
          <tr key={lot.id} className="sub-row">
            <td colSpan={2}>{t('investments.lotOf', { date: lot.bought_on })}</td>
            <td className="numeric">{lot.units}</td>
            <td className="numeric">
              <Amount value={lot.cost_basis} currency={h.currency} />
            </td>
            <td className="numeric">{lot.unit_cost}</td>
            <td colSpan={4} />
          </tr>
        ))}
    </Fragment>
  );
}
