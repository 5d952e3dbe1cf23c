/**
 * Work on one DuckDB connection, one piece at a time: two statements sent at once on one connection
 * can answer each other's rows (a SUM read as NULL was seen), and a session's default layer is its
 * connection's. Used by every session the warehouse hands out (`withQuerySession`, `openReadSession`).
 */

/** Runs each task given after the one before has settled, in the order given; a failure stops none. */
export function oneAtATime(): <T>(task: () => Promise<T>) => Promise<T> {
  let previous: Promise<unknown> = Promise.resolve();
  return <T>(task: () => Promise<T>): Promise<T> => {
    const answer = previous.then(task, task);
    previous = answer.catch(() => undefined);
    return answer;
  };
}
