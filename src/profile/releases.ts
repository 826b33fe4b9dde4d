// What the tool knows of the OpenMetadata releases it speaks (1.10.0 to 2.0.9) where they differ
// for it, each fact with the release range and where it comes from. The sandbox plays the same
// facts on its own side (packages/sandbox/src/release.ts), written apart so that it can catch a
// mistake here.

/** A release as the catalog reports it (`GET /v1/system/version`), or null when it did not say. */
export type ReleaseVersion = string | null;

type Triple = readonly [number, number, number];

/** `1.13.0` (or `v1.13`, `1.13.0-SNAPSHOT`) as numbers; null for what is not such a number. */
export function releaseNumbers(version: ReleaseVersion): Triple | null {
  const match = version === null ? null : /^v?(\d+)\.(\d+)(?:\.(\d+))?/.exec(version.trim());
  return match === null ? null : [Number(match[1]), Number(match[2]), Number(match[3] ?? 0)];
}

function compare(a: Triple, b: Triple): number {
  return a[0] - b[0] || a[1] - b[1] || a[2] - b[2];
}

function atLeast(version: ReleaseVersion, floor: Triple): boolean | null {
  const numbers = releaseNumbers(version);
  return numbers === null ? null : compare(numbers, floor) >= 0;
}

/**
 * Whether a PATCH carrying `If-Match` loses its contract changes on this release: from 1.10.0 to
 * 1.13.0 the optimistic-locking path builds the generic entity updater, not the data contract's,
 * so a change only to entityStatus, sla, termsOfUse, security, schema, semantics or
 * qualityExpectations is answered 200 at the old version and never stored
 * (open-metadata/OpenMetadata#28876; fixed by #28837 in 1.13.1). A release that does not say
 * which it is may be one of those, so If-Match is not sent to it either: the patch's own `test`
 * guards (the version and the last update's time, beside every value it overwrites) protect it.
 */
export function dropsChangesUnderIfMatch(version: ReleaseVersion): boolean {
  return atLeast(version, [1, 13, 1]) !== true;
}

/**
 * Whether this release's strong ETag hashes the answer's body (2.0.0 on: open-metadata/OpenMetadata#30497,
 * in 2.0 by #30502) rather than "<version>-<updatedAt>" (1.x, EntityETag.generateETag). A release
 * that does not say is taken as new.
 */
export function hashesAnswerForEtag(version: ReleaseVersion): boolean {
  return atLeast(version, [2, 0, 0]) !== false;
}

/** `Archived` exists from 1.13.0 on (its release notes); a release that does not say is taken as new. */
export function storesArchived(version: ReleaseVersion): boolean {
  return atLeast(version, [1, 13, 0]) !== false;
}

/**
 * Whether this release strips an ODCS-imported contract's passthrough (`odcsElementExtensions`)
 * on any update that is not an ODCS import: 2.0.0 only (fixed in 2.0.1, open-metadata/OpenMetadata#31145).
 */
export function stripsOdcsPassthrough(version: ReleaseVersion): boolean {
  const numbers = releaseNumbers(version);
  return numbers !== null && compare(numbers, [2, 0, 0]) === 0;
}

/**
 * The newest release of each line the tool knows (1.13.7 was in pre-release on 25 November 2026,
 * 2.0.9 came out on 20 November 2026); 1.10 to 1.12 are known whole.
 */
const NEWEST_OF_LINE: ReadonlyMap<string, number> = new Map([
  ['1.10', Infinity],
  ['1.11', Infinity],
  ['1.12', Infinity],
  ['1.13', 7],
  ['2.0', 9],
]);

/** The newest release the tool knows, whose behaviour a newer one is planned with. */
export const NEWEST_KNOWN_RELEASE = '2.0.9';

/** The releases the tool knows, as a sentence names them. */
export const KNOWN_RELEASES_TEXT = '1.10.0 to 1.13.7 and 2.0.0 to 2.0.9';

/**
 * Whether `version` is a release newer than the tool knows (2.0.10, 2.1.0-rc2, 1.13.8, 3.0.0): it
 * is planned with the behaviour of the newest known (every range above is open at its top, so a
 * later release has what 2.0.9 has), and said once. Null (a release that does not say) is not.
 */
export function newerThanKnown(version: ReleaseVersion): boolean {
  const numbers = releaseNumbers(version);
  if (numbers === null || compare(numbers, [1, 10, 0]) < 0) return false;
  const newest = NEWEST_OF_LINE.get(`${numbers[0]}.${numbers[1]}`);
  return newest === undefined ? true : numbers[2] > newest;
}

/** The note a run gives once for a release newer than the tool knows; undefined for one it knows. */
export function newerReleaseNote(version: ReleaseVersion): string | undefined {
  return newerThanKnown(version)
    ? `${releaseName(version)} is newer than the releases this tool knows (${KNOWN_RELEASES_TEXT}): it is planned as ${NEWEST_KNOWN_RELEASE} behaves; \`contracts doctor\` checks what it serves`
    : undefined;
}

/** The release as a sentence names it: "OpenMetadata 1.12.2", or "this OpenMetadata release". */
export function releaseName(version: ReleaseVersion): string {
  return version === null ? 'this OpenMetadata release' : `OpenMetadata ${version.trim()}`;
}
