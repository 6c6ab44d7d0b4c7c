import { Amount } from '../../components/amount.tsx';
import { TableHead } from '../../components/data-table.tsx';
import { useI18n } from '../../i18n/index.ts';
import type { AccountNode, CurrencyTree } from './account-tree-model.ts';
import { AccountRow } from './account-row.tsx';

function flatten(nodes: AccountNode[], depth = 0): { node: AccountNode; depth: number }[] {
  return nodes.flatMap((node) => [{ node, depth }, ...flatten(node.children, depth + 1)]);
}

/** One currency's accounts, section by type, each account with its own and rolled-up balance. */
export function AccountTree({
  tree,
  onChanged,
  onAddChild,
  onOpen,
}: {
  tree: CurrencyTree;
  onChanged: () => void;
  onAddChild: (parent: AccountNode) => void;
  onOpen: (node: AccountNode) => void;
}) {
  const { t } = useI18n();
  return (
    <article className="panel" aria-label={t('accounts.treeFor', { currency: tree.currency })}>
      <div className="panel-head">
        <h2>{t('accounts.treeFor', { currency: tree.currency })}</h2>
        {tree.netWorth !== null && (
          <span>
            {t('dashboard.netWorth')}: <Amount value={tree.netWorth} currency={tree.currency} />
          </span>
        )}
      </div>
      <div className="table-scroll">
        <table className="data-table account-table">
          <TableHead
            columns={[
              { header: t('accounts.name') },
              { header: t('accounts.own'), numeric: true },
              { header: t('accounts.total'), numeric: true },
              { header: t('accounts.status') },
              { header: t('accounts.actions'), hiddenHeader: true },
            ]}
          />
          {tree.sections
            .filter((s) => s.nodes.length > 0)
            .map((section) => (
              <tbody key={section.type}>
                <tr className="section-row">
                  <th scope="rowgroup" colSpan={2}>
                    {t(`types.${section.type}`)}
                  </th>
                  <td className="num">{section.total !== null && <Amount value={section.total} />}</td>
                  <td colSpan={2} />
                </tr>
                {flatten(section.nodes).map(({ node, depth }) => (
                  <AccountRow
                    key={node.id}
                    node={node}
                    depth={depth}
                    onChanged={onChanged}
                    onAddChild={onAddChild}
                    onOpen={onOpen}
                  />
                ))}
                {section.type === 'EQUITY' && tree.retainedEarnings !== null && (
                  <tr className="derived-row">
                    <td>{t('accounts.retainedEarnings')}</td>
                    <td />
                    <td className="num">
                      <Amount value={tree.retainedEarnings} />
                    </td>
                    <td colSpan={2} />
                  </tr>
                )}
              </tbody>
            ))}
        </table>
      </div>
    </article>
  );
}
