import { BankCalendar } from './argentine-calendar';
import { BankOperatingHours, operatingHoursProblem } from './bank-operating-hours';

const buenosAires = (day: number, hours: number, minutes = 0) => Date.UTC(2026, 11, day, hours + 3, minutes);
const hours = BankOperatingHours.parse('08:00-20:00', new BankCalendar(['2026-12-24']));

describe('the bank operating hours', () => {
  it('are open from the opening, included, to the closing, excluded, on business days only', () => {
    expect(hours.isOpen(buenosAires(23, 8) - 1)).toBe(false);
    expect(hours.isOpen(buenosAires(23, 8))).toBe(true);
    expect(hours.isOpen(buenosAires(23, 20) - 1)).toBe(true);
    expect(hours.isOpen(buenosAires(23, 20))).toBe(false);
    // The 24th an extra holiday, the 25th Christmas, then a weekend.
    for (const day of [24, 25, 26, 27]) expect(hours.isOpen(buenosAires(day, 12))).toBe(false);
  });

  it('name the next opening: today before it, else the next business day', () => {
    expect(hours.nextOpeningAt(buenosAires(23, 7))).toBe(buenosAires(23, 8));
    expect(hours.nextOpeningAt(buenosAires(23, 12))).toBe(buenosAires(23, 12));
    expect(hours.nextOpeningAt(buenosAires(23, 20))).toBe(buenosAires(28, 8));
    expect(hours.nextOpeningAt(buenosAires(26, 3))).toBe(buenosAires(28, 8));
  });

  it('close at midnight when told 24:00', () => {
    const late = BankOperatingHours.parse('00:00-24:00', new BankCalendar());
    expect(late.isOpen(buenosAires(23, 23, 59))).toBe(true);
    expect(late.isOpen(buenosAires(26, 12))).toBe(false);
  });

  it.each([
    ['8-20', 'must be a range of times HH:MM-HH:MM, like 08:00-20:00'],
    ['08:00-20:00-21:00', 'must be a range of times HH:MM-HH:MM, like 08:00-20:00'],
    ['08:00-24:30', 'must be a range of times HH:MM-HH:MM, like 08:00-20:00'],
    ['20:00-08:00', 'must open before it closes, got 20:00-08:00'],
  ])('refuse %s, naming the setting and the rule', (text, problem) => {
    expect(operatingHoursProblem(text)).toBe(problem);
    expect(() => BankOperatingHours.parse(text, new BankCalendar())).toThrow(`bankOperatingHours ${problem}`);
  });
});
