import { createSchedule, type JournalEntryDto } from '../api/index.ts';
import { ErrorNotice } from './error-notice.tsx';
import { useAction } from '../hooks/use-action.ts';
import { useI18n } from '../i18n/index.ts';
import { today } from '../dates.ts';
import { sameDayMonthsLater } from '../months.ts';

/** The entry's day of month, in the first month after today that has it (or its last day). */
function nextMonthlyDate(date: string): string {
  const now = today();
  const months =
    (Number(now.slice(0, 4)) - Number(date.slice(0, 4))) * 12 + Number(now.slice(5, 7)) - Number(date.slice(5, 7));
  const candidate = sameDayMonthsLater(date, Math.max(1, months));
  return candidate > now ? candidate : sameDayMonthsLater(date, Math.max(1, months) + 1);
}

/** Makes a monthly schedule of an entry in one action: the same lines (costs too), on its day of the month from the next one on. */
export function RepeatEntryButton({ entry, onDone }: { entry: JournalEntryDto; onDone: () => void }) {
  const { t } = useI18n();
  const repeat = useAction(async () => {
    await createSchedule({
      name: (entry.memo || t('entry.noMemo')).slice(0, 100),
      memo: entry.memo,
      // the lines as typed: an exchange's automatic lines are made anew for each booked entry
      lines: entry.lines
        .filter((l) => !l.automatic)
        .map((l) => ({
          account_id: l.account_id,
          direction: l.direction,
          amount: l.amount,
          currency: l.currency,
          cost: l.cost,
        })),
      frequency: 'monthly',
      start_date: nextMonthlyDate(entry.entry_date),
      auto_post: entry.status === 'posted',
    });
    onDone();
  });
  return (
    <>
      <button
        type="button"
        title={t('schedules.fromEntryHint')}
        disabled={repeat.busy}
        onClick={() => void repeat.run()}
      >
        {t('schedules.fromEntry')}
      </button>
      <ErrorNotice error={repeat.error} onDismiss={repeat.clearError} />
    </>
  );
}
