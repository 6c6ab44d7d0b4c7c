/** Months as `YYYY-MM` text. */
export function addMonths(month: string, months: number): string {
  const [y, m] = month.split('-').map(Number) as [number, number];
  const index = y * 12 + (m - 1) + months;
  return `${String(Math.floor(index / 12)).padStart(4, '0')}-${String((index % 12) + 1).padStart(2, '0')}`;
}

/** The same day `months` later, or the last day of a shorter month (the schedules' month-end rule). */
export function sameDayMonthsLater(date: string, months: number): string {
  const month = addMonths(date.slice(0, 7), months);
  const [y, m] = month.split('-').map(Number) as [number, number];
  const last =
    new Date(Date.UTC(2000, m, 0)).getUTCDate() -
    (m === 2 && !(y % 4 === 0 && (y % 100 !== 0 || y % 400 === 0)) ? 1 : 0);
  return `${month}-${String(Math.min(Number(date.slice(8, 10)), last)).padStart(2, '0')}`;
}
