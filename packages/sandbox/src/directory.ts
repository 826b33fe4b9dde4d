// The users, teams and test cases an OpenMetadata sandbox knows, as a real server knows the
// entities a contract may reference: the seed's users, teams and test cases, and every entity an
// asset's owners or a stored contract already name. A reference to anything else is a 404, as on
// the real server ("team instance for x not found").
import { createHash } from 'node:crypto';
import { ApiError, type Json } from './http.js';
import type { Store } from './store.js';

export type EntityType = 'user' | 'team' | 'testCase';

export interface DirectoryEntry {
  id: string;
  type: EntityType;
  name: string;
  fullyQualifiedName: string;
  /** A team's type (Group unless the seed says otherwise): only a Group may own anything. */
  teamType?: string;
}

/** A stable id for a user, team or test case the sandbox knows only by name. */
export function idFor(type: string, fqn: string): string {
  const hex = createHash('sha256').update(`${type}\u0000${fqn}`).digest('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-8${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

export const isEntityType = (type: unknown): type is EntityType =>
  type === 'user' || type === 'team' || type === 'testCase';

/**
 * The entity a reference by `fqn` names, as OpenMetadata answers it: a test case's name is the
 * last part of its FQN, a user's or team's FQN is its name.
 */
export function entityOf<T extends string>(type: T, fqn: string, id?: string) {
  const name = type === 'testCase' ? fqn.split('.').pop()! : fqn;
  return { id: id ?? idFor(type, fqn), type, name, fullyQualifiedName: fqn };
}

/**
 * The type and FQN a written reference names (quality expectations are test cases; a user or
 * team may be named by `name` alone).
 */
export function namedBy(field: string, ref: Json): { type: unknown; fqn: unknown } {
  const quality = field === 'qualityExpectations';
  return {
    type: ref.type ?? (quality ? 'testCase' : undefined),
    fqn: ref.fullyQualifiedName ?? (quality ? undefined : ref.name),
  };
}

const key = (type: EntityType, value: string): string => `${type}\u0000${value}`;

export class Directory {
  private readonly byName = new Map<string, DirectoryEntry>();
  private readonly byId = new Map<string, DirectoryEntry>();

  private add(type: EntityType, fqn: string, id?: string, teamType?: string): void {
    const known = this.byName.get(key(type, fqn));
    if (known !== undefined) {
      if (teamType !== undefined) known.teamType = teamType;
      return;
    }
    const entry: DirectoryEntry = entityOf(type, fqn, id);
    if (type === 'team') entry.teamType = teamType ?? 'Group';
    this.byName.set(key(type, fqn), entry);
    this.byId.set(key(type, entry.id), entry);
  }

  /** Everything `store` holds or names, as it is when the sandbox starts. */
  static of(store: Store): Directory {
    const directory = new Directory();
    // Contracts first, so that an id a stored reference carries is the entity's id.
    for (const contract of store.contracts.values())
      for (const field of ['owners', 'reviewers', 'qualityExpectations']) {
        const list = contract[field];
        if (!Array.isArray(list)) continue;
        for (const item of list as Json[]) {
          const { type, fqn } = namedBy(field, item);
          if (isEntityType(type) && typeof fqn === 'string')
            directory.add(type, fqn, typeof item.id === 'string' ? item.id : undefined);
        }
      }
    for (const user of store.users.values()) directory.add('user', user.name);
    for (const team of store.teams)
      directory.add(
        'team',
        team.name,
        undefined,
        typeof team.teamType === 'string' ? team.teamType : undefined,
      );
    for (const testCase of store.testCases) directory.add('testCase', testCase.fullyQualifiedName);
    for (const asset of store.assets.values())
      for (const owner of asset.owners ?? [])
        if (isEntityType(owner.type) && typeof owner.name === 'string')
          directory.add(owner.type, owner.name);
    return directory;
  }

  /** `GET /v1/users/name/{name}` and its kin: the entity, or a 404 as the real server words it. */
  byFullyQualifiedName(type: EntityType, fqn: string): DirectoryEntry {
    const entry = this.byName.get(key(type, fqn));
    if (entry === undefined) throw new ApiError(404, `${type} instance for ${fqn} not found`);
    return entry;
  }

  byEntityId(type: EntityType, id: string): DirectoryEntry {
    const entry = this.byId.get(key(type, id));
    if (entry === undefined) throw new ApiError(404, `${type} instance for ${id} not found`);
    return entry;
  }
}
