// The differential check of the two ways a contract file is read: js-yaml's fast path and the
// positional parser (the yaml package) must give the same answer.
import { expect } from 'vitest';
import { positionOf, type parseContract } from '../../src/contract/parse.js';

/**
 * Same validity and problems; for a valid file the same contract, what names it, its format, and
 * the same position for every top-level field and every list item's name.
 */
export function expectSameAnswer(
  fast: ReturnType<typeof parseContract>,
  slow: ReturnType<typeof parseContract>,
): void {
  expect(fast.ok).toBe(slow.ok);
  if (!fast.ok || !slow.ok) {
    expect(fast).toEqual(slow);
    return;
  }
  const { contract, identity, format, versioned, unnamed } = fast.value;
  expect({ contract, identity, format, versioned, unnamed }).toEqual({
    contract: slow.value.contract,
    identity: slow.value.identity,
    format: slow.value.format,
    versioned: slow.value.versioned,
    unnamed: slow.value.unnamed,
  });
  const pointers = Object.entries(contract).flatMap(([key, value]) => [
    `/${key}`,
    ...(Array.isArray(value) ? value.map((_item, i) => `/${key}/${i}/name`) : []),
  ]);
  for (const pointer of pointers)
    expect([pointer, positionOf(fast.value, pointer)]).toEqual([
      pointer,
      positionOf(slow.value, pointer),
    ]);
}
