import { bookTransfer, type UnmatchedItemDto } from '../../api/index.ts';
import { Amount } from '../../components/amount.tsx';
import { ErrorNotice } from '../../components/error-notice.tsx';
import { useAction } from '../../hooks/use-action.ts';
import { useI18n } from '../../i18n/index.ts';

/**
 * The other side of a transfer between the person's own accounts, found for a bank line: the same
 * amount in the opposite direction on another account a few days apart. Booking it makes one entry
 * matched to both lines, instead of two entries against categories.
 */
export function TransferOffer({
  item,
  onBooked,
}: {
  item: UnmatchedItemDto;
  onBooked: (booked: { account: string; amount: string }) => void;
}) {
  const { t } = useI18n();
  const other = item.transfer!;
  const tx = item.transaction;
  const book = useAction(async () => {
    const [from, to] = tx.type === 'debit' ? [tx.id, other.transaction.id] : [other.transaction.id, tx.id];
    await bookTransfer(from, to);
    onBooked({ account: other.account_name, amount: tx.amount });
  });
  return (
    <div className="transfer-offer notice" role="group" aria-label={t('transfer.group', { name: tx.description })}>
      <p>
        {t(tx.type === 'debit' ? 'transfer.toAccount' : 'transfer.fromAccount', { account: other.account_name })}{' '}
        <span className="muted">
          “{other.transaction.description}”, {other.transaction.date}, <Amount value={other.transaction.amount} />{' '}
          {other.transaction.currency}
        </span>
      </p>
      <button
        type="button"
        className="primary"
        disabled={book.busy}
        aria-label={t('transfer.bookLabel', { name: tx.description, account: other.account_name })}
        onClick={() => void book.run()}
      >
        {t('transfer.book')}
      </button>
      <ErrorNotice error={book.error} onDismiss={book.clearError} />
    </div>
  );
}
