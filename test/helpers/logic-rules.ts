// fast-check generators of JSON Logic rules: a leaf, a list of rules, or an operation given one
// rule or a list of them, nested to a medium depth.
import fc from 'fast-check';

/**
 * Rules whose leaves are `leaf`, whose operations are among `operations`, whose lists hold at
 * most `maxItems` rules (an operation's at most 4), and which may also be any of `more`.
 */
export function logicRule(options: {
  leaf: fc.Arbitrary<unknown>;
  operations: readonly string[];
  maxItems: number;
  more?: fc.Arbitrary<unknown>[];
}): fc.Arbitrary<unknown> {
  return fc.letrec<{ rule: unknown }>((tie) => ({
    rule: fc.oneof(
      { depthSize: 'medium' },
      options.leaf,
      fc.array(tie('rule'), { maxLength: options.maxItems }),
      fc
        .tuple(
          fc.constantFrom(...options.operations),
          fc.oneof(tie('rule'), fc.array(tie('rule'), { maxLength: 4 })),
        )
        .map(([op, values]) => ({ [op]: values })),
      ...(options.more ?? []),
    ),
  })).rule;
}
