// The order a plan reads its files in (src/read/reading-order.ts): a file whose contract the
// list holds first; while the walk goes on, no file it does not hold yet; once it ends, the rest
// in the order they came.
import { describe, expect, it } from 'vitest';
import type { ContractFile } from '../src/contract/parse.js';
import { FileFeed } from '../src/read/file-feed.js';
import type { LiveReads } from '../src/read/live-reads.js';
import { ReadingOrder } from '../src/read/reading-order.js';

const fileOf = (name: string) => ({ identity: { fullyQualifiedName: name } }) as ContractFile;

/** A walk of the list played by hand: what it holds, whether it waits or goes on. */
function walk() {
  const state = { held: new Set<string>(), holding: false, walking: true };
  let told: (fqns: readonly string[]) => void = () => undefined;
  const reads: LiveReads = {
    read: () => Promise.reject(new Error('not read here')),
    notes: [],
    listed: {
      holds: (fqn) => state.held.has(fqn),
      holding: () => state.holding,
      walking: () => state.walking,
      onListed: (listener) => {
        told = listener;
      },
      changed: () => new Promise(() => undefined),
      everyListed: () => Promise.resolve(undefined),
    },
  };
  const page = (...fqns: string[]) => {
    for (const fqn of fqns) state.held.add(fqn);
    told(fqns);
  };
  return { state, reads, page };
}

describe('the reading order', () => {
  it('reads first the files whose contracts the list holds, as they come', () => {
    const feed = new FileFeed();
    const { state, reads, page } = walk();
    const order = new ReadingOrder(feed, reads);
    for (const [place, name] of ['a', 'b', 'c', 'd'].entries()) feed.push(fileOf(name), place);
    // Nothing listed yet, the walk goes on: wait.
    expect(order.take()).toBe('wait');
    page('c', 'x');
    expect(order.take()).toEqual({ index: 2 });
    expect(order.take()).toBe('wait');
    // A file that comes when the list already holds its contract.
    state.held.add('e');
    feed.push(fileOf('e'), 4);
    expect(order.take()).toEqual({ index: 4 });
    // The walk ends: the rest in the order they came.
    state.walking = false;
    expect([order.take(), order.take(), order.take()]).toEqual([
      { index: 0 },
      { index: 1 },
      { index: 3 },
    ]);
    expect(order.take()).toBe('none');
  });

  it('once every file is here and the walk waits, reads on in order (what it holds, no file names)', () => {
    const feed = new FileFeed();
    const { state, reads } = walk();
    const order = new ReadingOrder(feed, reads);
    feed.push(fileOf('a'), 0);
    state.holding = true;
    expect(order.take()).toBe('wait');
    feed.close();
    expect(order.take()).toEqual({ index: 0 });
  });

  it('read by name (no list): in the order they came', () => {
    const feed = FileFeed.of([fileOf('a'), fileOf('b')]);
    const order = new ReadingOrder(feed, { read: () => Promise.reject(new Error('')), notes: [] });
    expect([order.take(), order.take(), order.take()]).toEqual([
      { index: 0 },
      { index: 1 },
      'none',
    ]);
  });
});
