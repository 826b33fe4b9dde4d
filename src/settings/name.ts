// The settings file's name, apart from what reads it, so that start-up loads nothing more.
export const SETTINGS_FILE = '.contracts.yaml';
