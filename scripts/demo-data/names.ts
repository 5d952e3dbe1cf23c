/** Invented people and company names shared by the generators (common given names and surnames). */
import type { SeededRandom } from './random';

/** Splits a space-separated word list (keeps long lists readable under prettier). */
export function words(list: string): string[] {
  return list.trim().split(/\s+/);
}

export const FIRST_NAMES = words(`
  Aaron Abigail Adam Aisha Alan Alice Amara Amy Andre Anna Ben Beatriz Carlos Carmen Chen Chloe Daniel
  Dana David Diego Elena Eli Emma Ethan Farah Felix Fiona Gabriel Grace Hana Harper Hugo Ines Isaac Ivy
  Jack Jade James Jana Jonas Julia Kai Kenji Laura Leo Lina Lucas Maya Mateo Mia Nadia Nathan Nora Omar
  Olivia Oscar Priya Quinn Rafael Rosa Ruth Sam Sara Sofia Tariq Tessa Theo Uma Victor Vera Wei Willow
  Xavier Yara Yusuf Zoe`);

export const LAST_NAMES = words(`
  Adams Ahmed Alvarez Baker Bauer Bennett Brooks Campbell Chang Clarke Cohen Cruz Dubois Evans Fischer
  Flores Foster Garcia Grant Gupta Hansen Harris Hayes Hughes Ito Jensen Khan Kim Kowalski Larsen Lee Lopez
  Martin Meyer Miller Moreau Murphy Nakamura Nguyen Novak Okafor Olsen Patel Perez Quinn Reyes Rossi Santos
  Schmidt Silva Singh Sullivan Tanaka Torres Turner Walker Wang Weber Wilson Wright Young Zhang`);

const COMPANY_WORDS = words(`
  Alder Beacon Birch Bright Cedar Clear Copper Crest Delta Ember Falcon Fern Harbor Juniper Keystone Lark
  Maple Meridian Nimbus Oak Orchid Pine Quarry Raven Sable Signal Slate Spruce Summit Tidal Vale Willow`);

const COMPANY_SUFFIXES = words('Labs Works Systems Partners Group Studio Co Trading');

export interface PersonName {
  first: string;
  last: string;
}

/** A random first and last name. */
export function personName(rng: SeededRandom): PersonName {
  return { first: rng.pick(FIRST_NAMES), last: rng.pick(LAST_NAMES) };
}

/** A unique e-mail address on a reserved domain (example.com/.net/.org never reach a real inbox). */
export function emailAddress(name: PersonName, uniqueNumber: number, domain = 'example.com'): string {
  return `${name.first}.${name.last}${uniqueNumber}@${domain}`.toLowerCase();
}

/** A random two-word company name, e.g. "Cedar Labs". */
export function companyName(rng: SeededRandom): string {
  return `${rng.pick(COMPANY_WORDS)} ${rng.pick(COMPANY_SUFFIXES)}`;
}
