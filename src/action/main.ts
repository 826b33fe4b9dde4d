// Entry of the GitHub Action: read the inputs, run, report. Everything else lives in run-action.
import * as core from '@actions/core';
import { readSettings } from './input-helper.js';
import { assertCatalogSettings, runAction, type Runner } from './run-action.js';
import { exitOnInterrupt } from '../support/interrupts.js';
import { boundHeapOnLargeLoads } from '../support/heap.js';

// A program of ours, as the CLI is: a run that holds many contracts bounds the heap (support/heap.ts).
boundHeapOnLargeLoads();

// A cancelled job (SIGTERM) or Ctrl-C before the first write ends the step at once, saying that
// nothing was sent; once apply sends, it stops in order (apply-step.ts).
const beforeSending = exitOnInterrupt(
  (text) => core.error(text.trim()),
  (signal) => `Interrupted (${signal}) before anything was sent: nothing was sent to the catalog.`,
);

const runner: Runner = {
  info: (message) => core.info(message),
  warning: (message, place) => core.warning(message, place ?? {}),
  error: (message, place) => core.error(message, place ?? {}),
  setOutput: (name, value) => core.setOutput(name, value),
  setSecret: (secret) => core.setSecret(secret),
  writeSummary: async (markdown) => {
    await core.summary.addRaw(markdown, true).write();
  },
  setFailed: (message) => core.setFailed(message),
  sending: () => beforeSending.disarm(),
};

beforeSending.arm();
try {
  const settings = readSettings();
  if (settings.catalogToken !== undefined) core.setSecret(settings.catalogToken);
  for (const note of settings.notes) core.warning(note);
  assertCatalogSettings(settings);
  const outcome = await runAction(settings, runner);
  if (outcome.failed !== null) core.setFailed(outcome.failed);
} catch (error) {
  core.setFailed(error instanceof Error ? error.message : String(error));
}
