/**
 * The help commander prints for `--help` (or `-h`) at any depth (cli-program.ts): the usage of that
 * command, narrowed to the subcommand when one is named (`plat index bootstrap --help`).
 */

/** The usage lines of `words` (`['index', 'bootstrap']`): each entry that starts with them, with its continuation lines. */
export function usageFor(usage: string, words: string[]): string {
  for (let n = words.length; n > 0; n--) {
    const prefix = `  ${words.slice(0, n).join(' ')}`;
    const lines = usage.split('\n');
    const picked: string[] = [];
    let inEntry = false;
    for (const line of lines) {
      // An entry starts two spaces in; its continuation lines are indented further.
      const startsEntry = /^ {2}\S/.test(line);
      if (startsEntry)
        inEntry = line === prefix || line.startsWith(`${prefix} `) || line.startsWith(`${prefix}|`);
      if (inEntry) picked.push(line);
    }
    if (picked.length) return picked.join('\n');
  }
  return usage;
}
