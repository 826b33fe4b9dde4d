// ISO 8601 durations (the contract file's form) and OpenMetadata's `{amount, unit}` form of the
// same SLA values. A duration maps only when a unit the field allows expresses it exactly.

export type DurationUnit = 'minute' | 'hour' | 'day' | 'week' | 'month' | 'year';

/** Minutes in each unit of fixed length; months and years are calendar units. */
const MINUTES: Partial<Record<DurationUnit, number>> = {
  minute: 1,
  hour: 60,
  day: 1440,
  week: 10_080,
};

const DURATION =
  /^P(?!$)(?:(\d+)Y)?(?:(\d+)M)?(?:(\d+)W)?(?:(\d+)D)?(?:T(?=\d)(?:(\d+)H)?(?:(\d+)M)?(?:(\d+(?:\.\d+)?)S)?)?$/;

/** `12 hour` as the file writes it: `PT12H`. */
export function durationText(amount: number, unit: DurationUnit): string {
  switch (unit) {
    case 'minute':
      return `PT${amount}M`;
    case 'hour':
      return `PT${amount}H`;
    case 'day':
      return `P${amount}D`;
    case 'week':
      return `P${amount}W`;
    case 'month':
      return `P${amount}M`;
    case 'year':
      return `P${amount}Y`;
  }
}

export type UnitsResult =
  | { ok: true; amount: number; unit: DurationUnit }
  | { ok: false; why: string; suggestions: string[] };

/**
 * `text` as a whole number of one of `allowed` units (given shortest first): the unit it is
 * written in when that is allowed (PT24H stays 24 hours), else the longest allowed unit, no
 * longer than the shortest one written, that holds it exactly.
 */
export function toUnits(text: string, allowed: readonly DurationUnit[]): UnitsResult {
  const match = DURATION.exec(text);
  if (match === null) return { ok: false, why: 'it is not an ISO 8601 duration', suggestions: [] };
  const count = (index: number): number => (match[index] === undefined ? 0 : Number(match[index]));
  const [years, months, weeks, days, hours, minutes] = [1, 2, 3, 4, 5, 6].map(count) as [
    number,
    number,
    number,
    number,
    number,
    number,
  ];
  const seconds = match[7] === undefined ? 0 : Number(match[7]);
  const names = allowed.join(', ');
  const components: [DurationUnit, number][] = [
    ['year', years],
    ['month', months],
    ['week', weeks],
    ['day', days],
    ['hour', hours],
    ['minute', minutes],
  ];
  const written = components.filter(([, amount]) => amount > 0);
  if (seconds === 0 && written.length === 1 && allowed.includes(written[0]![0]))
    return { ok: true, amount: written[0]![1], unit: written[0]![0] };
  if (written.length === 0 && seconds === 0)
    return { ok: false, why: 'it is zero', suggestions: [] };
  const calendar = years > 0 || months > 0;
  const fixed = weeks + days + hours + minutes + seconds > 0;
  if (calendar && fixed)
    return {
      ok: false,
      why: 'it mixes years or months with shorter units, which have no fixed length together',
      suggestions: [],
    };
  if (calendar) {
    const total = years * 12 + months;
    if (allowed.includes('month')) return { ok: true, amount: total, unit: 'month' };
    return { ok: false, why: `the units here are ${names}`, suggestions: [] };
  }
  const totalMinutes = weeks * 10_080 + days * 1440 + hours * 60 + minutes + seconds / 60;
  const fixedUnits = allowed.filter((unit) => MINUTES[unit] !== undefined);
  // The largest allowed unit no longer than the shortest one written (P1W as 7 days, P1DT12H as
  // 36 hours) that holds the duration exactly.
  const shortestWritten = seconds > 0 ? 1 / 60 : MINUTES[written.at(-1)![0]]!;
  for (const unit of [...fixedUnits].reverse()) {
    const size = MINUTES[unit]!;
    if (size <= shortestWritten && Number.isInteger(totalMinutes / size))
      return { ok: true, amount: totalMinutes / size, unit };
  }
  const smallest = fixedUnits[0];
  if (smallest === undefined)
    return { ok: false, why: `the units here are ${names}`, suggestions: [] };
  const size = MINUTES[smallest]!;
  const below = Math.floor(totalMinutes / size);
  const suggestions = [below, below + 1]
    .filter((amount) => amount > 0)
    .map((amount) => durationText(amount, smallest));
  return {
    ok: false,
    why: `it is not a whole number of ${fixedUnits.map((unit) => `${unit}s`).join(', ')}`,
    suggestions,
  };
}
