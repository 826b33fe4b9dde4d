// The sandbox's state: users, assets, products and contracts in memory, optionally kept in a
// file. Every change is on disk (temp file, fsync, rename) before it is acknowledged.
import {
  closeSync,
  fsyncSync,
  openSync,
  readFileSync,
  renameSync,
  rmSync,
  writeSync,
} from 'node:fs';
import path from 'node:path';
import {
  checkSeed,
  type ContractResource,
  type Seed,
  type SeedAsset,
  type SeedDataProduct,
  type SeedUser,
} from './seed.js';

/** A Map that counts its changes, so indexes built from it know when to rebuild. */
export class VersionedMap<K, V> extends Map<K, V> {
  version = 0;

  override set(key: K, value: V): this {
    this.version += 1;
    return super.set(key, value);
  }

  override delete(key: K): boolean {
    this.version += 1;
    return super.delete(key);
  }

  override clear(): void {
    this.version += 1;
    super.clear();
  }
}

/** How the state file's bytes are written: `fs.writeSync`'s own, unless a test passes another. */
export type WriteBytes = (fd: number, bytes: Buffer, offset: number, length: number) => number;

export class Store {
  /** How persist writes the state file's bytes (a test passes one that writes short). */
  writeBytes: WriteBytes = (fd, bytes, offset, length) => writeSync(fd, bytes, offset, length);

  readonly users = new Map<string, SeedUser>();
  readonly assets = new VersionedMap<string, SeedAsset>();
  readonly dataProducts = new Map<string, SeedDataProduct>();
  readonly teams: NonNullable<Seed['teams']>;
  readonly testCases: NonNullable<Seed['testCases']>;
  /** The seed's data asset rules, when it gives them (else OpenMetadata's defaults apply). */
  readonly dataAssetRules: Seed['dataAssetRules'] | undefined;
  readonly customProperties: NonNullable<Seed['customProperties']>;
  /** Lineage edges by the fullyQualifiedName of their ends (PUT /v1/lineage adds to them). */
  readonly lineage: NonNullable<Seed['lineage']>;
  readonly contracts = new Map<string, ContractResource>();
  private readonly contractIdByFqn = new Map<string, string>();
  /** Each contract's earlier versions, as PATCHes left them, by id and version (this run only). */
  private readonly versions = new Map<string, Map<number, ContractResource>>();
  /** Contract id by `id:<asset id>` and by `fqn:<type> <asset FQN>` of its entity reference. */
  private readonly contractIdByEntity = new Map<string, string>();

  constructor(
    seed: Seed,
    private readonly dataFile?: string,
  ) {
    this.teams = seed.teams ?? [];
    this.testCases = seed.testCases ?? [];
    this.dataAssetRules = seed.dataAssetRules;
    this.customProperties = [...(seed.customProperties ?? [])];
    this.lineage = [...(seed.lineage ?? [])];
    for (const user of seed.users) this.users.set(user.name, user);
    for (const asset of seed.assets) this.assets.set(asset.id, asset);
    for (const product of seed.dataProducts) this.dataProducts.set(product.name, product);
    for (const contract of seed.dataContracts) this.putContract(contract, false);
  }

  /** Opens the state in `dataFile` when it exists, else starts from `seed` (and writes the file). */
  static open(seed: Seed, dataFile?: string): Store {
    if (dataFile !== undefined) {
      let text: string | undefined;
      try {
        text = readFileSync(dataFile, 'utf8');
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
      }
      if (text !== undefined) return new Store(checkSeed(JSON.parse(text)), dataFile);
      const store = new Store(seed, dataFile);
      store.persist();
      return store;
    }
    return new Store(seed);
  }

  contractByFqn(fqn: string): ContractResource | undefined {
    const id = this.contractIdByFqn.get(fqn);
    return id === undefined ? undefined : this.contracts.get(id);
  }

  /** The contract bound to an asset (by id, or by type and FQN when the reference has no id). */
  contractForAsset(asset: SeedAsset): ContractResource | undefined {
    const id =
      this.contractIdByEntity.get(`id:${asset.id}`) ??
      this.contractIdByEntity.get(`fqn:${asset.entityType}\u0000${asset.fullyQualifiedName}`);
    const contract = id === undefined ? undefined : this.contracts.get(id);
    return contract?.deleted === true ? undefined : contract;
  }

  private entityKeys(contract: ContractResource): string[] {
    const entity = contract.entity;
    return entity.id !== undefined
      ? [`id:${entity.id}`]
      : [`fqn:${entity.type}\u0000${entity.fullyQualifiedName}`];
  }

  assetByFqn(entityType: string, fqn: string): SeedAsset | undefined {
    for (const asset of this.assets.values()) {
      if (asset.entityType === entityType && asset.fullyQualifiedName === fqn) return asset;
    }
    return undefined;
  }

