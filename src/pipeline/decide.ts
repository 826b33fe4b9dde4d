// The pipeline's third seam: what was loaded and read → the plan. Pure: no file, catalog or clock
// is asked here (each change is made by the pure planner as its live contract is read, read-live.ts);
// the plan is put together from the changes, sealed, with what the run says about itself.
import { newerReleaseNote } from '../profile/releases.js';
import type { LiveContract } from '../catalog/client.js';
import type { DesiredContract } from '../model/contract.js';
import type { ContractFile } from '../contract/parse.js';
import type { AssetRules } from '../plan/asset-rules.js';
import { assemblePlan } from '../plan/create-plan.js';
import type { Plan } from '../plan/types.js';
import type { Codec } from '../profile/codec.js';
import type { LoadedFiles } from './load-files.js';
import type { LiveRead } from './read-live.js';
import type { Orphans } from '../prune/orphans.js';

/** A plan made: the plan and what applying it straight away needs. */
export interface Planned {
  ok: true;
  plan: Plan;
  files: ContractFile[];
  liveContracts: Map<string, LiveContract>;
  /** With keepLive, the desired contracts of the changes to apply, in the wire shape. */
  desired: Map<string, DesiredContract>;
  /** The connected catalog's codec. */
  codec: Codec;
  /** The data asset rules the plan weighed (OpenMetadata), for apply's second planning. */
  assetRules?: AssetRules;
  /** With prune: the contracts deleted files named that another repository manages, said. */
  keptForOthers: string[];
  /** A plain plan's: the contracts this repository manages whose files are gone. */
  orphans?: Orphans;
}

/** What the run says about itself in the plan. */
export interface RunFacts {
  catalogUrl: string;
  gitCommit: string | null;
  /** When the plan was made (ISO 8601). */
  createdAt: string;
}

export function decide(loaded: LoadedFiles, read: LiveRead, run: RunFacts): Planned {
  const releaseNote =
    loaded.codec.profile === 'openmetadata' ? newerReleaseNote(loaded.codec.release) : undefined;
  const notes = [...(releaseNote === undefined ? [] : [releaseNote]), ...read.notes];
  const plan = assemblePlan(read.changes, {
    catalogUrl: run.catalogUrl,
    catalogProfile: loaded.codec.profile,
    gitCommit: run.gitCommit,
    createdAt: run.createdAt,
    ...(notes.length === 0 ? {} : { notes }),
    ...(read.impact === undefined ? {} : { impact: read.impact }),
  });
  return {
    ok: true,
    plan,
    files: loaded.files,
    liveContracts: read.liveForUpdates,
    desired: read.desired,
    codec: loaded.codec,
    ...(read.assetRules === undefined ? {} : { assetRules: read.assetRules }),
    keptForOthers: read.keptForOthers,
    ...(read.orphans === undefined ? {} : { orphans: read.orphans }),
  };
}
