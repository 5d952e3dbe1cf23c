import { chooseGrain, spanDays } from '../../shared/chart-grain';

describe('grain by density', () => {
  it('charts four hundred events over five years by month', () => {
    const days = spanDays('2020-01-01', '2024-12-31');
    expect(days).toBe(1827);
    const choice = chooseGrain(400, days);
    expect(choice.grain).toBe('month');
    expect(choice.events_per_bucket).toBeCloseTo(6.7, 1);
    expect(choice.reason).toBe('monthly: about 6.7 events a month (400 over 1,827 days)');
  });

  it('keeps busy facts daily and middling ones weekly', () => {
    expect(chooseGrain(16_044, 267).grain).toBe('day');
    expect(chooseGrain(900, 731).grain).toBe('week');
    expect(chooseGrain(1, 1).grain).toBe('day');
    expect(chooseGrain(3, 20).grain).toBe('week');
    expect(chooseGrain(5, 1).grain).toBe('day');
  });
});