  putContract(contract: ContractResource, persist = true): void {
    const previous = this.contracts.get(contract.id);
    const put = (next: ContractResource | undefined, replaced: ContractResource | undefined) => {
      if (replaced !== undefined) this.unindexContract(replaced);
      if (next === undefined) {
        this.contracts.delete(contract.id);
        return;
      }
      this.contracts.set(next.id, next);
      this.contractIdByFqn.set(next.fullyQualifiedName, next.id);
      for (const key of this.entityKeys(next)) this.contractIdByEntity.set(key, next.id);
    };
    put(contract, previous);
    if (persist)
      this.committed(() => {
        put(previous, contract);
      });
  }

  /**
   * Adds a custom property (or replaces the one of the same name and entity type), as
   * `PUT /v1/metadata/types/{id}` does; written to the state file like every other change.
   */
  defineCustomProperty(property: NonNullable<Seed['customProperties']>[number]): void {
    const properties = this.customProperties;
    const entityType = property.entityType ?? 'dataContract';
    const at = properties.findIndex(
      (known) =>
        known.name === property.name && (known.entityType ?? 'dataContract') === entityType,
    );
    const previous = at === -1 ? undefined : properties[at];
    if (at === -1) properties.push(property);
    else properties[at] = property;
    this.committed(() => {
      if (previous === undefined) properties.pop();
      else properties[at] = previous;
    });
  }

  /** Keeps `contract` as the version it is, before a PATCH replaces it. */
  keepVersion(contract: ContractResource): void {
    let kept = this.versions.get(contract.id);
    if (kept === undefined)
      this.versions.set(contract.id, (kept = new Map<number, ContractResource>()));
    kept.set(contract.version, contract);
  }

  /** A version of a contract kept by keepVersion, if any. */
  keptVersion(id: string, version: number): ContractResource | undefined {
    return this.versions.get(id)?.get(version);
  }

  /** Every version of a contract kept by keepVersion, in no order. */
  keptVersions(id: string): ContractResource[] {
    return [...(this.versions.get(id)?.values() ?? [])];
  }

  removeContract(id: string): boolean {
    const previous = this.contracts.get(id);
    if (previous === undefined) return false;
    this.contracts.delete(id);
    this.unindexContract(previous);
    this.committed(() => {
      this.putContract(previous, false);
    });
    // A hard delete takes the contract's history with it, as the server's does.
    this.versions.delete(id);
    return true;
  }

  private unindexContract(contract: ContractResource): void {
    this.contractIdByFqn.delete(contract.fullyQualifiedName);
    for (const key of this.entityKeys(contract)) this.contractIdByEntity.delete(key);
  }

  putAsset(asset: SeedAsset): void {
    const previous = this.assets.get(asset.id);
    this.assets.set(asset.id, asset);
    this.committed(() => {
      if (previous === undefined) this.assets.delete(asset.id);
      else this.assets.set(asset.id, previous);
    });
  }

  removeAsset(id: string): boolean {
    const previous = this.assets.get(id);
    if (previous === undefined) return false;
    this.assets.delete(id);
    this.committed(() => {
      this.assets.set(id, previous);
    });
    return true;
  }

  /**
   * Writes the state with the change just made in memory; when the write fails, `undo` takes the
   * change back out of memory before the error goes on, so nothing unsaved is ever served. (All
   * of it runs synchronously: no request sees the change before it is on disk.)
   */
  private committed(undo: () => void): void {
    try {
      this.persist();
    } catch (error) {
      undo();
      throw error;
    }
  }

  snapshot(): Seed {
    return {
      users: [...this.users.values()],
      assets: [...this.assets.values()],
      dataProducts: [...this.dataProducts.values()],
      dataContracts: [...this.contracts.values()],
      ...(this.teams.length > 0 ? { teams: this.teams } : {}),
      ...(this.testCases.length > 0 ? { testCases: this.testCases } : {}),
      ...(this.dataAssetRules === undefined ? {} : { dataAssetRules: this.dataAssetRules }),
      ...(this.customProperties.length > 0 ? { customProperties: this.customProperties } : {}),
      ...(this.lineage.length > 0 ? { lineage: this.lineage } : {}),
    };
  }

  /** Writes the whole state atomically: a reader or a crash sees the old file or the new one. */
  persist(): void {
    if (this.dataFile === undefined) return;
    const temp = `${this.dataFile}.${process.pid}.tmp`;
    const fd = openSync(temp, 'w');
    try {
      try {
        // Every byte, or an error: a write may take fewer bytes than it was given (a disk
        // nearly full), and a state cut short must never replace the whole one.
        const bytes = Buffer.from(JSON.stringify(this.snapshot()), 'utf8');
        let offset = 0;
        while (offset < bytes.length) {
          const written = this.writeBytes(fd, bytes, offset, bytes.length - offset);
          if (written <= 0)
            throw new Error(
              `the state file took ${offset} of its ${bytes.length} bytes and no more (is the disk full?); the change was not saved`,
            );
          offset += written;
        }
        fsyncSync(fd);
      } finally {
        closeSync(fd);
      }
      renameSync(temp, this.dataFile);
    } catch (error) {
      rmSync(temp, { force: true });
      throw error;
    }
    const dir = openSync(path.dirname(path.resolve(this.dataFile)), 'r');
    try {
      fsyncSync(dir);
    } finally {
      closeSync(dir);
    }
  }
}
