// The files a plan reads, handed over as they validate: planning reads each one's live contract
// while the rest still load, and the plan lists its changes in path order all the same. Nothing
// is written from a feed that did not close: the loader closes it only when every file is valid,
// and aborts it otherwise (plan-pipeline.ts).
import type { ContractFile } from '../contract/parse.js';

export class FileFeed {
  /** The files, in the order they were handed over (the order of arrival, not of paths). */
  readonly files: ContractFile[] = [];
  /** Each file's place in path order, by its index in `files`. */
  private readonly places: number[] = [];
  private arrived!: () => void;
  private arrival: Promise<void>;
  private completed!: (files: readonly ContractFile[]) => void;
  /** Every file, in path order, once the feed is closed; none when it was aborted. */
  readonly complete: Promise<readonly ContractFile[]>;
  private state: 'open' | 'closed' | 'aborted' = 'open';

  constructor() {
    this.arrival = this.nextArrival();
    this.complete = new Promise((resolve) => {
      this.completed = resolve;
    });
  }

  /** A feed of files all at hand, in their order, closed. */
  static of(files: readonly ContractFile[]): FileFeed {
    const feed = new FileFeed();
    files.forEach((file, place) => feed.push(file, place));
    feed.close();
    return feed;
  }

  /** Hands `file` over; `place` is its index in path order. */
  push(file: ContractFile, place: number): void {
    if (this.state !== 'open') throw new Error('a file handed to a feed that is not open');
    this.files.push(file);
    this.places.push(place);
    this.wake();
  }

  /** No file follows: every one was valid and handed over. */
  close(): void {
    if (this.state !== 'open') return;
    this.state = 'closed';
    this.completed(this.inPathOrder(this.files));
    this.wake();
  }

  /** No file follows, and the plan is given up (a file was invalid): nothing more is read. */
  abort(): void {
    if (this.state !== 'open') return;
    this.state = 'aborted';
    this.completed([]);
    this.wake();
  }

  get closed(): boolean {
    return this.state !== 'open';
  }

  get aborted(): boolean {
    return this.state === 'aborted';
  }

  /** Resolves when a file is handed over, or the feed closes or aborts. */
  more(): Promise<void> {
    return this.state === 'open' ? this.arrival : Promise.resolve();
  }

  /** `items`, one per file by its index in `files`, put in path order. */
  inPathOrder<T>(items: readonly T[]): T[] {
    const indexes = this.places.map((_, index) => index);
    indexes.sort((a, b) => this.places[a]! - this.places[b]!);
    return indexes.map((index) => items[index]!);
  }

  private nextArrival(): Promise<void> {
    return new Promise((resolve) => {
      this.arrived = resolve;
    });
  }

  private wake(): void {
    const wake = this.arrived;
    this.arrival = this.nextArrival();
    wake();
  }
}
