// The OpenMetadata release the sandbox plays under `--profile openmetadata` (2.0.9 unless told):
// what its version endpoint answers, its ETags, and each behaviour that differs from release to
// release, written once below (RELEASE_BEHAVIOURS) with its range and where it comes from.
//
// Every GET answer with an entity carries a strong ETag, 16 hex digits of a SHA-256 in quotes
// (EntityETag.generateETag); PATCH answers carry none (ETagResponseFilter is GET-only). Up to 1.x
// it hashes "<version>-<updatedAt>", the same whatever fields were asked for. From 2.0 on it
// hashes the answer's body (open-metadata/OpenMetadata#30497), so it moves with anything in the
// answer; but a PATCH weighs If-Match against the entity as the server loads it for the PATCH,
// with its own fields and without the `href` only answers carry, so the strong ETag of a read
// never matches there (open-metadata/OpenMetadata#30885). Every release also takes the weak
// validator `W/"<version>"`, the version as Java writes a Double (1.0, 0.3), and `*`; If-Match may
// list several, comma-separated, any one of which will do.
//
// Behaviours of every release, played where they happen: a PATCH carrying If-Match is never
// folded into the user's ten-minute session (versioning.ts); a PATCH answer's changeDescription is
// this request's own; a failed JSON-Patch `test` is an unmapped JsonException, a 500
// (contracts.ts); a change only to a column's description or tags counts as no change and is not
// stored (change-description.ts).
import { createHash } from 'node:crypto';
import { ApiError, type Json } from './http.js';
import { typeAnswer } from './custom-properties.js';
import { rulesFor } from './asset-rules.js';
import type { ContractResource, Seed } from './seed.js';

/** The release the sandbox plays when none is given: the newest. */
export const DEFAULT_OPENMETADATA_VERSION = '2.0.9';

type Triple = readonly [number, number, number];

/**
 * The oldest release the sandbox plays: 1.10, the first whose data contracts have entityStatus,
 * sla, termsOfUse and security (before it they stored `status`). The tool's openmetadata profile
 * starts there too, on its own side (src/profile/profile.ts).
 */
const FIRST_PLAYED: Triple = [1, 10, 0];

/**
 * The newest release of each line the sandbox plays: 1.13.7 (in pre-release on 25 November 2026)
 * and 2.0.9 (20 November 2026), the newest out; 1.10 to 1.12 are played whole. A release of
 * another line (2.1.0-rc2, 3.0.0), or newer than these, is not known, so not played.
 */
const NEWEST_OF_LINE: ReadonlyMap<string, number> = new Map([
  ['1.10', Infinity],
  ['1.11', Infinity],
  ['1.12', Infinity],
  ['1.13', 7],
  ['2.0', 9],
]);

/** The releases played, as the sandbox's errors name them. */
const PLAYED_TEXT = '1.10.0 to 1.13.7 and 2.0.0 to 2.0.9';

/**
 * A behaviour some releases have: the first and last release known to have it, and its source.
 * Where upstream leaves it open whether a release has it (a fix merged but named in no release
 * note, two exception mappers either of which may answer), `unconfirmed` gives those releases and
 * which way the sandbox plays them unless told the other way (a variant, `--openmetadata-variant`):
 * the suite runs the tool against both.
 */
interface ReleaseBehaviour {
  from?: Triple;
  until?: Triple;
  source: string;
  unconfirmed?: { from?: Triple; until?: Triple; played: boolean; why: string };
  /** No release is known to have it: only its unconfirmed releases may play it. */
  knownNowhere?: true;
}

/** Which way each unconfirmed behaviour is played, where the release leaves it open. */
export type ReleaseVariants = Partial<Record<ReleaseBehaviourName, boolean>>;

function within(numbers: Triple, range: { from?: Triple; until?: Triple }): boolean {
  return (
    (range.from === undefined || compare(numbers, range.from) >= 0) &&
    (range.until === undefined || compare(numbers, range.until) <= 0)
  );
}

