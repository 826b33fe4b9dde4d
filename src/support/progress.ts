// What a long run tells about its items as it goes (for a progress display): each item's start
// and end, and the total once it is known. Modules that do the work take these hooks; only the
// command line draws them.

export interface ProgressHooks {
  /** `item` is now in flight (a request sent for it). */
  begin(item: string): void;
  /** `item` is done, however it ended. */
  end(item: string): void;
  /** How many items there are, when that is learnt along the way (a paged list's total). */
  total?(count: number): void;
}

/** Runs `work` for `item` between `begin` and `end`, however it ends. */
export async function track<T>(
  hooks: ProgressHooks | undefined,
  item: string,
  work: () => Promise<T>,
): Promise<T> {
  hooks?.begin(item);
  try {
    return await work();
  } finally {
    hooks?.end(item);
  }
}
