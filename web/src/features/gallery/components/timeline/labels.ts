/**
 * Section titles of the timeline. Months and days are the UTC calendar month and day of each
 * photo's `sortedAt` (decision 0009), so the labels are built from the UTC date, in the English
 * the rest of the app speaks: "March 2015", "Sat, 14 March".
 */
const MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];
const WEEKDAYS = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];

/** 'YYYY-MM' → [year, month 1–12]. */
export function parseMonth(month: string): [number, number] {
  return [Number(month.slice(0, 4)), Number(month.slice(5, 7))];
}

/** '2015-03' → 'March 2015'. */
export function monthLabel(month: string): string {
  const [year, number] = parseMonth(month);
  return `${MONTHS[number - 1] ?? month} ${year}`;
}

/** '2015-03' → 'Mar 2015', where room is short. */
export function shortMonthLabel(month: string): string {
  const [year, number] = parseMonth(month);
  return `${MONTHS[number - 1]?.slice(0, 3) ?? month} ${year}`;
}

/** ('2015-03', 14) → 'Sat, 14 March'. */
export function dayLabel(month: string, day: number): string {
  const [year, number] = parseMonth(month);
  const weekday = WEEKDAYS[new Date(Date.UTC(year, number - 1, day)).getUTCDay()];
  return `${weekday}, ${day} ${MONTHS[number - 1]}`;
}

const thousands = new Intl.NumberFormat('en-GB');

/** 1234 → '1,234 photos'; 1 → '1 photo'. */
export function photosLabel(count: number): string {
  return `${thousands.format(count)} ${count === 1 ? 'photo' : 'photos'}`;
}

/** The UTC day of the month of an ISO instant. */
export function utcDayOf(instant: string): number {
  return new Date(instant).getUTCDate();
}