/** What differs from release to release, each written once. */
export const RELEASE_BEHAVIOURS = {
  /**
   * A PATCH carrying If-Match builds the generic entity updater, not the data contract's: a change
   * only to entityStatus, sla, termsOfUse, security, schema, semantics or qualityExpectations is
   * answered 200 at the old version and not stored; mixed with another field the whole document
   * is stored, and changeDescription lists only the other fields.
   */
  ifMatchDropsContractChanges: {
    from: [1, 10, 0],
    until: [1, 13, 0],
    source: 'open-metadata/OpenMetadata#28876 (read at 1.12.6); the fix, #28837, is merged on main',
    unconfirmed: {
      from: [1, 13, 1],
      played: false,
      why: 'no release note of 1.13.1 or later names the fix (#28837)',
    },
  },
  /**
   * A failed JSON-Patch `test` (JSON-P's JsonException, which no mapper of OpenMetadata's takes) is
   * answered 500 by Dropwizard's LoggingExceptionMapper, "There was an error processing your
   * request. It has been logged (ID …).", instead of CatalogGenericExceptionMapper's body with
   * JSON-P's own words. Both catch-alls are registered; which answers is not confirmed.
   */
  genericTestFailureText: {
    knownNowhere: true,
    source:
      'CatalogGenericExceptionMapper, OpenMetadataApplication.registerExceptionMappers (1.12.6)',
    unconfirmed: {
      from: [1, 10, 0],
      played: false,
      why: 'two catch-all exception mappers are registered; which one answers is not confirmed',
    },
  },
  /** The Archived status. */
  archivedStatus: { from: [1, 13, 0], source: 'OpenMetadata 1.13.0 release notes' },
  /** Strong ETags hash the answer's body (else "<version>-<updatedAt>"). */
  contentEtags: { from: [2, 0, 0], source: 'open-metadata/OpenMetadata#30497 (#30502 in 2.0)' },
  /** A create body whose entity name or FQN contradicts its id is refused. */
  createEntityAgrees: {
    knownNowhere: true,
    source: 'DataContractMapper on the main line',
    unconfirmed: {
      from: [2, 0, 0],
      played: true,
      why: 'read in a main-line file; the release that first shipped it is not named',
    },
  },
  /** Any update that is not an ODCS import strips the contract's `odcsElementExtensions`. */
  stripsOdcsPassthrough: {
    from: [2, 0, 0],
    until: [2, 0, 0],
    source: 'OpenMetadata 2.0.1 release notes, open-metadata/OpenMetadata#31145',
    unconfirmed: {
      from: [2, 0, 1],
      played: false,
      why: 'the 2.0.1 notes name the fix; no later source shows which update paths it covers',
    },
  },
  /**
   * `POST /v1/dataContracts/validate`, the server's dry run of a create body. The route is in the
   * sources with contractValidation.json, which 1.13's schemas carry, and its SDK methods came in
   * February 2026 (open-metadata/OpenMetadata#26082); 1.12.0 is the first release taken to have it.
   */
  createDryRun: { from: [1, 12, 0], source: 'DataContractResource.validateDataContractRequest' },
} satisfies Record<string, ReleaseBehaviour>;

export type ReleaseBehaviourName = keyof typeof RELEASE_BEHAVIOURS;

function compare(a: Triple, b: Triple): number {
  return a[0] - b[0] || a[1] - b[1] || a[2] - b[2];
}

/** A number as Java's Double.toString writes a version: 1.0, 0.3, 1.25. */
function javaDouble(value: number): string {
  return Number.isInteger(value) ? value.toFixed(1) : String(value);
}

/** A strong ETag as OpenMetadata writes one: the first 16 hex digits of a SHA-256, in quotes. */
function strongEtag(text: string): string {
  return `"${createHash('sha256').update(text, 'utf8').digest('hex').slice(0, 16)}"`;
}

function withoutHref(entity: Json): Json {
  const { href: _href, ...rest } = entity;
  return rest;
}

/** A variant asked for that this release cannot play (no such behaviour, or one it settles). */
export class ReleaseVariantError extends RangeError {}

export class OpenMetadataRelease {
  private readonly numbers: Triple;

  /**
   * `version` such as 1.13.0; a release before 1.10 (no data contracts as the tool knows them) is
   * refused. `variants` says which way to play a behaviour this release leaves unconfirmed; a
   * variant of a behaviour that is not unconfirmed on this release is refused.
   */
  constructor(
    readonly version: string = DEFAULT_OPENMETADATA_VERSION,
    private readonly variants: ReleaseVariants = {},
  ) {
    const match = /^(\d+)\.(\d+)(?:\.(\d+))?$/.exec(version);
    this.numbers =
      match === null ? [0, 0, 0] : [Number(match[1]), Number(match[2]), Number(match[3] ?? 0)];
    if (compare([this.numbers[0], this.numbers[1], 0], FIRST_PLAYED) < 0)
      throw new RangeError(
        `the OpenMetadata version must be ${FIRST_PLAYED[0]}.${FIRST_PLAYED[1]} or later, written as 1.13.0, got '${version}'`,
      );
    const newest = NEWEST_OF_LINE.get(`${this.numbers[0]}.${this.numbers[1]}`);
    if (newest === undefined || this.numbers[2] > newest)
      throw new RangeError(
        `the sandbox plays OpenMetadata ${PLAYED_TEXT}, whose behaviour is known; got '${version}'`,
      );
    for (const name of Object.keys(variants)) {
      if (!Object.hasOwn(RELEASE_BEHAVIOURS, name))
        throw new ReleaseVariantError(
          `there is no behaviour '${name}'; the behaviours are ${Object.keys(RELEASE_BEHAVIOURS).join(', ')}`,
        );
      if (this.unconfirmedHere(name as ReleaseBehaviourName) === undefined)
        throw new ReleaseVariantError(
          `'${name}' is not unconfirmed on ${version}: it is played as its sources say, and cannot be played the other way`,
        );
    }
  }

