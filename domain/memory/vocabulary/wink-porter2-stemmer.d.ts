/** The Porter2 (Snowball English) stemmer's only export: a lower-case word's stem. */
declare module 'wink-porter2-stemmer' {
  function stem(word: string): string;
  export = stem;
}
