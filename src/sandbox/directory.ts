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
}

/** A stable id for a user, team or test case the sandbox knows only by name. */
export function idFor(type: string, fqn: string): string {
  const hex = createHash('sha256').update(`${type}\u0000${fqn}`).digest('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-8${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

const isEntityType = (type: unknown): type is EntityType =>
  type === 'user' || type === 'team' || type === 'testCase';

/** A test case's name is the last part of its FQN; a user's or team's FQN is its name. */
const nameOf = (type: EntityType, fqn: string): string =>
  type === 'testCase' ? fqn.split('.').pop()! : fqn;

export class Directory {
  private readonly byName = new Map<string, DirectoryEntry>();
  private readonly byId = new Map<string, DirectoryEntry>();

  private add(type: EntityType, fqn: string, id?: string): void {
    const key = `${type}\u0000${fqn}`;
    if (this.byName.has(key)) return;
    const entry = {
      id: id ?? idFor(type, fqn),
      type,
      name: nameOf(type, fqn),
      fullyQualifiedName: fqn,
    };
    this.byName.set(key, entry);
    this.byId.set(`${type}\u0000${entry.id}`, entry);
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
          const type = item.type ?? (field === 'qualityExpectations' ? 'testCase' : undefined);
          const fqn = item.fullyQualifiedName ?? item.name;
          if (isEntityType(type) && typeof fqn === 'string')
            directory.add(type, fqn, typeof item.id === 'string' ? item.id : undefined);
        }
      }
    for (const user of store.users.values()) directory.add('user', user.name);
    for (const team of store.teams) directory.add('team', team.name);
    for (const testCase of store.testCases) directory.add('testCase', testCase.fullyQualifiedName);
    for (const asset of store.assets.values())
      for (const owner of asset.owners ?? [])
        if (isEntityType(owner.type) && typeof owner.name === 'string')
          directory.add(owner.type, owner.name);
    return directory;
  }

  /** `GET /v1/users/name/{name}` and its kin: the entity, or a 404 as the real server words it. */
  byFullyQualifiedName(type: EntityType, fqn: string): DirectoryEntry {
    const entry = this.byName.get(`${type}\u0000${fqn}`);
    if (entry === undefined) throw new ApiError(404, `${type} instance for ${fqn} not found`);
    return entry;
  }

  byEntityId(type: EntityType, id: string): DirectoryEntry {
    const entry = this.byId.get(`${type}\u0000${id}`);
    if (entry === undefined) throw new ApiError(404, `${type} instance for ${id} not found`);
    return entry;
  }
}