  /** The unconfirmed range of `behaviour` when this release is in it. */
  private unconfirmedHere(behaviour: ReleaseBehaviourName) {
    const { unconfirmed } = RELEASE_BEHAVIOURS[behaviour] as ReleaseBehaviour;
    return unconfirmed !== undefined && within(this.numbers, unconfirmed) ? unconfirmed : undefined;
  }

  /** Whether this release has `behaviour` (RELEASE_BEHAVIOURS), as played. */
  has(behaviour: ReleaseBehaviourName): boolean {
    const known = RELEASE_BEHAVIOURS[behaviour] as ReleaseBehaviour;
    if (known.knownNowhere !== true && within(this.numbers, known)) return true;
    const unconfirmed = this.unconfirmedHere(behaviour);
    return unconfirmed === undefined ? false : (this.variants[behaviour] ?? unconfirmed.played);
  }

  /** Each behaviour this release leaves unconfirmed, with the way it is played. */
  unconfirmedPlayed(): Partial<Record<ReleaseBehaviourName, boolean>> {
    const played: Partial<Record<ReleaseBehaviourName, boolean>> = {};
    for (const name of Object.keys(RELEASE_BEHAVIOURS) as ReleaseBehaviourName[])
      if (this.unconfirmedHere(name) !== undefined) played[name] = this.has(name);
    return played;
  }

  /** What `GET /api/v1/system/version` answers. */
  versionAnswer(): Json {
    return { version: this.version, revision: 'sandbox', timestamp: 0 };
  }

  /**
   * What a GET of `/api/v1/<route>` answers that only OpenMetadata serves: the version, the data
   * asset rules in force for an entity type (the seed's, else OpenMetadata's defaults), or an
   * entity type with its custom properties; undefined for other routes.
   */
  systemAnswer(
    route: readonly string[],
    seed: {
      dataAssetRules: Seed['dataAssetRules'] | undefined;
      customProperties: NonNullable<Seed['customProperties']>;
    },
  ): unknown {
    const path = route.join('/');
    if (path === 'system/version') return this.versionAnswer();
    if (/^system\/settings\/entityRulesSettings\/[^/]+$/.test(path))
      return rulesFor(route[3]!, seed.dataAssetRules);
    if (/^metadata\/types\/name\/[^/]+$/.test(path))
      return typeAnswer(route[3]!, seed.customProperties);
    return undefined;
  }

  /** The ETag an answer carrying `entity` (as sent, with its href) has. */
  answerEtag(entity: Json): string {
    return this.has('contentEtags') ? strongEtag(JSON.stringify(entity)) : this.versionEtag(entity);
  }

  /** Refuses (412) a PATCH of `current` whose If-Match none of its validators matches. */
  checkIfMatch(ifMatch: string, current: ContractResource): void {
    // The contract as a PATCH loads it: no href, which only answers carry.
    const strong = this.has('contentEtags')
      ? strongEtag(JSON.stringify(withoutHref(current)))
      : this.versionEtag(current);
    const weak = `W/"${javaDouble(current.version)}"`;
    const holds = ifMatch
      .split(',')
      .map((tag) => tag.trim())
      .some((tag) => tag === '*' || tag === strong || tag === weak);
    if (!holds)
      throw new ApiError(
        412,
        `The entity has been modified. Current ETag: ${strong}. Please refresh and retry with the latest version.`,
      );
  }

  private versionEtag(entity: Json): string {
    // Java writes a missing field as null.
    const version = typeof entity.version === 'number' ? javaDouble(entity.version) : 'null';
    const updatedAt = typeof entity.updatedAt === 'number' ? String(entity.updatedAt) : 'null';
    return strongEtag(`${version}-${updatedAt}`);
  }
}
