// The sandbox's state: users, assets, products and contracts in memory, optionally kept in a
// file. Every change is on disk (temp file, fsync, rename) before it is acknowledged.
import { closeSync, fsyncSync, openSync, readFileSync, renameSync, writeSync } from 'node:fs';
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

export class Store {
  readonly users = new Map<string, SeedUser>();
  readonly assets = new VersionedMap<string, SeedAsset>();
  readonly dataProducts = new Map<string, SeedDataProduct>();
  readonly contracts = new Map<string, ContractResource>();
  private readonly contractIdByFqn = new Map<string, string>();
  /** Contract id by `id:<asset id>` and by `fqn:<type> <asset FQN>` of its entity reference. */
  private readonly contractIdByEntity = new Map<string, string>();

  constructor(
    seed: Seed,
    private readonly dataFile?: string,
  ) {
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
    if (previous !== undefined) {
      this.contractIdByFqn.delete(previous.fullyQualifiedName);
      for (const key of this.entityKeys(previous)) this.contractIdByEntity.delete(key);
    }
    this.contracts.set(contract.id, contract);
    this.contractIdByFqn.set(contract.fullyQualifiedName, contract.id);
    for (const key of this.entityKeys(contract)) this.contractIdByEntity.set(key, contract.id);
    if (persist) this.persist();
  }

  removeContract(id: string): boolean {
    const previous = this.contracts.get(id);
    if (previous === undefined) return false;
    this.contracts.delete(id);
    this.contractIdByFqn.delete(previous.fullyQualifiedName);
    for (const key of this.entityKeys(previous)) this.contractIdByEntity.delete(key);
    this.persist();
    return true;
  }

  putAsset(asset: SeedAsset): void {
    this.assets.set(asset.id, asset);
    this.persist();
  }

  removeAsset(id: string): boolean {
    const removed = this.assets.delete(id);
    if (removed) this.persist();
    return removed;
  }

  snapshot(): Seed {
    return {
      users: [...this.users.values()],
      assets: [...this.assets.values()],
      dataProducts: [...this.dataProducts.values()],
      dataContracts: [...this.contracts.values()],
    };
  }

  /** Writes the whole state atomically: a reader or a crash sees the old file or the new one. */
  persist(): void {
    if (this.dataFile === undefined) return;
    const temp = `${this.dataFile}.${process.pid}.tmp`;
    const fd = openSync(temp, 'w');
    try {
      writeSync(fd, JSON.stringify(this.snapshot()));
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    renameSync(temp, this.dataFile);
    const dir = openSync(path.dirname(path.resolve(this.dataFile)), 'r');
    try {
      fsyncSync(dir);
    } finally {
      closeSync(dir);
    }
  }
}
