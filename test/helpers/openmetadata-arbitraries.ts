// Generated values in OpenMetadata's stored shapes, for the codec's properties and the convergence
// property under the openmetadata profile.
import fc from 'fast-check';

/** A wire value in OpenMetadata's shapes for every field the codec translates. */
export const wireArb = fc.record(
  {
    sla: fc.record(
      {
        refreshFrequency: fc.record({
          interval: fc.integer({ min: 1, max: 500 }),
          unit: fc.constantFrom('hour', 'day', 'week', 'month', 'year'),
        }),
        maxLatency: fc.record({
          value: fc.integer({ min: 1, max: 500 }),
          unit: fc.constantFrom('minute', 'hour', 'day'),
        }),
        retention: fc.record({
          period: fc.integer({ min: 1, max: 500 }),
          unit: fc.constantFrom('day', 'week', 'month', 'year'),
        }),
        availabilityTime: fc.constantFrom('09:00 UTC', '06:30'),
        timezone: fc.constantFrom('GMT+01:00 (Europe/Paris)', 'GMT+00:00 (Europe/London)'),
        columnName: fc.constantFrom('updated_at', 'loaded_at'),
      },
      { requiredKeys: [] },
    ),
    termsOfUse: fc.record({ content: fc.string() }),
    security: fc.record(
      {
        dataClassification: fc.constantFrom('Confidential', 'Public'),
        policies: fc.uniqueArray(
          fc.record(
            {
              accessPolicy: fc.string({ minLength: 1 }),
              identities: fc.array(fc.string()),
              rowFilters: fc.array(
                fc.record({
                  columnName: fc.string({ minLength: 1 }),
                  values: fc.array(fc.string()),
                }),
              ),
            },
            { requiredKeys: ['accessPolicy'] },
          ),
          { selector: (p) => p.accessPolicy, maxLength: 3 },
        ),
      },
      { requiredKeys: [] },
    ),
    // Read back sorted by name (then type), as OpenMetadata answers relationships.
    owners: fc
      .uniqueArray(
        fc
          .record({ type: fc.constantFrom('user', 'team'), name: fc.string({ minLength: 1 }) })
          .map((ref) => ({ ...ref, fullyQualifiedName: ref.name })),
        { selector: (r) => `${r.type}/${r.name}`, maxLength: 3 },
      )
      .map((refs) =>
        refs.sort((a, b) =>
          a.name === b.name ? (a.type < b.type ? -1 : 1) : a.name < b.name ? -1 : 1,
        ),
      ),
    qualityExpectations: fc.uniqueArray(
      fc.record({ fullyQualifiedName: fc.string({ minLength: 1 }), type: fc.constant('testCase') }),
      { selector: (r) => r.fullyQualifiedName, maxLength: 3 },
    ),
  },
  { requiredKeys: [] },
);
