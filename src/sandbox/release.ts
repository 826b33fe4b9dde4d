// The OpenMetadata release the sandbox plays under `--profile openmetadata` (1.13.0 unless told):
// what its version endpoint answers, and its ETags, which changed in 2.0.
//
// Every answer with an entity carries a strong ETag, 16 hex digits of a SHA-256 in quotes
// (EntityETag.generateETag). Up to 1.x it hashes "<version>-<updatedAt>", the same whatever
// fields were asked for. From 2.0 on it hashes the answer's body (open-metadata/OpenMetadata#30497),
// so it moves with anything in the answer; but a PATCH weighs If-Match against the entity as the
// server loads it for the PATCH, with its own fields and without the `href` only answers carry, so
// the strong ETag of a read never matches there (open-metadata/OpenMetadata#30885). Every release
// also takes the weak validator `W/"<version>"`, the version as Java writes a Double (1.0, 0.3),
// and `*`; If-Match may list several, comma-separated, any one of which will do.
import { createHash } from 'node:crypto';
import { FIRST_RELEASE_TEXT, fromFirstRelease } from '../profile/profile.js';
import { ApiError, type Json } from './http.js';
import { typeAnswer } from './custom-properties.js';
import { rulesFor } from './asset-rules.js';
import type { ContractResource, Seed } from './seed.js';

/** The release the sandbox plays when none is given. */
export const DEFAULT_OPENMETADATA_VERSION = '1.13.0';

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

export class OpenMetadataRelease {
  private readonly contentEtags: boolean;

  /** `version` such as 1.13.0; a release before 1.10 (no data contracts as the tool knows them) is refused. */
  constructor(readonly version: string = DEFAULT_OPENMETADATA_VERSION) {
    const match = /^(\d+)\.(\d+)(?:\.(\d+))?$/.exec(version);
    const [major, minor] = match === null ? [0, 0] : [Number(match[1]), Number(match[2])];
    if (!fromFirstRelease(major, minor))
      throw new RangeError(
        `the OpenMetadata version must be ${FIRST_RELEASE_TEXT} or later, written as 1.13.0, got '${version}'`,
      );
    this.contentEtags = major >= 2;
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
    return this.contentEtags ? strongEtag(JSON.stringify(entity)) : this.versionEtag(entity);
  }

  /** Refuses (412) a PATCH of `current` whose If-Match none of its validators matches. */
  checkIfMatch(ifMatch: string, current: ContractResource): void {
    // The contract as a PATCH loads it: no href, which only answers carry.
    const strong = this.contentEtags
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
