// The line diff of a multi-line or long text, as the plan, its markdown and the apply report show
// it: the changed lines marked, one line of context, the rest folded (text-changes.test.ts).
import { describe, expect, it } from 'vitest';
import { textLineDiff } from '../src/views/text-diff.js';

describe('textLineDiff', () => {
  it('marks the changed lines, keeps one line of context, folds the rest, and leaves short one-line values to one line', () => {
    const before = ['Internal use only.', 'a', 'b', 'c', 'Do not share.', 'z'].join('\n');
    const after = ['Internal use only.', 'a', 'b', 'c', 'Do not share outside sales.', 'z'].join(
      '\n',
    );
    expect(textLineDiff(before, after)).toEqual([
      { mark: ' ', text: '…' },
      { mark: ' ', text: 'c' },
      { mark: '-', text: 'Do not share.' },
      { mark: '+', text: 'Do not share outside sales.' },
      { mark: ' ', text: 'z' },
    ]);
    expect(textLineDiff('short', 'other')).toBeUndefined();
    expect(textLineDiff('x'.repeat(150), `${'x'.repeat(149)}y`)).toEqual([
      { mark: '-', text: 'x'.repeat(150) },
      { mark: '+', text: `${'x'.repeat(149)}y` },
    ]);
    // OpenMetadata's terms of use are {content}.
    expect(textLineDiff({ content: 'a\nb' }, { content: 'a\nc' })).toEqual([
      { mark: ' ', text: 'a' },
      { mark: '-', text: 'b' },
      { mark: '+', text: 'c' },
    ]);
    expect(textLineDiff('short', undefined)).toBeUndefined();
  });

  it('shows a list too long for one line as its items, and an object as its keys, one a line, whole', () => {
    const columns = [
      { name: 'order_id', dataType: 'BIGINT', description: 'x'.repeat(120) },
      { name: 'amount', dataType: 'DECIMAL' },
    ];
    expect(textLineDiff(undefined, columns)).toEqual([
      { mark: '+', text: JSON.stringify(columns[0]) },
      { mark: '+', text: '{"name":"amount","dataType":"DECIMAL"}' },
    ]);
    expect(textLineDiff(columns[0], undefined)).toEqual([
      { mark: '-', text: 'name: "order_id"' },
      { mark: '-', text: 'dataType: "BIGINT"' },
      { mark: '-', text: `description: "${'x'.repeat(120)}"` },
    ]);
    expect(textLineDiff(undefined, [{ name: 'a' }])).toBeUndefined();
  });
});
