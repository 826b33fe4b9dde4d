// The order a plan reads its files' live contracts in: each file as it arrives, except that a
// file whose contract the catalog's list holds now is read first. The list comes in the catalog's
// order (by name), the files in path order, which need not agree: the walk holds at most MAX_HELD
// contracts (listed-contracts.ts) and waits until they are read, and while it waits a file it
// does not hold would be read by name. So files the list holds go first, and while the walk goes
// on, a file it does not hold yet waits; once it ends, the rest (creates, contracts only
// inherited) are read by name. The plan lists its changes in path order whatever order they were
// read in.
import type { FileFeed } from './file-feed.js';
import type { LiveReads } from './live-reads.js';

/** What a reader of the plan does next: read the file at `index`, wait, or stop (none left now). */
export type NextRead = { index: number } | 'wait' | 'none';

export class ReadingOrder {
  /** The next file in arrival order not read yet. */
  private next = 0;
  /** Files seen so far (their contracts' names indexed). */
  private indexed = 0;
  private readonly taken = new Set<number>();
  /** Files arrived and not read yet, by their contract's name. */
  private readonly pending = new Map<string, number>();
  /** Files whose contract the list holds, to read first. */
  private readonly first: number[] = [];

  constructor(
    private readonly feed: FileFeed,
    private readonly reads: LiveReads,
  ) {
    reads.listed?.onListed((fqns) => {
      for (const fqn of fqns) {
        const index = this.pending.get(fqn);
        if (index === undefined) continue;
        this.pending.delete(fqn);
        this.first.push(index);
      }
    });
  }

  /** The next file to read; `wait` for a file or a page to come first; `none` for now. */
  take(): NextRead {
    this.index();
    for (let index = this.first.pop(); index !== undefined; index = this.first.pop())
      if (!this.taken.has(index)) return this.start(index);
    // While the walk goes on, a file it does not hold yet waits for a page or a file to come:
    // started, it would wait for its page while the pages bring others, and once the walk waits
    // to be read, be read by name. Unless every file is here and the walk waits: then the files
    // it holds were read, and what it still holds no file names (let go once the files are known).
    const listed = this.reads.listed;
    if (listed?.walking() === true && !(listed.holding() && this.feed.closed)) return 'wait';
    while (this.next < this.indexed && this.taken.has(this.next)) this.next += 1;
    return this.next < this.indexed ? this.start(this.next) : 'none';
  }

  /** Resolves when a file arrives or the walk changes (what `wait` waits for). */
  changed(): Promise<void> {
    const listed = this.reads.listed;
    if (listed === undefined) return this.feed.more();
    // A closed feed brings nothing more: only the walk can change then.
    return this.feed.closed ? listed.changed() : Promise.race([this.feed.more(), listed.changed()]);
  }

  private start(index: number): { index: number } {
    this.taken.add(index);
    const fqn = this.feed.files[index]!.identity.fullyQualifiedName;
    if (this.pending.get(fqn) === index) this.pending.delete(fqn);
    return { index };
  }

  private index(): void {
    for (; this.indexed < this.feed.files.length; this.indexed += 1) {
      const fqn = this.feed.files[this.indexed]!.identity.fullyQualifiedName;
      if (this.reads.listed?.holds(fqn) === true) this.first.push(this.indexed);
      else this.pending.set(fqn, this.indexed);
    }
  }
}
